import { createHash, createHmac, randomBytes, randomUUID } from "node:crypto";
import type { DatabaseLocation } from "~/config.server";
import { migrations } from "~/store/migrations.server";
import { forgetLoginsOf, ownerOperations } from "~/store/owner.server";
import { openPostgres, type PostgresOptions } from "~/store/postgres.server";
import type { Row, SqlClient, Statement } from "~/store/sql.server";
import { openSqlite } from "~/store/sqlite.server";
import type {
  Channel,
  ClaimedNotification,
  EnquiryStatus,
  InboxStore,
  ListedEnquiry,
  NewEnquiry,
  NotificationState,
  PurgeResult,
  StoredEnquiry,
  V1FileSeen,
  V1Record,
} from "~/store/types";

/** The same address with the same message within this long of a stored enquiry is a duplicate (double click, resubmit). */
export const duplicateWindowMs = 10 * 60_000;
/** How long a claim on a notification holds: one held by a process that died is taken over after this. */
export const claimLeaseMs = 30_000;

const listPageSize = 200;

/** Opens the database and applies pending migrations. */
export async function openInboxStore(
  location: DatabaseLocation,
  { timeoutMs, postgresPool }: { timeoutMs: number; postgresPool?: PostgresOptions["pool"] },
): Promise<InboxStore> {
  const client =
    location.kind === "sqlite"
      ? openSqlite(location.path, { timeoutMs })
      : openPostgres(location.url, { timeoutMs, pool: postgresPool });
  try {
    await client.migrate(migrations);
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return createInboxStore(client);
}

export const emailKey = (email: string) => email.trim().toLowerCase();
/** The name of the key that makes erased addresses' hashes (keyed: a bare hash of an address is easy to reverse). */
const erasedKeyName = "erased-address-hash";
const time = (value: unknown) => new Date(Number(value));

export function enquiryFrom(row: Row): StoredEnquiry {
  return {
    id: String(row.id),
    receivedAt: time(row.received_at),
    name: String(row.name),
    email: String(row.email),
    message: String(row.message),
    status: (row.status ?? "new") as EnquiryStatus,
    spamReasons: row.spam_reasons ? (JSON.parse(String(row.spam_reasons)) as string[]) : [],
  };
}

/** The erased address as it is kept: HMAC-SHA256 with a key of this database, never the address itself. */
const erasedHash = (key: Buffer, addressKey: string) => createHmac("sha256", key).update(addressKey).digest("hex");

/** A v1 line's id is derived from its content, so importing the same file again adds nothing. */
function v1Id(record: V1Record): string {
  const digest = createHash("sha256")
    .update(JSON.stringify([record.receivedAt, record.name, record.email, record.message]))
    .digest("hex");
  return `v1-${digest.slice(0, 32)}`;
}

/** How often, and how far apart, a scrub that another reader holds up is tried: within 5 s of the erase. */
const scrubAttempts = 5;
const scrubPauseMs = 800;

/** The store's logic, written once over a SqlClient; only the claim and the duplicate lock differ per dialect. */
export function createInboxStore(db: SqlClient): InboxStore {
  const postgres = db.dialect === "postgres";
  // PostgreSQL runs transactions side by side: the duplicate check of one address is serialised with an advisory lock,
  // and a claim skips rows another instance is claiming. SQLite runs one write transaction at a time anyway.
  const lockSender = (key: string): Statement[] =>
    postgres ? [{ sql: "SELECT pg_advisory_xact_lock(hashtext(?))::text AS locked", params: [key] }] : [];
  const skipLocked = postgres ? " FOR UPDATE SKIP LOCKED" : "";

  const settle = async (claim: ClaimedNotification, set: string, params: (string | number | null)[]) => {
    const rows = await db.query(
      `UPDATE notifications SET ${set}, claimed_by = NULL, claim_token = NULL, claim_until = NULL
       WHERE id = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
      [...params, claim.id, claim.claimToken],
    );
    return rows.length === 1;
  };

  const siteKey = async (name: string) => {
    const results = await db.transaction([
      {
        sql: "INSERT INTO site_keys (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
        params: [name, randomBytes(32).toString("base64")],
      },
      { sql: "SELECT value FROM site_keys WHERE name = ?", params: [name] },
    ]);
    return Buffer.from(String(results[1]![0]!.value), "base64");
  };

  /**
   * After an erase or a purge: no copy of the deleted rows left in the database's files (docs/spam-and-retention.md). The rows are
   * gone for every query already, so a scrub that cannot finish is logged, not thrown; the next erase or purge scrubs again.
   */
  const scrub = async (tables: readonly string[], erase: boolean) => {
    for (let attempt = 1; attempt <= scrubAttempts; attempt++) {
      try {
        if (await db.scrub(tables, { erase })) return;
      } catch (error) {
        console.error(
          `inbox: DELETED ROWS NOT SCRUBBED: ${(error as Error).message}; they may stay in the database's files until the next erase or purge`,
        );
        return;
      }
      if (attempt < scrubAttempts) await new Promise((resolve) => setTimeout(resolve, scrubPauseMs));
    }
    console.error(
      "inbox: DELETED ROWS NOT SCRUBBED: another reader kept the write-ahead log busy; they may stay in it until the next erase or purge",
    );
  };

  return {
    ...ownerOperations(db),
    async save(
      enquiry: NewEnquiry,
      channels: readonly Channel[],
      now = new Date(),
      spamReasons: readonly string[] = [],
    ) {
      const id = randomUUID();
      const spam = spamReasons.length > 0;
      const key = emailKey(enquiry.email);
      const at = now.getTime();
      const since = at - duplicateWindowMs;
      const results = await db.transaction([
        ...lockSender(`${key}\n${enquiry.message}`),
        {
          sql: `INSERT INTO enquiries (id, received_at, name, email, email_key, message, source, status, spam_reasons)
                SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), 'form',
                  CAST(? AS TEXT), CAST(? AS TEXT)
                WHERE NOT EXISTS (SELECT 1 FROM enquiries WHERE email_key = ? AND message = ? AND received_at > ?)`,
          params: [
            id,
            at,
            enquiry.name,
            enquiry.email,
            key,
            enquiry.message,
            spam ? "spam" : "new",
            spam ? JSON.stringify(spamReasons) : null,
            key,
            enquiry.message,
            since,
          ],
        },
        // Spam is kept aside: nobody is told about it (until someone marks it not spam).
        ...(spam ? [] : channels).map((channel) => ({
          sql: `INSERT INTO notifications (id, enquiry_id, channel, state, attempts, window_start, next_attempt_at)
                SELECT CAST(? AS TEXT), id, CAST(? AS TEXT), 'pending', 0, CAST(? AS BIGINT), CAST(? AS BIGINT) FROM enquiries WHERE id = ?`,
          params: [randomUUID(), channel, at, at, id],
        })),
        {
          sql: `SELECT id FROM enquiries WHERE email_key = ? AND message = ? AND received_at > ?
                ORDER BY received_at DESC LIMIT 1`,
          params: [key, enquiry.message, since],
        },
      ]);
      const storedId = String(results.at(-1)![0]!.id);
      return { id: storedId, duplicate: storedId !== id };
    },

    siteKey,

    async useFormToken(id: string, expiresAt: Date) {
      const rows = await db.query(
        "INSERT INTO used_form_tokens (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING RETURNING id",
        [id, expiresAt.getTime()],
      );
      return rows.length === 1;
    },

    async markNotSpam(id: string, channels: readonly Channel[], actor: string, now = new Date()) {
      const at = now.getTime();
      const entry = randomUUID();
      const results = await db.transaction([
        // Two operators at once: the second waits for the first and then finds it is not spam any more.
        ...(postgres ? [{ sql: "SELECT id FROM enquiries WHERE id = ? FOR UPDATE", params: [id] }] : []),
        {
          sql: `INSERT INTO activity (id, at, actor, action, enquiry_id, detail)
                SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), 'not-spam', id, NULL
                FROM enquiries WHERE id = ? AND status = 'spam' RETURNING id`,
          params: [entry, at, actor, id],
        },
        {
          sql: "UPDATE enquiries SET status = 'new', spam_reasons = NULL WHERE id = ? AND status = 'spam'",
          params: [id],
        },
        // Only when this call changed it (its activity entry exists): a second "not spam" announces nothing again.
        ...channels.map((channel) => ({
          sql: `INSERT INTO notifications (id, enquiry_id, channel, state, attempts, window_start, next_attempt_at)
                SELECT CAST(? AS TEXT), enquiry_id, CAST(? AS TEXT), 'pending', 0, CAST(? AS BIGINT), CAST(? AS BIGINT)
                FROM activity WHERE id = ?
                ON CONFLICT (enquiry_id, channel) DO NOTHING`,
          params: [randomUUID(), channel, at, at, entry],
        })),
      ]);
      if (results[postgres ? 1 : 0]!.length === 1) return "done" as const;
      const exists = await db.query("SELECT status FROM enquiries WHERE id = ?", [id]);
      return exists.length === 0 ? ("not-found" as const) : ("not-spam" as const);
    },

    async purge({ enquiriesBefore, spamBefore }: { enquiriesBefore: Date; spamBefore: Date }, now = new Date()) {
      const old = `(status <> 'spam' AND received_at < ?) OR (status = 'spam' AND received_at < ?)`;
      const cutoffs = [enquiriesBefore.getTime(), spamBefore.getTime()];
      const results = await db.transaction([
        // One purge at a time across instances; a second one waits, then finds nothing left to delete.
        ...(postgres ? [{ sql: "SELECT pg_advisory_xact_lock(hashtext('inbox-purge'))::text AS locked" }] : []),
        // Entries of old enquiries, and any entry past the retention (failed logins with the addresses tried, exports).
        {
          sql: `DELETE FROM activity WHERE at < ? OR enquiry_id IN (SELECT id FROM enquiries WHERE ${old}) RETURNING id`,
          params: [enquiriesBefore.getTime(), ...cutoffs],
        },
        {
          sql: `DELETE FROM notifications WHERE enquiry_id IN (SELECT id FROM enquiries WHERE ${old}) RETURNING id`,
          params: cutoffs,
        },
        { sql: `DELETE FROM enquiries WHERE ${old} RETURNING status`, params: cutoffs },
        { sql: "DELETE FROM used_form_tokens WHERE expires_at < ? RETURNING id", params: [now.getTime()] },
      ]);
      const [activity, notifications, enquiries, formTokens] = results.slice(postgres ? 1 : 0);
      const spam = enquiries!.filter((row) => row.status === "spam").length;
      if (activity!.length + notifications!.length + enquiries!.length > 0)
        await scrub(["enquiries", "notifications", "activity"], false);
      return {
        enquiries: enquiries!.length - spam,
        spam,
        notifications: notifications!.length,
        activity: activity!.length,
        formTokens: formTokens!.length,
      } satisfies PurgeResult;
    },

    async v1FileImported({ size, mtimeMs, sha256 }: { size: number; mtimeMs: number; sha256?: string }) {
      const rows = sha256
        ? await db.query("SELECT 1 AS seen FROM v1_imports WHERE sha256 = ? AND size = ?", [sha256, size])
        : await db.query("SELECT 1 AS seen FROM v1_imports WHERE size = ? AND mtime_ms = ?", [
            size,
            Math.trunc(mtimeMs),
          ]);
      return rows.length > 0;
    },

    async rememberV1File(file: V1FileSeen, now = new Date()) {
      await db.query(
        `INSERT INTO v1_imports (sha256, size, mtime_ms, path, finished_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (sha256) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, path = excluded.path`,
        [file.sha256, file.size, Math.trunc(file.mtimeMs), file.path, now.getTime()],
      );
    },

    async importV1(records: readonly V1Record[]) {
      const erasedKey = await siteKey(erasedKeyName);
      let added = 0;
      for (let start = 0; start < records.length; start += 500) {
        const statements = records.slice(start, start + 500).map((record) => {
          const receivedAt = Date.parse(record.receivedAt);
          const key = emailKey(record.email);
          return {
            sql: `INSERT INTO enquiries (id, received_at, name, email, email_key, message, source)
                  SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), 'v1'
                  WHERE NOT EXISTS (SELECT 1 FROM erased_addresses WHERE hash = ?)
                  ON CONFLICT (id) DO NOTHING RETURNING id`,
            params: [
              v1Id(record),
              Number.isNaN(receivedAt) ? 0 : receivedAt,
              record.name,
              record.email,
              key,
              record.message,
              erasedHash(erasedKey, key),
            ],
          };
        });
        const results = await db.transaction(statements);
        added += results.filter((rows) => rows.length > 0).length;
      }
      return added;
    },

    async claimDue(owner: string, limit: number, now = new Date(), only?: readonly Channel[]) {
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
         RETURNING id, enquiry_id, channel, attempts, window_start, claim_until`,
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
            createdAt: time(row.window_start),
            claimUntil: time(row.claim_until),
            claimToken: token,
            enquiry,
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

    async *list({ since }: { since?: Date } = {}) {
      const from = since ? since.getTime() : Number.MIN_SAFE_INTEGER;
      let cursor: { at: number; id: string } | undefined;
      for (;;) {
        const rows = await db.query(
          `SELECT * FROM enquiries WHERE received_at >= ?${cursor ? " AND (received_at < ? OR (received_at = ? AND id < ?))" : ""}
           ORDER BY received_at DESC, id DESC LIMIT ?`,
          cursor ? [from, cursor.at, cursor.at, cursor.id, listPageSize] : [from, listPageSize],
        );
        if (rows.length === 0) return;
        const ids = rows.map((row) => String(row.id));
        const notifications = await db.query(
          `SELECT enquiry_id, channel, state, attempts, last_error, next_attempt_at FROM notifications
           WHERE enquiry_id IN (${ids.map(() => "?").join(", ")}) ORDER BY channel`,
          ids,
        );
        for (const row of rows) {
          const listed: ListedEnquiry = {
            ...enquiryFrom(row),
            notifications: notifications
              .filter((n) => n.enquiry_id === row.id)
              .map((n) => ({
                channel: n.channel as Channel,
                state: n.state as NotificationState,
                attempts: Number(n.attempts),
                lastError: n.last_error === null ? null : String(n.last_error),
                nextAttemptAt: n.state === "pending" ? time(n.next_attempt_at) : null,
              })),
          };
          yield listed;
        }
        const last = rows.at(-1)!;
        cursor = { at: Number(last.received_at), id: String(last.id) };
        if (rows.length < listPageSize) return;
      }
    },

    async retryFailed(now = new Date()) {
      const rows = await db.query(
        // attempts from zero: the retry schedule starts over, fast at first (the last error stays until a send succeeds)
        `UPDATE notifications SET state = 'pending', attempts = 0, window_start = ?, next_attempt_at = ?, claimed_by = NULL,
           claim_token = NULL, claim_until = NULL
         WHERE state = 'failed' RETURNING id`,
        [now.getTime(), now.getTime()],
      );
      return rows.length;
    },

    async erase(email: string, now = new Date()) {
      const key = emailKey(email);
      const hash = erasedHash(await siteKey(erasedKeyName), key);
      const from = "(SELECT id FROM enquiries WHERE email_key = ?)";
      const [, , , , , erased] = await db.transaction([
        {
          sql: "INSERT INTO erased_addresses (hash, erased_at) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING",
          params: [hash, now.getTime()],
        },
        { sql: `DELETE FROM activity WHERE enquiry_id IN ${from}`, params: [key] },
        // Failed logins typed with this address name it (the activity's actor, the throttle's key): they go too.
        {
          sql: "DELETE FROM activity WHERE enquiry_id IS NULL AND action LIKE 'login %' AND LOWER(TRIM(actor)) = ?",
          params: [key],
        },
        forgetLoginsOf(key),
        { sql: `DELETE FROM notifications WHERE enquiry_id IN ${from}`, params: [key] },
        { sql: "DELETE FROM enquiries WHERE email_key = ? RETURNING id", params: [key] },
      ]);
      await scrub(["enquiries", "notifications", "activity"], true);
      return erased!.length;
    },

    ping: () => db.probe(),

    close: () => db.close(),
  };
}
