import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { importProblem } from "~/enquiry/validate.server";
import type { V1ImportStore } from "~/store/v1.types";
import type { V1Record } from "~/store/v1.types";
import { withoutControls } from "~/text/safety";
import { log } from "~/log.server";

/**
 * Imports the v1 JSON-lines inbox when it exists. A file imported to the end is remembered (size, modification time,
 * content hash) and not read again at later starts; one with the same content but a new time is hashed, not parsed.
 * Each line is imported once (its id comes from its content), so a start interrupted half-way finishes the job the
 * next time; lines that are not valid enquiries, and those of erased addresses, are skipped. The file is left there.
 */
export async function importV1Inbox(target: V1ImportStore, file: string): Promise<number> {
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  const seen = { size: info.size, mtimeMs: info.mtimeMs };
  if (await target.v1FileImported(seen)) return 0;
  const bytes = await readFile(file);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (await target.v1FileImported({ ...seen, sha256 })) {
    await target.rememberV1File({ path: file, ...seen, sha256 });
    return 0;
  }
  const records: V1Record[] = [];
  const lines = new TextDecoder().decode(bytes).split("\n");
  for (const [index, line] of lines.entries()) {
    // A large file is checked in slices, so the server's timers (its start-up wait, signals) keep running meanwhile.
    if (index % 2_000 === 1_999) await new Promise((resolve) => setImmediate(resolve));
    if (line.trim() === "") continue;
    const parsed = parseV1Line(line);
    if (typeof parsed === "string") log.error(`inbox: ${file}:${index + 1}: not imported: ${parsed}`);
    else records.push(parsed);
  }
  const added = await target.importV1(records);
  await target.rememberV1File({ path: file, ...seen, sha256 });
  log.info(`inbox: imported ${added} enquiries from ${file} (v1); it will not be read again and can be archived now`);
  return added;
}

/** A v1 record, checked by the rules of a new enquiry; or why not. */
function parseV1Line(line: string): V1Record | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return "not JSON";
  }
  if (typeof value !== "object" || value === null) return "not an enquiry";
  const fields = value as Record<string, unknown>;
  const text = (field: string) => (typeof fields[field] === "string" ? withoutControls(fields[field]) : fields[field]);
  const receivedAt = text("receivedAt");
  if (typeof receivedAt !== "string" || Number.isNaN(Date.parse(receivedAt))) return "receivedAt: not a date";
  const candidate = { name: text("name"), email: text("email"), message: text("message") };
  const problem = importProblem(candidate);
  if (problem) return problem;
  const trimmed = (field: "name" | "email" | "message") => (candidate[field] as string).trim();
  return { receivedAt, name: trimmed("name"), email: trimmed("email"), message: trimmed("message") };
}
