import { randomUUID } from "node:crypto";
import { commissionFrom, emailKey, enquiryFrom, notificationFrom } from "~/store/rows.server";
import { transaction, type Params, type Row, type SqlClient } from "~/store/sql.server";
import { advisoryLock, insertNotification, lockEnquiry, restartDelivery, siteKey } from "~/store/statements.server";
import type { EnquiryStore, Folder, InboxQuery } from "~/store/enquiries.types";
import type { EnquiryStatus, ListedEnquiry } from "~/store/records";

/**
 * An enquiry's way in (saved with its notifications, or found to be a duplicate) and what the owner does with it
 * (the inbox's pages, its status, resend), written once over a SqlClient for SQLite and PostgreSQL.
 */

/** The same address with the same message within this long of a stored enquiry is a duplicate (double click, resubmit). */
export const duplicateWindowMs = 10 * 60_000;

const pageSize = 200;

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

type Condition = { sql: string; params: Params };

function where(query: InboxQuery): Condition {
  const search = query.search?.trim();
  if (!search) return { sql: folderCondition[query.folder], params: [] };
  const pattern = likePattern(search);
  return { sql: `${folderCondition[query.folder]} AND ${searchCondition}`, params: [pattern, pattern, pattern] };
}

export function enquiryOperations(db: SqlClient): EnquiryStore {
  /** The enquiries of these rows with their notifications, in the rows' order. */
  const withNotifications = async (rows: Row[]): Promise<ListedEnquiry[]> => {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => String(row.id));
    const notifications = await db.query(
      `SELECT enquiry_id, channel, state, attempts, last_error, next_attempt_at, sent_at FROM notifications
       WHERE enquiry_id IN (${ids.map(() => "?").join(", ")}) ORDER BY channel`,
      ids,
    );
    return rows.map((row) => ({
      ...enquiryFrom(row),
      notifications: notifications.filter((n) => String(n.enquiry_id) === String(row.id)).map(notificationFrom),
      commission: commissionFrom(row),
    }));
  };

  /** Every enquiry of the condition, newest first, a page at a time (keyset: a large inbox in constant memory). */
  async function* pages(condition: Condition): AsyncIterable<ListedEnquiry> {
    let after: { at: number; id: string } | undefined;
    for (;;) {
      const rows = await db.query(
        `SELECT * FROM enquiries WHERE ${condition.sql}${after ? " AND (received_at < ? OR (received_at = ? AND id < ?))" : ""}
         ORDER BY received_at DESC, id DESC LIMIT ?`,
        [...condition.params, ...(after ? [after.at, after.at, after.id] : []), pageSize],
      );
      yield* await withNotifications(rows);
      if (rows.length < pageSize) return;
      const last = rows.at(-1)!;
      after = { at: Number(last.received_at), id: String(last.id) };
    }
  }

  return {
    async save(
      enquiry,
      channels,
      now = new Date(),
      judgement = { verdict: "none", score: null, reasons: [] },
      requestId?: string,
    ) {
      const id = randomUUID();
      const spam = judgement.verdict === "spam";
      const key = emailKey(enquiry.email);
      const at = now.getTime();
      const since = at - duplicateWindowMs;
      const { stored } = await transaction(db, [
        ...advisoryLock(db, `${key}\n${enquiry.message}`),
        {
          sql: `INSERT INTO enquiries (id, received_at, name, email, email_key, message, source, status, spam_reasons,
                  spam_verdict, spam_score, about_project_id, about_slug, about_title, service)
                SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), 'form',
                  CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS DOUBLE PRECISION), CAST(? AS TEXT),
                  CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT)
                WHERE NOT EXISTS (SELECT 1 FROM enquiries WHERE email_key = ? AND message = ? AND received_at > ?)`,
          params: [
            id,
            at,
            enquiry.name,
            enquiry.email,
            key,
            enquiry.message,
            spam ? "spam" : "new",
            judgement.reasons.length > 0 ? JSON.stringify(judgement.reasons) : null,
            judgement.verdict,
            judgement.score,
            enquiry.about?.projectId ?? null,
            enquiry.about?.slug ?? null,
            enquiry.about?.title ?? null,
            enquiry.service ?? null,
            key,
            enquiry.message,
            since,
          ],
        },
        // Spam is kept aside: nobody is told about it (until someone marks it not spam).
        ...(spam ? [] : channels).map((channel) => insertNotification(id, channel, at, undefined, requestId)),
        {
          name: "stored",
          sql: `SELECT id FROM enquiries WHERE email_key = ? AND message = ? AND received_at > ?
                ORDER BY received_at DESC LIMIT 1`,
          params: [key, enquiry.message, since],
        },
      ]);
      const storedId = String(stored[0]!.id);
      return { id: storedId, duplicate: storedId !== id };
    },

    siteKey: (name) => siteKey(db, name),

    async useFormToken(id, expiresAt) {
      const rows = await db.query(
        "INSERT INTO used_form_tokens (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING RETURNING id",
        [id, expiresAt.getTime()],
      );
      return rows.length === 1;
    },

    list({ since } = {}) {
      return pages({ sql: "received_at >= ?", params: [since ? since.getTime() : Number.MIN_SAFE_INTEGER] });
    },

    async inboxPage(query, { limit, offset }) {
      const condition = where(query);
      const rows = await db.query(
        `SELECT * FROM enquiries WHERE ${condition.sql} ORDER BY received_at DESC, id DESC LIMIT ? OFFSET ?`,
        [...condition.params, limit + 1, offset],
      );
      return { items: await withNotifications(rows.slice(0, limit)), hasMore: rows.length > limit };
    },

    inboxAll: (query) => pages(where(query)),

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
      const [enquiry] = await withNotifications(await db.query("SELECT * FROM enquiries WHERE id = ?", [id]));
      return enquiry ?? null;
    },

    async enquiriesFrom(email) {
      return withNotifications(
        await db.query("SELECT * FROM enquiries WHERE email_key = ? ORDER BY received_at DESC, id DESC", [
          emailKey(email),
        ]),
      );
    },

    async setStatus(id, status, actor, now = new Date()) {
      const { before } = await transaction(db, [
        ...lockEnquiry(db, id),
        { name: "before", sql: "SELECT status FROM enquiries WHERE id = ?", params: [id] },
        // Before the update, so the entry names the status it changed from.
        {
          sql: `INSERT INTO activity (id, at, actor, action, enquiry_id, detail)
                SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), 'status ' || status || ' -> ' || CAST(? AS TEXT), id, NULL
                FROM enquiries WHERE id = ?`,
          params: [randomUUID(), now.getTime(), actor, status, id],
        },
        // "Mark handled" is the owner's answer: the enquiry stops waiting (and, the first time, the figures' first reply).
        {
          sql: `UPDATE enquiries SET status = ?,
                  answered_at = CASE WHEN ? = 'handled' THEN CAST(? AS BIGINT) ELSE answered_at END,
                  first_reply_at = CASE WHEN ? = 'handled' THEN COALESCE(first_reply_at, CAST(? AS BIGINT)) ELSE first_reply_at END
                WHERE id = ?`,
          params: [status, status, now.getTime(), status, now.getTime(), id],
        },
      ]);
      return before.length === 0 ? null : (String(before[0]!.status) as EnquiryStatus);
    },

    async markRead(id, actor, now = new Date()) {
      const { changed } = await transaction(db, [
        {
          name: "changed",
          sql: `INSERT INTO activity (id, at, actor, action, enquiry_id, detail)
                SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), 'status new -> read', id, NULL
                FROM enquiries WHERE id = ? AND status = 'new' RETURNING id`,
          params: [randomUUID(), now.getTime(), actor, id],
        },
        { sql: "UPDATE enquiries SET status = 'read' WHERE id = ? AND status = 'new'", params: [id] },
      ]);
      return changed.length === 1;
    },

    async resend(id, channel, now = new Date(), requestId?: string) {
      const at = now.getTime();
      const { enquiry } = await transaction(db, [
        { name: "enquiry", sql: "SELECT id FROM enquiries WHERE id = ?", params: [id] },
        restartDelivery(at, { sql: "enquiry_id = ? AND channel = ?", params: [id, channel] }, requestId),
        insertNotification(id, channel, at, undefined, requestId),
      ]);
      return enquiry.length === 1;
    },
  };
}
