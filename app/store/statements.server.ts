import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { transaction, type Params, type SqlClient, type Statement } from "~/store/sql.server";
import type { Channel } from "~/store/records";
import type { EventKind } from "~/store/pipeline.types";

/** The SQL more than one of the store's modules runs, each written once. */

/** A notification nobody holds a claim on. */
export const unclaimed = "claimed_by = NULL, claim_token = NULL, claim_until = NULL";

/**
 * A pending notification of the enquiry on the channel, due at `at` (the start of its delivery window), unless the
 * enquiry has one on that channel already; nothing when there is no such enquiry or `onlyIf` (SQL) does not hold.
 * `requestId`: the request that stored it, which the outbox's lines about it carry.
 */
export const insertNotification = (
  enquiryId: string,
  channel: Channel,
  at: number,
  onlyIf?: { sql: string; params: Params },
  requestId?: string,
): Statement => ({
  sql: `INSERT INTO notifications (id, enquiry_id, channel, state, attempts, window_start, next_attempt_at, request_id)
        SELECT CAST(? AS TEXT), id, CAST(? AS TEXT), 'pending', 0, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT)
        FROM enquiries WHERE id = ?${onlyIf ? ` AND ${onlyIf.sql}` : ""}
        ON CONFLICT (enquiry_id, channel) DO NOTHING`,
  params: [randomUUID(), channel, at, at, requestId ?? null, enquiryId, ...(onlyIf?.params ?? [])],
});

/**
 * The notifications `where` selects start delivery over, due at `at`: attempts from zero, so the retry schedule is
 * fast at first again (the last error stays until a send succeeds). With `requestId` (the owner's resend), its lines
 * carry that request's id from then on; without (`npm run inbox -- retry`), the one that stored it.
 */
export const restartDelivery = (at: number, where: { sql: string; params: Params }, requestId?: string): Statement => ({
  sql: `UPDATE notifications SET state = 'pending', attempts = 0, window_start = ?, next_attempt_at = ?, ${unclaimed},
          request_id = COALESCE(CAST(? AS TEXT), request_id)
        WHERE ${where.sql} RETURNING id`,
  params: [at, at, requestId ?? null, ...where.params],
});

/**
 * PostgreSQL runs transactions side by side: one that must not overlap another of the same `key` (one sender's
 * duplicate check, a purge) takes this lock first. SQLite runs one write transaction at a time anyway.
 */
export const advisoryLock = (db: SqlClient, key: string): Statement[] =>
  db.dialect === "postgres"
    ? [{ sql: "SELECT pg_advisory_xact_lock(hashtext(?))::text AS locked", params: [key] }]
    : [];

/** The enquiry's row held until the transaction ends (PostgreSQL; SQLite runs one write transaction at a time). */
export const lockEnquiry = (db: SqlClient, id: string): Statement[] =>
  db.dialect === "postgres" ? [{ sql: "SELECT id FROM enquiries WHERE id = ? FOR UPDATE", params: [id] }] : [];

/** A key of this name, made (32 random bytes) at its first use and shared by every instance on this database. */
export async function siteKey(db: SqlClient, name: string): Promise<Buffer> {
  const { key } = await transaction(db, [
    {
      sql: "INSERT INTO site_keys (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
      params: [name, randomBytes(32).toString("base64")],
    },
    { name: "key", sql: "SELECT value FROM site_keys WHERE name = ?", params: [name] },
  ]);
  return Buffer.from(String(key[0]!.value), "base64");
}

/** The name of the key that makes erased addresses' hashes (keyed: a bare hash of an address is easy to reverse). */
const erasedKeyName = "erased-address-hash";

/**
 * How an erased address is kept (erased_addresses.hash): HMAC-SHA256 of its key with a key of this database, never
 * the address itself. Resolves with the function, so a batch fetches the key once.
 */
export async function erasedAddressHash(db: SqlClient): Promise<(addressKey: string) => string> {
  const key = await siteKey(db, erasedKeyName);
  return (addressKey) => createHmac("sha256", key).update(addressKey).digest("hex");
}

/**
 * A line of the enquiry's timeline (enquiry_events, schema v16); nothing when there is no such enquiry. `detail` is
 * stored as JSON; `onlyIf` (SQL on the enquiry's row) adds a condition. Every part that adds to the timeline (stages, notes, replies, reminders, the build page) uses this.
 */
export const insertEvent = (
  enquiryId: string,
  event: { at: number; kind: EventKind; actor: string; body?: string | null; detail?: Record<string, unknown> | null },
  id: string = randomUUID(),
  onlyIf?: { sql: string; params: Params },
): Statement => ({
  sql: `INSERT INTO enquiry_events (id, enquiry_id, at, kind, actor, body, detail)
        SELECT CAST(? AS TEXT), id, CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT)
        FROM enquiries WHERE id = ?${onlyIf ? ` AND ${onlyIf.sql}` : ""}`,
  params: [
    id,
    event.at,
    event.kind,
    event.actor,
    event.body ?? null,
    event.detail ? JSON.stringify(event.detail) : null,
    enquiryId,
    ...(onlyIf?.params ?? []),
  ],
});
