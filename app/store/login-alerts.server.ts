import { randomUUID } from "node:crypto";
import { time } from "~/store/rows.server";
import { transaction, type Params, type SqlClient } from "~/store/sql.server";
import type { ClaimedLoginAlert, LoginAlertKind, LoginAlertStore } from "~/store/login-alerts.types";
import type { Channel } from "~/store/records";

/**
 * The new-login alerts' side of the database (table `login_alerts`, schema v11): one row per login and channel, stored
 * at the login, claimed under a lease by one sender on any instance and settled only by its holder, as the outbox
 * does with notifications. Written once over a SqlClient for SQLite and PostgreSQL.
 */

/** How long a claim on an alert holds: one held by a process that died is taken over after this. */
export const loginAlertLeaseMs = 30_000;
/** Settled alerts (sent or failed) are forgotten after this long: they hold an operator's address and browser. */
const keptMs = 30 * 24 * 60 * 60_000;

const alertKinds: readonly LoginAlertKind[] = ["login", "passkey-added", "codes-added", "customer-answer"];
const alertKind = (value: unknown): LoginAlertKind =>
  alertKinds.includes(value as LoginAlertKind) ? (value as LoginAlertKind) : "login";

export function loginAlertOperations(db: SqlClient): LoginAlertStore {
  // PostgreSQL: a claim skips rows another instance is claiming (SQLite runs one write transaction at a time anyway).
  const skipLocked = db.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";

  const settle = async (claim: ClaimedLoginAlert, set: string, params: Params) => {
    const rows = await db.query(
      `UPDATE login_alerts SET ${set}, claim_token = NULL, claim_until = NULL
       WHERE id = ? AND channel = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
      [...params, claim.id, claim.channel, claim.claimToken],
    );
    return rows.length === 1;
  };

  return {
    async queueLoginAlert({ id, operatorEmail, at, browser, address, kind = "login", detail = null }, channels) {
      if (channels.length === 0) return;
      await transaction(
        db,
        channels.map((channel) => ({
          sql: `INSERT INTO login_alerts
                  (id, channel, operator_email, at, browser, address, kind, detail, state, attempts, next_attempt_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?)`,
          params: [id, channel, operatorEmail, at.getTime(), browser, address, kind, detail, at.getTime()],
        })),
      );
    },

    async claimLoginAlerts(limit, now = new Date()) {
      const at = now.getTime();
      const token = randomUUID();
      const due = "state = 'pending' AND next_attempt_at <= ? AND (claim_until IS NULL OR claim_until <= ?)";
      const { claimed } = await transaction(db, [
        {
          sql: "DELETE FROM login_alerts WHERE state <> 'pending' AND at < ?",
          params: [at - keptMs],
        },
        {
          // The conditions again outside the sub-select: of two instances claiming at once, the second finds the row
          // claimed when it gets to it (PostgreSQL re-checks them on a row another transaction changed).
          name: "claimed",
          sql: `UPDATE login_alerts SET claim_token = ?, claim_until = ?, attempts = attempts + 1
                WHERE ${due} AND (id, channel) IN (
                  SELECT id, channel FROM login_alerts WHERE ${due} ORDER BY next_attempt_at LIMIT ?${skipLocked})
                RETURNING id, channel, operator_email, at, browser, address, kind, detail, attempts, claim_until`,
          params: [token, at + loginAlertLeaseMs, at, at, at, at, limit],
        },
      ]);
      return (claimed ?? []).map((row) => ({
        id: String(row.id),
        channel: row.channel as Channel,
        operatorEmail: String(row.operator_email),
        at: time(row.at),
        browser: String(row.browser),
        address: String(row.address),
        kind: alertKind(row.kind),
        detail: row.detail === null || row.detail === undefined ? null : String(row.detail),
        attempts: Number(row.attempts),
        claimToken: token,
        claimUntil: time(row.claim_until),
      }));
    },

    markLoginAlertSent: (claim, now = new Date()) =>
      settle(claim, "state = 'sent', sent_at = ?, last_error = NULL", [now.getTime()]),
    markLoginAlertRetry: (claim, error, nextAttemptAt) =>
      settle(claim, "next_attempt_at = ?, last_error = ?", [nextAttemptAt.getTime(), error.slice(0, 1000)]),
    markLoginAlertFailed: (claim, error) => settle(claim, "state = 'failed', last_error = ?", [error.slice(0, 1000)]),

    async nextLoginAlertAt() {
      const [row] = await db.query(
        `SELECT MIN(CASE WHEN claim_until IS NOT NULL AND claim_until > next_attempt_at THEN claim_until ELSE next_attempt_at END) AS due
         FROM login_alerts WHERE state = 'pending'`,
      );
      return row?.due === null || row?.due === undefined ? null : time(row.due);
    },
  };
}
