import { DatabaseSync } from "node:sqlite";
import { embeddedDatabase } from "./servers";

/** An enquiry as `npm run inbox -- --json` lists it (the fields the tests read). */
export interface InboxEntry {
  receivedAt: string;
  name: string;
  email: string;
  message: string;
}

/**
 * The enquiries in a server's embedded inbox (by default the embedded-mode server's) whose message or name carries the
 * token, read from its SQLite file beside the server, as a second process would. Both projects post to one inbox at
 * the same time, so a test only ever looks at its own token's entries, never at counts. The one place that knows how
 * the inbox is stored.
 */
export function inboxEntriesCarrying(token: string, database = embeddedDatabase): InboxEntry[] {
  const db = new DatabaseSync(database, { readOnly: true, timeout: 5_000 });
  try {
    const rows = db
      .prepare(
        "SELECT received_at, name, email, message FROM enquiries WHERE instr(message, ?) > 0 OR instr(name, ?) > 0",
      )
      .all(token, token) as { received_at: number; name: string; email: string; message: string }[];
    return rows.map(({ received_at, ...entry }) => ({ receivedAt: new Date(received_at).toISOString(), ...entry }));
  } finally {
    db.close();
  }
}

/** The status, spam verdict and spam reasons of the enquiries carrying the token (see inboxEntriesCarrying). */
export function inboxVerdictsCarrying(
  token: string,
  database: string,
): { status: string; spamVerdict: string; spamReasons: string[] }[] {
  const db = new DatabaseSync(database, { readOnly: true, timeout: 5_000 });
  try {
    const rows = db
      .prepare(
        "SELECT status, spam_verdict, spam_reasons FROM enquiries WHERE instr(message, ?) > 0 OR instr(name, ?) > 0",
      )
      .all(token, token) as { status: string; spam_verdict: string; spam_reasons: string | null }[];
    return rows.map((row) => ({
      status: row.status,
      spamVerdict: row.spam_verdict,
      spamReasons: row.spam_reasons ? (JSON.parse(row.spam_reasons) as string[]) : [],
    }));
  } finally {
    db.close();
  }
}
