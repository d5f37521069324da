import { randomUUID } from "node:crypto";
import { enquiryFrom, time } from "~/store/rows.server";
import type { Params, SqlClient } from "~/store/sql.server";
import { restartDelivery, unclaimed } from "~/store/statements.server";
import type { ClaimedNotification, NotificationStore } from "~/store/notifications.types";
import type { Channel } from "~/store/records";

/**
 * The outbox's side of the notifications: claim the due ones under a lease, settle each claim (sent, retry later,
 * failed), and put failed ones back; written once over a SqlClient for SQLite and PostgreSQL.
 */

/** How long a claim on a notification holds: one held by a process that died is taken over after this. */
export const claimLeaseMs = 30_000;

export function notificationOperations(db: SqlClient): NotificationStore {
  // PostgreSQL: a claim skips rows another instance is claiming (SQLite runs one write transaction at a time anyway).
  const skipLocked = db.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";

  /** Changes the claimed notification when the claim still holds, and ends the claim. */
  const settle = async (claim: ClaimedNotification, set: string, params: Params) => {
    const rows = await db.query(
      `UPDATE notifications SET ${set}, ${unclaimed} WHERE id = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
      [...params, claim.id, claim.claimToken],
    );
    return rows.length === 1;
  };

  return {
    async claimDue(owner, limit, now = new Date(), only) {
      if (only && only.length === 0) return [];
      const at = now.getTime();
      const token = randomUUID();
      // `only`: the channels the caller has room for (the outbox holds each destination to a few sends at once).
      const ofChannels = only ? ` AND channel IN (${only.map(() => "?").join(", ")})` : "";
      const due = `state = 'pending' AND next_attempt_at <= ? AND (claim_until IS NULL OR claim_until <= ?)${ofChannels}`;
      const dueParams = [at, at, ...(only ?? [])];
      const claimed = await db.query(
        `UPDATE notifications SET claimed_by = ?, claim_token = ?, claim_until = ?, attempts = attempts + 1
         WHERE ${due} AND id IN (SELECT id FROM notifications WHERE ${due} ORDER BY next_attempt_at LIMIT ?${skipLocked})
         RETURNING id, enquiry_id, channel, attempts, window_start, claim_until, request_id`,
        [owner, token, at + claimLeaseMs, ...dueParams, ...dueParams, limit],
      );
      if (claimed.length === 0) return [];
      const ids = [...new Set(claimed.map((row) => String(row.enquiry_id)))];
      const enquiries = new Map(
        (await db.query(`SELECT * FROM enquiries WHERE id IN (${ids.map(() => "?").join(", ")})`, ids)).map((row) => [
          String(row.id),
          enquiryFrom(row),
        ]),
      );
      return claimed.flatMap((row) => {
        const enquiry = enquiries.get(String(row.enquiry_id));
        if (!enquiry) return []; // erased in between
        return [
          {
            id: String(row.id),
            channel: row.channel as Channel,
            attempts: Number(row.attempts),
            windowStart: time(row.window_start),
            claimUntil: time(row.claim_until),
            claimToken: token,
            enquiry,
            ...(row.request_id == null ? {} : { requestId: String(row.request_id) }),
          },
        ];
      });
    },

    markSent: (claim, now = new Date()) =>
      settle(claim, "state = 'sent', sent_at = ?, last_error = NULL", [now.getTime()]),
    markRetry: (claim, error, nextAttemptAt) =>
      settle(claim, "next_attempt_at = ?, last_error = ?", [nextAttemptAt.getTime(), error.slice(0, 1000)]),
    markFailed: (claim, error) => settle(claim, "state = 'failed', last_error = ?", [error.slice(0, 1000)]),

    async nextDueAt() {
      const [row] = await db.query(
        `SELECT MIN(CASE WHEN claim_until IS NOT NULL AND claim_until > next_attempt_at THEN claim_until ELSE next_attempt_at END) AS due
         FROM notifications WHERE state = 'pending'`,
      );
      return row?.due === null || row?.due === undefined ? null : time(row.due);
    },

    async retryFailed(now = new Date()) {
      const { sql, params } = restartDelivery(now.getTime(), { sql: "state = 'failed'", params: [] });
      return (await db.query(sql, params)).length;
    },

    async queueByChannel() {
      // Sent rows are most of the table and left out by the (state, next_attempt_at) index.
      const rows = await db.query(
        `SELECT channel, SUM(CASE WHEN state = 'pending' THEN 1 ELSE 0 END) AS pending,
                SUM(CASE WHEN state = 'failed' THEN 1 ELSE 0 END) AS failed,
                MIN(CASE WHEN state = 'pending' THEN window_start END) AS oldest
         FROM notifications WHERE state IN ('pending', 'failed') GROUP BY channel ORDER BY channel`,
      );
      return rows.map((row) => ({
        channel: row.channel as Channel,
        pending: Number(row.pending),
        failed: Number(row.failed),
        oldestPendingSince: row.oldest === null || row.oldest === undefined ? null : time(row.oldest),
      }));
    },
  };
}
