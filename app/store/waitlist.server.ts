import { randomUUID } from "node:crypto";
import {
  hashListToken,
  newListToken,
  sealerWith,
  waitlistConfirmColumn,
  waitlistUnsubscribeColumn,
  type SecretsSealer,
} from "~/store/sealed-secrets.server";
import { emailKey, time, timeOrNull } from "~/store/rows.server";
import { transaction, type Params, type Row, type SqlClient } from "~/store/sql.server";
import { waitlistConfirmDays } from "~/wording/waitlist";
import type {
  ClaimedListMail,
  ListMailKind,
  WaitlistEntry,
  WaitlistState,
  WaitlistStore,
} from "~/store/waitlist.types";

/**
 * The visitor's side of the waitlist and the list's outbox (tables `waitlist`, `list_mail`, `mail_pace`, schema v18;
 * docs/waitlist.md). A link's token is 32 random bytes (hex): only its SHA-256 is looked up, its clear copy is kept
 * sealed with SECRETS_KEY (when set) to write the link into a mail. List mail is claimed under a lease by one sender
 * on any instance and settled only by its holder; announcements are paced for all instances together by one
 * `mail_pace` row, moved forward atomically by whoever sends next. Written once over a SqlClient for SQLite and
 * PostgreSQL.
 */

export { waitlistConfirmDays } from "~/wording/waitlist";
const confirmMs = waitlistConfirmDays * 24 * 60 * 60_000;
/** A pending address asking again sooner than this gets no second mail (nobody fills a stranger's inbox with them). */
export const waitlistAskAgainMs = 10 * 60_000;
/** How long a claim on a list mail holds: one held by a process that died is taken over after this. */
export const listMailLeaseMs = 20_000;
/** The shared pace of the announcements (one row for every instance). */
export const announcementPace = "list-announcement";

const states: readonly WaitlistState[] = ["pending", "confirmed", "unsubscribed"];

export const waitlistEntryFrom = (row: Row): WaitlistEntry => ({
  id: String(row.id),
  email: String(row.email),
  state: states.includes(row.state as WaitlistState) ? (row.state as WaitlistState) : "unsubscribed",
  createdAt: time(row.created_at),
  confirmedAt: timeOrNull(row.confirmed_at),
  unsubscribedAt: timeOrNull(row.unsubscribed_at),
});

/** The Message-ID's id part of one list mail; the sender adds NOTIFY_EMAIL_FROM's domain (app/notify/list-mail.server.ts). */
export const listMailMessageId = (kind: ListMailKind, mailId: string) => `list-${kind}-${mailId}`;

export function waitlistOperations(db: SqlClient, sealer: SecretsSealer = sealerWith(undefined)): WaitlistStore {
  // PostgreSQL: a claim skips rows another instance is claiming (SQLite runs one write transaction at a time anyway).
  const skipLocked = db.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";
  const due = "state = 'pending' AND next_attempt_at <= ? AND (claim_until IS NULL OR claim_until <= ?)";

  const settle = async (claim: ClaimedListMail, set: string, params: Params) => {
    const rows = await db.query(
      `UPDATE list_mail SET ${set}, claim_token = NULL, claim_until = NULL
       WHERE id = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
      [...params, claim.id, claim.claimToken],
    );
    return rows.length === 1;
  };

  /** The statement that stores a confirmation mail for the entry, only while it holds this confirmation token. */
  const confirmMail = (waitlistId: string, tokenHash: string, at: number) => {
    const id = randomUUID();
    return {
      name: "mail" as const,
      sql: `INSERT INTO list_mail (id, waitlist_id, kind, announcement_id, message_id, created_at, state, attempts,
              next_attempt_at)
            SELECT CAST(? AS TEXT), id, 'confirm', NULL, CAST(? AS TEXT), CAST(? AS BIGINT), 'pending', 0, CAST(? AS BIGINT)
            FROM waitlist WHERE id = ? AND state = 'pending' AND confirm_token_hash = ?
            RETURNING id`,
      params: [id, listMailMessageId("confirm", id), at, at, waitlistId, tokenHash],
    };
  };

  const byHash = async (column: "confirm_token_hash" | "unsubscribe_token_hash", token: string) => {
    // One hash, one lookup by the unique index, whatever the token.
    const [row] = await db.query(`SELECT * FROM waitlist WHERE ${column} = ?`, [hashListToken(token)]);
    return row;
  };

  async function claimed(token: string, at: number): Promise<ClaimedListMail[]> {
    const rows = await db.query(
      `SELECT m.id, m.kind, m.waitlist_id, m.message_id, m.attempts, m.created_at, m.claim_until,
              w.email, w.confirm_token_sealed, w.confirm_until, w.unsubscribe_token_sealed,
              a.season, a.subject, a.body
       FROM list_mail m JOIN waitlist w ON w.id = m.waitlist_id LEFT JOIN announcements a ON a.id = m.announcement_id
       WHERE m.claim_token = ? ORDER BY m.next_attempt_at, m.id`,
      [token],
    );
    return rows.map((row) => {
      const waitlistId = String(row.waitlist_id);
      const kind: ListMailKind = row.kind === "announcement" ? "announcement" : "confirm";
      const confirmUntil = timeOrNull(row.confirm_until);
      const confirmValid =
        kind === "confirm" && row.confirm_token_sealed !== null && (confirmUntil?.getTime() ?? 0) > at;
      return {
        id: String(row.id),
        kind,
        waitlistId,
        to: String(row.email),
        messageId: String(row.message_id),
        confirmToken: confirmValid
          ? sealer.open(String(row.confirm_token_sealed), waitlistConfirmColumn, waitlistId)
          : null,
        confirmUntil: confirmValid ? confirmUntil : null,
        unsubscribeToken: sealer.open(String(row.unsubscribe_token_sealed), waitlistUnsubscribeColumn, waitlistId),
        announcement:
          kind === "announcement" && row.subject !== null && row.subject !== undefined
            ? { season: String(row.season), subject: String(row.subject), body: String(row.body) }
            : null,
        attempts: Number(row.attempts),
        createdAt: time(row.created_at),
        claimToken: token,
        claimUntil: time(row.claim_until),
      };
    });
  }

  return {
    async joinWaitlist(email, now = new Date()) {
      const address = emailKey(email);
      const at = now.getTime();
      const [existing] = await db.query("SELECT id, state, created_at FROM waitlist WHERE email = ?", [address]);
      // Confirmed or unsubscribed: nothing changes and nothing is sent. Pending and asked just now: the mail is on its way.
      if (existing && (existing.state !== "pending" || at - Number(existing.created_at) < waitlistAskAgainMs)) {
        return "unchanged";
      }
      const token = newListToken();
      const tokenHash = hashListToken(token);
      if (existing) {
        const id = String(existing.id);
        const { mail } = await transaction(db, [
          {
            sql: `UPDATE waitlist SET confirm_token_hash = ?, confirm_token_sealed = ?, confirm_until = ?, created_at = ?
                  WHERE id = ? AND state = 'pending'`,
            params: [tokenHash, sealer.seal(token, waitlistConfirmColumn, id), at + confirmMs, at, id],
          },
          // The earlier link is gone: its mail, if still unsent, goes with it.
          {
            sql: "DELETE FROM list_mail WHERE waitlist_id = ? AND kind = 'confirm' AND state = 'pending'",
            params: [id],
          },
          confirmMail(id, tokenHash, at),
        ]);
        return (mail ?? []).length === 1 ? "queued" : "unchanged";
      }
      const id = randomUUID();
      const unsubscribe = newListToken();
      const { mail } = await transaction(db, [
        {
          // Two asks at once: the second finds the address there and stores nothing.
          sql: `INSERT INTO waitlist (id, email, state, created_at, confirm_token_hash, confirm_token_sealed,
                  confirm_until, confirmed_at, unsubscribe_token_hash, unsubscribe_token_sealed, unsubscribed_at)
                VALUES (?, ?, 'pending', ?, ?, ?, ?, NULL, ?, ?, NULL) ON CONFLICT (email) DO NOTHING`,
          params: [
            id,
            address,
            at,
            tokenHash,
            sealer.seal(token, waitlistConfirmColumn, id),
            at + confirmMs,
            hashListToken(unsubscribe),
            sealer.seal(unsubscribe, waitlistUnsubscribeColumn, id),
          ],
        },
        confirmMail(id, tokenHash, at),
      ]);
      return (mail ?? []).length === 1 ? "queued" : "unchanged";
    },

    async waitlistByConfirmToken(token, now = new Date()) {
      const row = await byHash("confirm_token_hash", token);
      if (!row || row.state !== "pending" || Number(row.confirm_until) <= now.getTime()) return null;
      return waitlistEntryFrom(row);
    },

    async confirmWaitlist(token, now = new Date()) {
      const at = now.getTime();
      const tokenHash = hashListToken(token);
      const { confirmed } = await transaction(db, [
        // Its confirmation mail, if somehow still unsent, is not needed any more.
        {
          sql: `UPDATE list_mail SET state = 'dropped', claim_token = NULL, claim_until = NULL
                WHERE kind = 'confirm' AND state = 'pending' AND waitlist_id IN (
                  SELECT id FROM waitlist WHERE confirm_token_hash = ? AND state = 'pending' AND confirm_until > ?)`,
          params: [tokenHash, at],
        },
        {
          name: "confirmed",
          // The link is used up: its hash goes, so it finds nothing any more.
          sql: `UPDATE waitlist SET state = 'confirmed', confirmed_at = ?, confirm_token_hash = NULL,
                  confirm_token_sealed = NULL, confirm_until = NULL
                WHERE confirm_token_hash = ? AND state = 'pending' AND confirm_until > ? RETURNING id`,
          params: [at, tokenHash, at],
        },
      ]);
      if ((confirmed ?? []).length === 1) return "confirmed";
      const [row] = await db.query("SELECT state, confirm_until FROM waitlist WHERE confirm_token_hash = ?", [
        tokenHash,
      ]);
      if (!row) return "unknown";
      if (row.state === "confirmed") return "already";
      return "expired";
    },

    async waitlistByUnsubscribeToken(token) {
      const row = await byHash("unsubscribe_token_hash", token);
      return row ? waitlistEntryFrom(row) : null;
    },

    async unsubscribeWaitlist(token, now = new Date()) {
      const tokenHash = hashListToken(token);
      const { left } = await transaction(db, [
        {
          name: "left",
          // Asked twice (a provider's POST and the visitor's click): the first time stands.
          sql: `UPDATE waitlist SET state = 'unsubscribed', unsubscribed_at = COALESCE(unsubscribed_at, ?),
                  confirm_token_hash = NULL, confirm_token_sealed = NULL, confirm_until = NULL
                WHERE unsubscribe_token_hash = ? RETURNING id`,
          params: [now.getTime(), tokenHash],
        },
        // What was not sent yet is dropped (kept as `dropped`, so an announcement never stores it again).
        {
          sql: `UPDATE list_mail SET state = 'dropped', last_error = 'unsubscribed', claim_token = NULL, claim_until = NULL
                WHERE state = 'pending' AND waitlist_id IN (SELECT id FROM waitlist WHERE unsubscribe_token_hash = ?)`,
          params: [tokenHash],
        },
      ]);
      return (left ?? []).length === 1;
    },

    async purgeUnconfirmedWaitlist(now = new Date()) {
      const rows = await db.query(
        `DELETE FROM waitlist WHERE state = 'pending' AND (confirm_until IS NULL OR confirm_until <= ?) RETURNING id`,
        [now.getTime()],
      );
      // No copy of the addresses left in the database's files (best effort: the next purge scrubs again).
      if (rows.length > 0) await db.scrub(["waitlist", "list_mail"]).catch(() => false);
      return rows.length;
    },

    async claimListMail(limit, intervalMs, now = new Date()) {
      const at = now.getTime();
      const token = randomUUID();
      const lease = at + listMailLeaseMs;
      // What may not go any more is dropped first: a confirmation whose link ended or whose address is no longer
      // pending, an announcement to an address that is not confirmed (unsubscribed, erased meanwhile).
      await db.query(
        `UPDATE list_mail SET state = 'dropped', last_error = 'not for this address any more'
         WHERE ${due} AND NOT EXISTS (
           SELECT 1 FROM waitlist w WHERE w.id = list_mail.waitlist_id AND (
             (list_mail.kind = 'confirm' AND w.state = 'pending' AND w.confirm_until > ?)
             OR (list_mail.kind = 'announcement' AND w.state = 'confirmed')))`,
        [at, at, at],
      );
      const deliverable = `waitlist_id IN (SELECT id FROM waitlist WHERE state = ?)`;
      // Confirmations: not paced (a visitor is waiting for one).
      await db.query(
        `UPDATE list_mail SET claim_token = ?, claim_until = ?, attempts = attempts + 1
         WHERE ${due} AND kind = 'confirm' AND ${deliverable} AND id IN (
           SELECT id FROM list_mail WHERE ${due} AND kind = 'confirm' ORDER BY next_attempt_at LIMIT ?${skipLocked})`,
        [token, lease, at, at, "pending", at, at, limit],
      );
      // Announcements: at most one per interval for all instances together. The pace row is moved forward only when
      // an announcement is due, by one instance (the UPDATE's condition is checked again on a row another changed),
      // by as many intervals as it takes turns: up to `limit`, and no more than half a lease's worth, so the sender,
      // which sends them an interval apart (app/notify/list-mail.server.ts), is done before its claims run out.
      const [waiting] = await db.query(
        `SELECT 1 AS due FROM list_mail WHERE ${due} AND kind = 'announcement' AND ${deliverable} LIMIT 1`,
        [at, at, "confirmed"],
      );
      const interval = Math.max(1, intervalMs);
      const turns = Math.max(1, Math.min(limit, Math.floor(listMailLeaseMs / 2 / interval)));
      if (waiting && limit > 0) {
        await db.query("INSERT INTO mail_pace (name, next_at) VALUES (?, 0) ON CONFLICT (name) DO NOTHING", [
          announcementPace,
        ]);
        const paced = await db.query(
          "UPDATE mail_pace SET next_at = ? WHERE name = ? AND next_at <= ? RETURNING name",
          [at + turns * interval, announcementPace, at],
        );
        if (paced.length === 1) {
          let taken = 0;
          while (taken < turns) {
            // `= (…)`, not `IN (…)`: one row whatever plan PostgreSQL picks (a sub-select under IN may be run again).
            const rows = await db.query(
              `UPDATE list_mail SET claim_token = ?, claim_until = ?, attempts = attempts + 1
               WHERE ${due} AND kind = 'announcement' AND ${deliverable} AND id = (
                 SELECT id FROM list_mail WHERE ${due} AND kind = 'announcement' AND ${deliverable}
                 ORDER BY next_attempt_at, id LIMIT 1${skipLocked})
               RETURNING id`,
              [token, lease, at, at, "confirmed", at, at, "confirmed"],
            );
            if (rows.length === 0) break;
            taken++;
          }
          // Fewer were waiting than the turns taken: the unused turns are given back.
          if (taken < turns)
            await db.query("UPDATE mail_pace SET next_at = ? WHERE name = ? AND next_at = ?", [
              at + Math.max(1, taken) * interval,
              announcementPace,
              at + turns * interval,
            ]);
        }
      }
      return claimed(token, at);
    },

    markListMailSent: (claim, now = new Date()) =>
      settle(claim, "state = 'sent', sent_at = ?, last_error = NULL", [now.getTime()]),
    markListMailRetry: (claim, error, nextAttemptAt) =>
      settle(claim, "next_attempt_at = ?, last_error = ?", [nextAttemptAt.getTime(), error.slice(0, 1000)]),
    markListMailFailed: (claim, error) => settle(claim, "state = 'failed', last_error = ?", [error.slice(0, 1000)]),

    async nextListMailAt() {
      const when =
        "CASE WHEN claim_until IS NOT NULL AND claim_until > next_attempt_at THEN claim_until ELSE next_attempt_at END";
      const [row] = await db.query(
        `SELECT MIN(CASE WHEN kind = 'confirm' THEN ${when} END) AS confirm,
                MIN(CASE WHEN kind = 'announcement' THEN ${when} END) AS announcement
         FROM list_mail WHERE state = 'pending'`,
      );
      const [pace] = await db.query("SELECT next_at FROM mail_pace WHERE name = ?", [announcementPace]);
      const times = [
        row?.confirm ?? null,
        // An announcement goes no sooner than the pace lets it.
        row?.announcement === null || row?.announcement === undefined
          ? null
          : Math.max(Number(row.announcement), Number(pace?.next_at ?? 0)),
      ].filter((value): value is number | string => value !== null && value !== undefined);
      return times.length === 0 ? null : time(Math.min(...times.map(Number)));
    },
  };
}
