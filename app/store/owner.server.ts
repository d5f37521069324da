import { randomUUID } from "node:crypto";
import type {
  ActivityEntry,
  DeliveryStep,
  EnquiryWithDelivery,
  Folder,
  InboxQuery,
  Operator,
  OwnerStore,
} from "~/store/owner-types";
import type { Params, Row, SqlClient } from "~/store/sql.server";
import { emailKey, enquiryFrom } from "~/store/store.server";
import type { Channel, EnquiryStatus, NotificationState } from "~/store/types";

/**
 * The owner's inbox's operations (see OwnerStore), written once over a SqlClient for SQLite and PostgreSQL. Part of the
 * InboxStore (createInboxStore spreads them in), kept in a module of their own.
 */

const time = (value: unknown) => new Date(Number(value));
const timeOrNull = (value: unknown) => (value === null || value === undefined ? null : time(value));

const folderCondition: Record<Folder, string> = {
  new: "status IN ('new', 'read')",
  handled: "status = 'handled'",
  spam: "status = 'spam'",
  all: "1 = 1",
};

/** LIKE with the visitor's % and _ taken literally (escaped with a backslash). */
const likePattern = (search: string) => `%${search.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
const searchCondition =
  "(LOWER(name) LIKE ? ESCAPE '\\' OR LOWER(email) LIKE ? ESCAPE '\\' OR LOWER(message) LIKE ? ESCAPE '\\')";

function where(query: InboxQuery): { sql: string; params: Params } {
  const search = query.search?.trim();
  if (!search) return { sql: folderCondition[query.folder], params: [] };
  const pattern = likePattern(search);
  return { sql: `${folderCondition[query.folder]} AND ${searchCondition}`, params: [pattern, pattern, pattern] };
}

const operatorFrom = (row: Row): Operator => ({
  id: String(row.id),
  email: String(row.email),
  createdAt: time(row.created_at),
});

/** For an erase: the login throttle's rows keyed by an address someone typed at the login (the key is the address). */
export const forgetLoginsOf = (accountKey: string) => ({
  sql: "DELETE FROM login_attempts WHERE account_key = ?",
  params: [accountKey],
});

export function ownerOperations(db: SqlClient): OwnerStore {
  /** The enquiries of these rows with their notifications, in the rows' order. */
  const withDelivery = async (rows: Row[]): Promise<EnquiryWithDelivery[]> => {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => String(row.id));
    const notifications = await db.query(
      `SELECT enquiry_id, channel, state, attempts, last_error, next_attempt_at, sent_at FROM notifications
       WHERE enquiry_id IN (${ids.map(() => "?").join(", ")}) ORDER BY channel`,
      ids,
    );
    return rows.map((row) => ({
      ...enquiryFrom(row),
      notifications: notifications
        .filter((n) => String(n.enquiry_id) === String(row.id))
        .map((n): DeliveryStep => ({
          channel: n.channel as Channel,
          state: n.state as NotificationState,
          attempts: Number(n.attempts),
          lastError: n.last_error === null ? null : String(n.last_error),
          nextAttemptAt: n.state === "pending" ? timeOrNull(n.next_attempt_at) : null,
          sentAt: timeOrNull(n.sent_at),
        })),
    }));
  };

  const deleteSessionsOf = (operatorId: string) => ({
    sql: "DELETE FROM sessions WHERE operator_id = ?",
    params: [operatorId],
  });

  const operations: OwnerStore = {
    async putOperator(email, passwordHash, now = new Date()) {
      const existing = await operations.findOperator(email);
      if (existing) {
        // A new password ends every session that the old one opened.
        await db.transaction([
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
      await db.transaction([
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

    async createSession(idHash, operatorId, now = new Date()) {
      await db.query("INSERT INTO sessions (id_hash, operator_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)", [
        idHash,
        operatorId,
        now.getTime(),
        now.getTime(),
      ]);
    },

    async useSession(idHash, { idleMs, maxAgeMs }, now = new Date()) {
      const at = now.getTime();
      // One statement: a session past either limit is never touched, so it cannot be kept alive by its own use.
      const [row] = await db.query(
        `UPDATE sessions SET last_seen_at = ? WHERE id_hash = ? AND last_seen_at > ? AND created_at > ?
         RETURNING operator_id, created_at`,
        [at, idHash, at - idleMs, at - maxAgeMs],
      );
      if (!row) {
        await db.query("DELETE FROM sessions WHERE id_hash = ?", [idHash]);
        return null;
      }
      const [operator] = await db.query("SELECT * FROM operators WHERE id = ?", [String(row.operator_id)]);
      if (!operator) return null;
      return { operator: operatorFrom(operator), createdAt: time(row.created_at) };
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
      return rows.map((row): ActivityEntry => ({
        id: String(row.id),
        at: time(row.at),
        actor: String(row.actor),
        action: String(row.action),
        enquiryId: row.enquiry_id === null ? null : String(row.enquiry_id),
        detail: row.detail === null ? null : String(row.detail),
      }));
    },

    async inboxPage(query, { limit, offset }) {
      const condition = where(query);
      const rows = await db.query(
        `SELECT * FROM enquiries WHERE ${condition.sql} ORDER BY received_at DESC, id DESC LIMIT ? OFFSET ?`,
        [...condition.params, limit + 1, offset],
      );
      return { items: await withDelivery(rows.slice(0, limit)), hasMore: rows.length > limit };
    },

    async *inboxAll(query) {
      const condition = where(query);
      let cursor: { at: number; id: string } | undefined;
      for (;;) {
        const rows = await db.query(
          `SELECT * FROM enquiries WHERE ${condition.sql}${cursor ? " AND (received_at < ? OR (received_at = ? AND id < ?))" : ""}
           ORDER BY received_at DESC, id DESC LIMIT 200`,
          cursor ? [...condition.params, cursor.at, cursor.at, cursor.id] : condition.params,
        );
        yield* await withDelivery(rows);
        if (rows.length < 200) return;
        const last = rows.at(-1)!;
        cursor = { at: Number(last.received_at), id: String(last.id) };
      }
    },

    async folderCounts(search) {
      const condition = where({ folder: "all", search });
      const rows = await db.query(
        `SELECT status, COUNT(*) AS total FROM enquiries WHERE ${condition.sql} GROUP BY status`,
        condition.params,
      );
      const of = (status: EnquiryStatus) => Number(rows.find((row) => row.status === status)?.total ?? 0);
      const counts = { new: of("new") + of("read"), handled: of("handled"), spam: of("spam"), all: 0 };
      counts.all = rows.reduce((sum, row) => sum + Number(row.total), 0);
      return counts;
    },

    async getEnquiry(id) {
      const [enquiry] = await withDelivery(await db.query("SELECT * FROM enquiries WHERE id = ?", [id]));
      return enquiry ?? null;
    },

    async enquiriesFrom(email) {
      return withDelivery(
        await db.query("SELECT * FROM enquiries WHERE email_key = ? ORDER BY received_at DESC, id DESC", [
          emailKey(email),
        ]),
      );
    },

    async setStatus(id, status) {
      const [before] = await db.query("SELECT status FROM enquiries WHERE id = ?", [id]);
      if (!before) return null;
      await db.query("UPDATE enquiries SET status = ? WHERE id = ?", [status, id]);
      return String(before.status) as EnquiryStatus;
    },

    async markRead(id, actor, now = new Date()) {
      const results = await db.transaction([
        // Two operators at once: the second waits for the first and then finds it read (one entry, not two).
        ...(db.dialect === "postgres"
          ? [{ sql: "SELECT id FROM enquiries WHERE id = ? FOR UPDATE", params: [id] }]
          : []),
        {
          sql: `INSERT INTO activity (id, at, actor, action, enquiry_id, detail)
                SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), 'status new -> read', id, NULL
                FROM enquiries WHERE id = ? AND status = 'new'`,
          params: [randomUUID(), now.getTime(), actor, id],
        },
        { sql: "UPDATE enquiries SET status = 'read' WHERE id = ? AND status = 'new' RETURNING id", params: [id] },
      ]);
      return results.at(-1)!.length === 1;
    },

    async resend(id, channel, now = new Date()) {
      const at = now.getTime();
      const results = await db.transaction([
        { sql: "SELECT id FROM enquiries WHERE id = ?", params: [id] },
        {
          sql: `UPDATE notifications SET state = 'pending', attempts = 0, window_start = ?, next_attempt_at = ?,
                  claimed_by = NULL, claim_token = NULL, claim_until = NULL
                WHERE enquiry_id = ? AND channel = ?`,
          params: [at, at, id, channel],
        },
        {
          sql: `INSERT INTO notifications (id, enquiry_id, channel, state, attempts, window_start, next_attempt_at)
                SELECT CAST(? AS TEXT), id, CAST(? AS TEXT), 'pending', 0, CAST(? AS BIGINT), CAST(? AS BIGINT)
                FROM enquiries WHERE id = ? ON CONFLICT (enquiry_id, channel) DO NOTHING`,
          params: [randomUUID(), channel, at, at, id],
        },
      ]);
      return results[0]!.length === 1;
    },
  };
  return operations;
}
