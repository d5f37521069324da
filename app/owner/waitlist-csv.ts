import type { WaitlistEntry } from "~/store/waitlist.types";
import { csvLines } from "~/text/csv";

/**
 * The waitlist as CSV rows (the Waitlist page's Download CSV): each cell through csvCell like the enquiries' export,
 * so an address a visitor typed ("=HYPERLINK(…)@x") never runs as a spreadsheet formula. Dates as ISO 8601 (UTC).
 */
export function waitlistCsv(entries: readonly WaitlistEntry[]) {
  const iso = (date: Date | null) => (date ? date.toISOString() : "");
  async function* each() {
    yield* entries;
  }
  return csvLines(["email", "state", "askedAt", "confirmedAt", "unsubscribedAt"], each(), (entry) => [
    entry.email,
    entry.state,
    entry.createdAt.toISOString(),
    iso(entry.confirmedAt),
    iso(entry.unsubscribedAt),
  ]);
}
