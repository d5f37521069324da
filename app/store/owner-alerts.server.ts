import { randomUUID } from "node:crypto";
import { time } from "~/store/rows.server";
import { transaction, type Params, type SqlClient } from "~/store/sql.server";
import type { ClaimedOwnerAlert, OwnerAlertKind, OwnerAlertStore } from "~/store/owner-alerts.types";
import type { Channel } from "~/store/records";

/**
 * The owner's alerts' side of the database (table `owner_alerts`, schema v20; `login_alerts` from v11): one row per
 * login, factor added or customer's answer and channel, stored when it happens, claimed under a lease by one sender on
 * any instance and settled only by its holder, as the outbox does with notifications. Written once over a SqlClient for
 * SQLite and PostgreSQL.
 */

/** How long a claim on an alert holds: one held by a process that died is taken over after this. */
export const ownerAlertLeaseMs = 30_000;
/** Settled alerts (sent or failed) are kept this long: they hold an operator's browser or a customer's words. */
const keptMs = 30 * 24 * 60 * 60_000;

const alertKinds: readonly OwnerAlertKind[] = ["login", "passkey-added", "codes-added", "customer-answer"];
const alertKind = (value: unknown): OwnerAlertKind =>
  alertKinds.includes(value as OwnerAlertKind) ? (value as OwnerAlertKind) : "login";

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** A customer's answer keeps its words as JSON {"text": ...} in `detail` (see schema v20): written here. */
export const answerDetail = (words: string): string => JSON.stringify({ text: words });

/** The detail as the alert carries it: a customer's answer's words read back from their JSON. */
function detailOf(kind: OwnerAlertKind, value: unknown): string | null {
  const detail = text(value);
  if (kind !== "customer-answer" || detail === null) return detail;
  try {
    return String((JSON.parse(detail) as { text?: unknown }).text ?? "");
  } catch {
    return "";
  }
}

export function ownerAlertOperations(db: SqlClient): OwnerAlertStore {
  // PostgreSQL: a claim skips rows another instance is claiming (SQLite runs one write transaction at a time anyway).
  const skipLocked = db.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";

  const settle = async (claim: ClaimedOwnerAlert, set: string, params: Params) => {
    const rows = await db.query(
      `UPDATE owner_alerts SET ${set}, claim_token = NULL, claim_until = NULL
       WHERE id = ? AND channel = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
      [...params, claim.id, claim.channel, claim.claimToken],
    );
    return rows.length === 1;
  };

  return {
    async queueOwnerAlert(alert, channels) {
      if (channels.length === 0) return;
      const { id, at, kind = "login", operatorEmail, browser, address, detail = null } = alert;
      const stored = kind === "customer-answer" && detail !== null ? answerDetail(detail) : detail;
      await transaction(
        db,
        channels.map((channel) => ({
          sql: `INSERT INTO owner_alerts (id, channel, kind, at, operator_email, browser, address, customer_name,
                  enquiry_id, detail, state, attempts, next_attempt_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?)`,
          params: [
            id,
            channel,
            kind,
            at.getTime(),
            operatorEmail,
            browser,
            address,
            alert.customerName ?? null,
            alert.enquiryId ?? null,
            stored,
            at.getTime(),
          ],
        })),
      );
    },

    async claimOwnerAlerts(limit, now = new Date()) {
      const at = now.getTime();
      const token = randomUUID();
      const due = "state = 'pending' AND next_attempt_at <= ? AND (claim_until IS NULL OR claim_until <= ?)";
      const { claimed } = await transaction(db, [
        {
          sql: "DELETE FROM owner_alerts WHERE state <> 'pending' AND at < ?",
          params: [at - keptMs],
        },
        {
          // The conditions again outside the sub-select: of two instances claiming at once, the second finds the row
          // claimed when it gets to it (PostgreSQL re-checks them on a row another transaction changed).
          name: "claimed",
          sql: `UPDATE owner_alerts SET claim_token = ?, claim_until = ?, attempts = attempts + 1
                WHERE ${due} AND (id, channel) IN (
                  SELECT id, channel FROM owner_alerts WHERE ${due} ORDER BY next_attempt_at LIMIT ?${skipLocked})
                RETURNING id, channel, kind, at, operator_email, browser, address, customer_name, enquiry_id, detail,
                  attempts, claim_until`,
          params: [token, at + ownerAlertLeaseMs, at, at, at, at, limit],
        },
      ]);
      return (claimed ?? []).map((row) => {
        const kind = alertKind(row.kind);
        return {
          id: String(row.id),
          channel: row.channel as Channel,
          kind,
          at: time(row.at),
          operatorEmail: text(row.operator_email),
          browser: String(row.browser),
          address: String(row.address),
          customerName: text(row.customer_name),
          enquiryId: text(row.enquiry_id),
          detail: detailOf(kind, row.detail),
          attempts: Number(row.attempts),
          claimToken: token,
          claimUntil: time(row.claim_until),
        };
      });
    },

    markOwnerAlertSent: (claim, now = new Date()) =>
      settle(claim, "state = 'sent', sent_at = ?, last_error = NULL", [now.getTime()]),
    markOwnerAlertRetry: (claim, error, nextAttemptAt) =>
      settle(claim, "next_attempt_at = ?, last_error = ?", [nextAttemptAt.getTime(), error.slice(0, 1000)]),
    markOwnerAlertFailed: (claim, error) => settle(claim, "state = 'failed', last_error = ?", [error.slice(0, 1000)]),

    async nextOwnerAlertAt() {
      const [row] = await db.query(
        `SELECT MIN(CASE WHEN claim_until IS NOT NULL AND claim_until > next_attempt_at THEN claim_until ELSE next_attempt_at END) AS due
         FROM owner_alerts WHERE state = 'pending'`,
      );
      return row?.due === null || row?.due === undefined ? null : time(row.due);
    },
  };
}
