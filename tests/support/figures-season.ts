import type { EnquiryStore } from "~/store/enquiries.types";

/**
 * A season to count by hand (the Figures page, docs/inbox.md): enquiries saved through the store, then given the
 * pipeline's columns (schema v16) with SQL, as the enquiry page would have set them. The site's time zone is New York,
 * so the one that arrived at 02:30 UTC on 1 November counts in October. `erase.me@example.com` is erased by the tests
 * after seeding: it must still count.
 */

export const seasonZone = "America/New_York";
export const animatronics = "Custom electric animatronics";
export const scenic = "Scenic design and building";
export const erasedAddress = "erase.me@example.com";

const minute = 60_000;
const hour = 60 * minute;

interface Seeded {
  at: string;
  service: string | null;
  stage?: string;
  lostReason?: string | null;
  /** In cents. */
  quote?: number;
  replyAfterMs?: number;
  spam?: boolean;
  email?: string;
}

export const season: readonly Seeded[] = [
  // 2026, March: five, one spam.
  { at: "2026-03-03T15:00:00Z", service: animatronics, stage: "quoted", quote: 120_000, replyAfterMs: 2 * hour },
  { at: "2026-03-10T15:00:00Z", service: animatronics, stage: "deposit", quote: 250_000, replyAfterMs: 4 * hour },
  {
    at: "2026-03-12T15:00:00Z",
    service: scenic,
    stage: "lost",
    lostReason: "price",
    quote: 80_000,
    replyAfterMs: 1 * hour,
  },
  { at: "2026-03-20T15:00:00Z", service: null },
  { at: "2026-03-21T15:00:00Z", service: null, spam: true },
  // 2026, October: six, one spam, one erased, one that arrived on Halloween night New York time.
  { at: "2026-10-05T15:00:00Z", service: scenic, stage: "delivered", quote: 60_000, replyAfterMs: 30 * minute },
  { at: "2026-10-08T15:00:00Z", service: scenic, stage: "lost", lostReason: "timing", replyAfterMs: 6 * hour },
  { at: "2026-10-09T15:00:00Z", service: null, stage: "lost", lostReason: null, replyAfterMs: 3 * hour },
  { at: "2026-11-01T02:30:00Z", service: animatronics, stage: "building", quote: 300_000, replyAfterMs: 10 * hour },
  {
    at: "2026-10-15T15:00:00Z",
    service: animatronics,
    stage: "deposit",
    quote: 100_000,
    replyAfterMs: 5 * hour,
    email: erasedAddress,
  },
  { at: "2026-10-20T15:00:00Z", service: null, spam: true },
  // 2025: October, and New Year's Eve in New York (already 2026 in UTC).
  { at: "2025-10-10T15:00:00Z", service: scenic, stage: "delivered", quote: 50_000, replyAfterMs: 2 * hour },
  { at: "2026-01-01T04:30:00Z", service: null },
];

/** Runs one statement with `?` parameters (a SqlClient's query, or node:sqlite on the file). */
export type RunSql = (sql: string, params: (string | number | null)[]) => Promise<unknown> | unknown;

/** Saves the season through the store; then `run` sets the pipeline's columns. Resolves with the ids. */
export async function saveSeason(store: EnquiryStore): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, enquiry] of season.entries()) {
    const saved = await store.save(
      {
        name: `Season visitor ${index}`,
        email: enquiry.email ?? `visitor${index}@example.com`,
        message: `A prop for the haunt, please (enquiry ${index}).`,
      },
      [],
      new Date(enquiry.at),
      enquiry.spam ? { verdict: "spam", score: 1, reasons: ["hidden field filled"] } : undefined,
    );
    ids.push(saved.id);
  }
  return ids;
}

export async function setPipeline(ids: readonly string[], run: RunSql): Promise<void> {
  for (const [index, enquiry] of season.entries()) {
    const at = new Date(enquiry.at).getTime();
    await run(
      "UPDATE enquiries SET stage = ?, lost_reason = ?, quote_amount = ?, first_reply_at = ?, service = ? WHERE id = ?",
      [
        enquiry.stage ?? null,
        enquiry.lostReason ?? null,
        enquiry.quote ?? null,
        enquiry.replyAfterMs === undefined ? null : at + enquiry.replyAfterMs,
        enquiry.service,
        ids[index]!,
      ],
    );
  }
}

/** What a hand count of the season gives (the comments show the count). */
export const handCount = {
  march2026: {
    enquiries: 5,
    spam: 1,
    replied: 3,
    quoted: 3,
    won: 1,
    lost: { price: 1 },
    // Won 1 of the 4 that are not spam.
    conversion: "25%",
    // 1 h, 2 h, 4 h.
    medianReplyMs: 2 * hour,
    medianReply: "2 h",
    quotedTotal: 450_000, // 1,200 + 2,500 + 800
    wonTotal: 250_000,
  },
  october2026: {
    enquiries: 6,
    spam: 1,
    replied: 5,
    quoted: 3,
    won: 3, // delivered, building (Halloween night), deposit (erased)
    lost: { timing: 1, unstated: 1 },
    conversion: "60%", // 3 of 5
    medianReplyMs: 5 * hour, // 30 min, 3 h, 5 h, 6 h, 10 h
    medianReply: "5 h",
    quotedTotal: 460_000, // 600 + 3,000 + 1,000
    wonTotal: 460_000,
  },
  year2026: {
    enquiries: 11,
    spam: 2,
    replied: 8,
    quoted: 6,
    won: 4,
    lost: { price: 1, timing: 1, unstated: 1 },
    conversion: "44.4%", // 4 of 9
    medianReplyMs: 3.5 * hour, // 30 min, 1, 2, 3 | 4, 5, 6, 10 h: between 3 h and 4 h
    medianReply: "3 h 30 min",
    quotedTotal: 910_000,
    wonTotal: 710_000,
  },
  animatronics2026: {
    enquiries: 4,
    spam: 0,
    replied: 4,
    quoted: 4,
    won: 3,
    conversion: "75%",
    medianReplyMs: 4.5 * hour, // 2, 4 | 5, 10 h
    medianReply: "4 h 30 min",
    quotedTotal: 770_000,
    wonTotal: 650_000,
  },
  scenic2026: {
    enquiries: 3,
    spam: 0,
    replied: 3,
    quoted: 2,
    won: 1,
    lost: { price: 1, timing: 1 },
    conversion: "33.3%",
    medianReplyMs: 1 * hour, // 30 min, 1 h, 6 h
    medianReply: "1 h",
    quotedTotal: 140_000,
    wonTotal: 60_000,
  },
  noService2026: {
    enquiries: 4,
    spam: 2,
    replied: 1,
    quoted: 0,
    won: 0,
    lost: { unstated: 1 },
    conversion: "0%",
    medianReplyMs: 3 * hour,
    medianReply: "3 h",
    quotedTotal: 0,
    wonTotal: 0,
  },
  year2025: { enquiries: 2, won: 1, december: 1, october: 1 },
} as const;
