import { randomUUID } from "node:crypto";
import { activityFrom, emailKey, operatorFrom, sessionStage, time } from "~/store/rows.server";
import { transaction, type SqlClient, type Statement } from "~/store/sql.server";
import type { OwnerStore } from "~/store/owner.types";

/**
 * The owner's side of the database: operators, their sessions, the login throttle's counts and the activity log,
 * written once over a SqlClient for SQLite and PostgreSQL.
 */

const deleteSessionsOf = (operatorId: string): Statement => ({
  sql: "DELETE FROM sessions WHERE operator_id = ?",
  params: [operatorId],
});

export function ownerOperations(db: SqlClient): OwnerStore {
  const operations: OwnerStore = {
    async putOperator(email, passwordHash, now = new Date()) {
      const existing = await operations.findOperator(email);
      if (existing) {
        // A new password ends every session that the old one opened.
        await transaction(db, [
          { sql: "UPDATE operators SET password_hash = ? WHERE id = ?", params: [passwordHash, existing.id] },
          deleteSessionsOf(existing.id),
        ]);
        return { created: false };
      }
      await db.query("INSERT INTO operators (id, email, email_key, password_hash, created_at) VALUES (?, ?, ?, ?, ?)", [
        randomUUID(),
        email.trim(),
        emailKey(email),
        passwordHash,
        now.getTime(),
      ]);
      return { created: true };
    },

    async findOperator(email) {
      const [row] = await db.query("SELECT * FROM operators WHERE email_key = ?", [emailKey(email)]);
      return row ? { ...operatorFrom(row), passwordHash: String(row.password_hash) } : null;
    },

    async listOperators() {
      return (await db.query("SELECT * FROM operators ORDER BY email_key")).map(operatorFrom);
    },

    async removeOperator(email) {
      const operator = await operations.findOperator(email);
      if (!operator) return false;
      await transaction(db, [
        deleteSessionsOf(operator.id),
        { sql: "DELETE FROM operators WHERE id = ?", params: [operator.id] },
      ]);
      return true;
    },

    async revokeSessions(email) {
      const operator = await operations.findOperator(email);
      if (!operator) return null;
      const rows = await db.query("DELETE FROM sessions WHERE operator_id = ? RETURNING id_hash", [operator.id]);
      return rows.length;
    },

    async createSession(idHash, operatorId, { stage, factorAt, browser, client }, now = new Date()) {
      await db.query(
        `INSERT INTO sessions (id_hash, operator_id, created_at, last_seen_at, stage, factor_at, browser, client)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [idHash, operatorId, now.getTime(), now.getTime(), stage, factorAt?.getTime() ?? null, browser, client],
      );
    },

    async useSession(idHash, { idleMs, maxAgeMs }, now = new Date()) {
      const at = now.getTime();
      // One statement: a session past either limit is never touched, so it cannot be kept alive by its own use.
      const [row] = await db.query(
        `UPDATE sessions SET last_seen_at = ? WHERE id_hash = ? AND last_seen_at > ? AND created_at > ?
         RETURNING operator_id, created_at, stage, factor_at`,
        [at, idHash, at - idleMs, at - maxAgeMs],
      );
      if (!row) {
        await operations.deleteSession(idHash);
        return null;
      }
      const [operator] = await db.query("SELECT * FROM operators WHERE id = ?", [String(row.operator_id)]);
      if (!operator) return null;
      return {
        operator: operatorFrom(operator),
        createdAt: time(row.created_at),
        stage: sessionStage(row.stage),
        factorAt: row.factor_at === null || row.factor_at === undefined ? null : time(row.factor_at),
      };
    },

    async deleteSession(idHash) {
      await db.query("DELETE FROM sessions WHERE id_hash = ?", [idHash]);
    },

    async countLoginAttempt(accountKey, client, windowMs, now = new Date()) {
      const at = now.getTime();
      const expired = at - windowMs;
      // One statement, so concurrent attempts (on any instance) each see their own count, never a stale one. SET's
      // expressions read the row as it was before this update.
      const [row] = await db.query(
        `INSERT INTO login_attempts (account_key, client, window_start, attempts) VALUES (?, ?, ?, 1)
         ON CONFLICT (account_key, client) DO UPDATE SET
           attempts = CASE WHEN login_attempts.window_start <= ? THEN 1 ELSE login_attempts.attempts + 1 END,
           window_start = CASE WHEN login_attempts.window_start <= ? THEN ? ELSE login_attempts.window_start END
         RETURNING attempts, window_start`,
        [accountKey, client, at, expired, expired, at],
      );
      await db.query("DELETE FROM login_attempts WHERE window_start <= ?", [expired]);
      return { attempts: Number(row!.attempts), windowStart: time(row!.window_start) };
    },

    async refundLoginAttempt(accountKey, client) {
      await db.query(
        "UPDATE login_attempts SET attempts = attempts - 1 WHERE account_key = ? AND client = ? AND attempts > 0",
        [accountKey, client],
      );
    },

    async logActivity({ actor, action, enquiryId = null, detail = null }, now = new Date()) {
      await db.query("INSERT INTO activity (id, at, actor, action, enquiry_id, detail) VALUES (?, ?, ?, ?, ?, ?)", [
        randomUUID(),
        now.getTime(),
        actor,
        action,
        enquiryId,
        detail,
      ]);
    },

    async listActivity({ limit, offset = 0 }) {
      const rows = await db.query("SELECT * FROM activity ORDER BY at DESC, id DESC LIMIT ? OFFSET ?", [limit, offset]);
      return rows.map(activityFrom);
    },
  };
  return operations;
}
