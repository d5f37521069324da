import { randomUUID } from "node:crypto";
import { enquiryFrom, time } from "~/store/rows.server";
import { transaction, type Params, type SqlClient } from "~/store/sql.server";
import type { ClaimedDigestSend, DigestStore } from "~/store/digests.types";
import type { Channel } from "~/store/records";

/**
 * The daily spam digest's side of the database: the day claimed by one instance (an insert only one can make), one
 * send per channel claimed under a lease and settled by its holder, as the outbox does with notifications. Written
 * once over a SqlClient for SQLite and PostgreSQL.
 */

/** How long a claim on a digest's send holds: one held by a process that died is taken over after this. */
export const digestLeaseMs = 30_000;
/** A digest covers the spam kept aside since the last one, but never more than two days back (the first: one day). */
const dayMs = 24 * 60 * 60_000;
const longestGapMs = 2 * dayMs;
/** Days claimed this long ago are forgotten (they hold no personal data, only times). */
const keptDaysMs = 40 * dayMs;

const inWindow = "e.status = 'spam' AND e.received_at >= d.window_start AND e.received_at < d.window_end";

export function digestOperations(db: SqlClient): DigestStore {
  const settle = async (claim: ClaimedDigestSend, set: string, params: Params) => {
    const rows = await db.query(
      `UPDATE spam_digest_sends SET ${set}, claim_token = NULL, claim_until = NULL
       WHERE day = ? AND channel = ? AND claim_token = ? AND state = 'pending' RETURNING day`,
      [...params, claim.day, claim.channel, claim.claimToken],
    );
    return rows.length === 1;
  };

  return {
    async claimDigestDay(day, channels, now = new Date()) {
      const at = now.getTime();
      const token = randomUUID();
      const mine = "d.day = ? AND d.claimed_by = ?";
      const steps = await transaction(db, [
        { sql: "DELETE FROM spam_digests WHERE claimed_at < ?", params: [at - keptDaysMs] },
        {
          // Only one claim of the day inserts its row. Its window starts where the previous day's ended, so every spam
          // post is in one digest, even when a day's digest went out late.
          name: "claimed",
          sql: `INSERT INTO spam_digests (day, window_start, window_end, claimed_by, claimed_at)
                SELECT CAST(? AS TEXT), COALESCE(MAX(window_end), CAST(? AS BIGINT)), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT)
                FROM spam_digests WHERE window_end > ? AND window_end <= ?
                ON CONFLICT (day) DO NOTHING RETURNING window_start, window_end`,
          params: [day, at - dayMs, at, token, at, at - longestGapMs, at],
        },
        {
          name: "spam",
          sql: `SELECT COUNT(*) AS n FROM spam_digests d JOIN enquiries e ON ${inWindow} WHERE ${mine}`,
          params: [day, token],
        },
        // Something to tell: one pending send per channel, due now (nothing when this call did not claim the day).
        ...channels.map((channel) => ({
          sql: `INSERT INTO spam_digest_sends (day, channel, state, attempts, next_attempt_at)
                SELECT d.day, CAST(? AS TEXT), 'pending', 0, CAST(? AS BIGINT) FROM spam_digests d
                WHERE ${mine} AND EXISTS (SELECT 1 FROM enquiries e WHERE ${inWindow})`,
          params: [channel, at, day, token],
        })),
      ]);
      const [claimed] = steps.claimed;
      if (!claimed) return null;
      return {
        windowStart: time(claimed.window_start),
        windowEnd: time(claimed.window_end),
        spam: Number(steps.spam[0]?.n ?? 0),
      };
    },

    async claimDigestSends(listLimit, now = new Date()) {
      const at = now.getTime();
      const token = randomUUID();
      const claimed = await db.query(
        `UPDATE spam_digest_sends SET claim_token = ?, claim_until = ?, attempts = attempts + 1
         WHERE state = 'pending' AND next_attempt_at <= ? AND (claim_until IS NULL OR claim_until <= ?)
         RETURNING day, channel, attempts, claim_until`,
        [token, at + digestLeaseMs, at, at],
      );
      const sends: ClaimedDigestSend[] = [];
      for (const row of claimed) {
        const day = String(row.day);
        const [digest] = await db.query("SELECT * FROM spam_digests WHERE day = ?", [day]);
        if (!digest) continue;
        const window = [digest.window_start, digest.window_end] as Params;
        const spam = await db.query(
          `SELECT * FROM enquiries WHERE status = 'spam' AND received_at >= ? AND received_at < ?
           ORDER BY received_at, id LIMIT ?`,
          [...window, listLimit],
        );
        const [count] = await db.query(
          "SELECT COUNT(*) AS n FROM enquiries WHERE status = 'spam' AND received_at >= ? AND received_at < ?",
          window,
        );
        sends.push({
          day,
          channel: row.channel as Channel,
          attempts: Number(row.attempts),
          claimToken: token,
          claimUntil: time(row.claim_until),
          claimedAt: time(digest.claimed_at),
          windowStart: time(digest.window_start),
          windowEnd: time(digest.window_end),
          spam: spam.map(enquiryFrom),
          total: Number(count?.n ?? 0),
        });
      }
      return sends;
    },

    markDigestSent: (claim, now = new Date()) =>
      settle(claim, "state = 'sent', sent_at = ?, last_error = NULL", [now.getTime()]),
    markDigestRetry: (claim, error, nextAttemptAt) =>
      settle(claim, "next_attempt_at = ?, last_error = ?", [nextAttemptAt.getTime(), error.slice(0, 1000)]),
    markDigestFailed: (claim, error) => settle(claim, "state = 'failed', last_error = ?", [error.slice(0, 1000)]),

    async nextDigestSendAt() {
      const [row] = await db.query(
        `SELECT MIN(CASE WHEN claim_until IS NOT NULL AND claim_until > next_attempt_at THEN claim_until ELSE next_attempt_at END) AS due
         FROM spam_digest_sends WHERE state = 'pending'`,
      );
      return row?.due === null || row?.due === undefined ? null : time(row.due);
    },
  };
}
