import { randomUUID } from "node:crypto";
import { scrubDeleted } from "~/store/deletion.server";
import { emailKey } from "~/store/rows.server";
import { transaction, type Row, type SqlClient } from "~/store/sql.server";
import { erasedAddressHash } from "~/store/statements.server";
import type {
  Announcement,
  AnnouncementProgress,
  WaitlistEntry,
  WaitlistOwnerStore,
  WaitlistState,
} from "~/store/waitlist.types";

/**
 * The owner's side of the waitlist (schema v18, issue 35): the Waitlist page's counts and list, erasing one address,
 * and the season's announcement stored with one list mail per confirmed address (sent by the list's outbox sender).
 */

/** The tables an erased address leaves: scrubbed after its delete like an enquiry's (docs/spam-and-retention.md). */
export const waitlistErasedTables = ["waitlist", "list_mail"] as const;

const at = (value: unknown) => (value === null || value === undefined ? null : new Date(Number(value)));

function entryFrom(row: Row): WaitlistEntry {
  return {
    id: String(row.id),
    email: String(row.email),
    state: String(row.state) as WaitlistState,
    createdAt: new Date(Number(row.created_at)),
    confirmedAt: at(row.confirmed_at),
    unsubscribedAt: at(row.unsubscribed_at),
  };
}

function announcementFrom(row: Row): Announcement {
  return {
    id: String(row.id),
    season: String(row.season),
    subject: String(row.subject),
    body: String(row.body),
    createdAt: new Date(Number(row.created_at)),
    createdBy: String(row.created_by),
    total: Number(row.total),
  };
}

/**
 * The Message-ID of one announcement mail: the same for every attempt, one per announcement and address (the pair is
 * UNIQUE in list_mail), made in SQL so the rows are stored in one statement.
 */
const announcementMessageId = "'<announcement-' || a.id || '-' || w.id || '@' || CAST(? AS TEXT) || '>'";

/** A Message-ID's domain: only what a domain may hold. */
function safeDomain(domain: string | undefined): string {
  const clean = (domain ?? "").replace(/[^A-Za-z0-9.-]/g, "");
  return clean.length > 0 ? clean.slice(0, 253) : "localhost";
}

export function waitlistOwnerOperations(db: SqlClient): WaitlistOwnerStore {
  const newId = db.dialect === "postgres" ? "gen_random_uuid()::text" : "lower(hex(randomblob(16)))";

  return {
    async waitlistCounts() {
      const rows = await db.query("SELECT state, COUNT(*) AS n FROM waitlist GROUP BY state");
      const counts = { pending: 0, confirmed: 0, unsubscribed: 0 };
      for (const row of rows) {
        const state = String(row.state);
        if (state === "pending" || state === "confirmed" || state === "unsubscribed") counts[state] = Number(row.n);
      }
      return counts;
    },

    async waitlistEntries() {
      const rows = await db.query(
        `SELECT id, email, state, created_at, confirmed_at, unsubscribed_at FROM waitlist
         ORDER BY created_at DESC, email`,
      );
      return rows.map(entryFrom);
    },

    async waitlistPage({ state }, { limit, offset }) {
      // One more than asked tells whether a next page exists; the order is total (email is UNIQUE), so pages never
      // overlap. One state reads waitlist_by_state (state, created_at).
      const filter = state === "all" ? { sql: "", params: [] } : { sql: "WHERE state = ?", params: [state] };
      const rows = await db.query(
        `SELECT id, email, state, created_at, confirmed_at, unsubscribed_at FROM waitlist ${filter.sql}
         ORDER BY created_at DESC, email LIMIT ? OFFSET ?`,
        [...filter.params, limit + 1, offset],
      );
      return { entries: rows.slice(0, limit).map(entryFrom), hasMore: rows.length > limit };
    },

    async waitlistEntry(id: string) {
      const rows = await db.query(
        "SELECT id, email, state, created_at, confirmed_at, unsubscribed_at FROM waitlist WHERE id = ?",
        [id],
      );
      return rows[0] ? entryFrom(rows[0]) : null;
    },

    async eraseWaitlistAddress(email, now = new Date()) {
      const key = emailKey(email);
      const hash = (await erasedAddressHash(db))(key);
      const { erased } = await transaction(db, [
        // Remembered as an enquiry's erase remembers it (a keyed hash, never the address).
        {
          sql: "INSERT INTO erased_addresses (hash, erased_at) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING",
          params: [hash, now.getTime()],
        },
        // Its mail first (the foreign key cascades too, but SQLite enforces it only with foreign_keys on).
        { sql: "DELETE FROM list_mail WHERE waitlist_id IN (SELECT id FROM waitlist WHERE email = ?)", params: [key] },
        { name: "erased", sql: "DELETE FROM waitlist WHERE email = ? RETURNING id", params: [key] },
      ]);
      if (erased.length === 0) return false;
      await scrubDeleted(db, waitlistErasedTables);
      return true;
    },

    async createAnnouncement({ season, subject, body, actor, messageDomain }, now = new Date()) {
      const time = now.getTime();
      const id = randomUUID();
      const { announcement, total } = await transaction(db, [
        // One per season: of two operators at once, the second's insert finds the first's row (on PostgreSQL it waits
        // for the first's commit) and stores nothing, so its list mail below has no announcement to join.
        {
          name: "announcement",
          sql: `INSERT INTO announcements (id, season, subject, body, created_at, created_by, total)
                VALUES (?, ?, ?, ?, ?, ?, 0) ON CONFLICT (season) DO NOTHING RETURNING id`,
          params: [id, season, subject, body, time, actor],
        },
        {
          sql: `INSERT INTO list_mail (id, waitlist_id, kind, announcement_id, message_id, created_at, state, attempts,
                  next_attempt_at)
                SELECT ${newId}, w.id, 'announcement', a.id, ${announcementMessageId},
                  CAST(? AS BIGINT), 'pending', 0, CAST(? AS BIGINT)
                FROM waitlist w JOIN announcements a ON a.id = ?
                WHERE w.state = 'confirmed'
                ON CONFLICT (announcement_id, waitlist_id) DO NOTHING`,
          params: [safeDomain(messageDomain), time, time, id],
        },
        // What it was stored for, counted from the rows themselves (an address confirmed meanwhile is in both or neither).
        {
          name: "total",
          sql: `UPDATE announcements SET total = (SELECT COUNT(*) FROM list_mail WHERE announcement_id = ?)
                WHERE id = ? RETURNING id, season, subject, body, created_at, created_by, total`,
          params: [id, id],
        },
      ]);
      if (announcement.length === 0 || !total[0]) return null;
      return announcementFrom(total[0]);
    },

    async announcementProgress(season) {
      const rows = await db.query(
        `SELECT a.id, a.season, a.subject, a.body, a.created_at, a.created_by, a.total,
           (SELECT COUNT(*) FROM list_mail m WHERE m.announcement_id = a.id AND m.state = 'sent') AS sent,
           (SELECT COUNT(*) FROM list_mail m WHERE m.announcement_id = a.id AND m.state = 'failed') AS failed,
           (SELECT COUNT(*) FROM list_mail m WHERE m.announcement_id = a.id AND m.state = 'pending') AS pending
         FROM announcements a WHERE a.season = ?`,
        [season],
      );
      const row = rows[0];
      if (!row) return null;
      return {
        ...announcementFrom(row),
        sent: Number(row.sent),
        failed: Number(row.failed),
        pending: Number(row.pending),
      } satisfies AnnouncementProgress;
    },
  };
}
