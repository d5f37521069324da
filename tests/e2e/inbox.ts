import { readFile } from "node:fs/promises";
import { inboxFile } from "./servers";

/** An enquiry as `npm run inbox -- --json` lists it (the fields the tests read). */
export interface InboxEntry {
  receivedAt: string;
  name: string;
  email: string;
  message: string;
}

/**
 * The enquiries in the embedded-mode server's inbox whose message or name carries the token. Both projects post
 * to that one inbox at the same time, so a test only ever looks at its own token's entries, never at counts.
 * The one place that knows how the inbox is stored (today JSON lines in INBOX_FILE): when the storage changes,
 * only this function does.
 */
export async function inboxEntriesCarrying(token: string): Promise<InboxEntry[]> {
  const text = await readFile(inboxFile, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return ""; // nothing stored yet
    throw error;
  });
  // Only complete lines: the other project's server may be half-way through appending one right now.
  const complete = text.slice(0, text.lastIndexOf("\n") + 1);
  return complete
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as InboxEntry)
    .filter((entry) => `${entry.message}\n${entry.name}`.includes(token));
}
