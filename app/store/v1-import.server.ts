import { readFile } from "node:fs/promises";
import type { InboxStore, V1Record } from "~/store/types";
import { withoutControls } from "~/text/safety";

/**
 * Imports the v1 JSON-lines inbox when it exists. Each line is imported once (its id comes from its content), so
 * running this at every start adds nothing twice, and a start interrupted half-way finishes the job the next time.
 * The file is left where it is.
 */
export async function importV1Inbox(target: InboxStore, file: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  const records: V1Record[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    const record = parseV1Line(line);
    if (record) records.push(record);
    else console.error(`inbox: ${file}:${index + 1}: not an enquiry, not imported`);
  });
  const added = await target.importV1(records);
  if (added > 0) console.log(`inbox: imported ${added} enquiries from ${file} (v1); it can be archived now`);
  return added;
}

function parseV1Line(line: string): V1Record | null {
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    const fields = ["receivedAt", "name", "email", "message"] as const;
    if (typeof value !== "object" || value === null || !fields.every((field) => typeof value[field] === "string"))
      return null;
    const clean = (field: (typeof fields)[number]) => withoutControls(value[field] as string);
    return { receivedAt: clean("receivedAt"), name: clean("name"), email: clean("email"), message: clean("message") };
  } catch {
    return null;
  }
}
