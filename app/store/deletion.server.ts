import { emailKey } from "~/store/rows.server";
import { transaction, type Params, type SqlClient, type Step } from "~/store/sql.server";
import { advisoryLock, erasedAddressHash } from "~/store/statements.server";
import type { DeletionStore } from "~/store/deletion.types";
import { log } from "~/log.server";
import { buildPageErasedTables, buildPageErasure } from "~/store/build-pages.server";

/**
 * What leaves the database: enquiries past their retention (a purge) and everything of one address (an erase), each
 * followed by a scrub of the database's own files (docs/spam-and-retention.md).
 */

/** How often, and how far apart, a scrub that another reader holds up is tried: within 5 s of the erase. */
const scrubAttempts = 5;
const scrubPauseMs = 800;

/**
 * The tables that hold personal data. The pipeline's (schema v16) go with their enquiry (ON DELETE CASCADE) and are
 * scrubbed with it: notes and replies quote customers, updates describe their builds.
 */
const personalTables = [
  "enquiries",
  "notifications",
  "activity",
  "spam_training",
  "spam_tokens",
  "outgoing_mail",
  "reminders",
  ...buildPageErasedTables,
];

/**
 * Before enquiries are deleted: their numbers kept in `figures_kept`, so the season's figures stay whole (docs/inbox.md,
 * "Figures"). Under a new random id, never the enquiry's: nothing there leads back to the person or what they wrote.
 */
function keepFigures(db: SqlClient, where: string, params: Params): Step<never> {
  const newId = db.dialect === "postgres" ? "gen_random_uuid()::text" : "lower(hex(randomblob(16)))";
  return {
    sql: `INSERT INTO figures_kept (id, received_at, spam, stage, lost_reason, quote_amount, first_reply_at, service)
          SELECT ${newId}, received_at, CASE WHEN status = 'spam' THEN 1 ELSE 0 END, stage, lost_reason, quote_amount,
            first_reply_at, service
          FROM enquiries WHERE ${where}`,
    params,
  };
}

/**
 * After an erase or a purge: no copy of the deleted rows left in the database's files. The rows are gone for every
 * query already, so a scrub that cannot finish is logged, not thrown; the next erase or purge scrubs again. The
 * waitlist's erase (app/store/waitlist-owner.server.ts) scrubs its own tables the same way.
 */
export async function scrubDeleted(db: SqlClient, tables: readonly string[], erase = true): Promise<void> {
  for (let attempt = 1; attempt <= scrubAttempts; attempt++) {
    try {
      if (await db.scrub(tables, { erase })) return;
    } catch (error) {
      log.error(
        `inbox: DELETED ROWS NOT SCRUBBED: ${(error as Error).message}; they may stay in the database's files until the next erase or purge`,
      );
      return;
    }
    if (attempt < scrubAttempts) await new Promise((resolve) => setTimeout(resolve, scrubPauseMs));
  }
  log.error(
    "inbox: DELETED ROWS NOT SCRUBBED: another reader kept the write-ahead log busy; they may stay in it until the next erase or purge",
  );
}

export function deletionOperations(db: SqlClient): DeletionStore {
  const scrub = (erase: boolean) => scrubDeleted(db, personalTables, erase);

  return {
    async purge({ enquiriesBefore, spamBefore }, now = new Date()) {
      const old = `(status <> 'spam' AND received_at < ?) OR (status = 'spam' AND received_at < ?)`;
      const cutoffs = [enquiriesBefore.getTime(), spamBefore.getTime()];
      const buildPages = await buildPageErasure(db, `(SELECT id FROM enquiries WHERE ${old})`, cutoffs);
      const deleted = await transaction(db, [
        // One purge at a time across instances; a second one waits, then finds nothing left to delete.
        ...advisoryLock(db, "inbox-purge"),
        ...buildPages,
        // Entries of old enquiries, and any entry past the retention (failed logins with the addresses tried, exports).
        {
          name: "activity",
          sql: `DELETE FROM activity WHERE at < ? OR enquiry_id IN (SELECT id FROM enquiries WHERE ${old}) RETURNING id`,
          params: [enquiriesBefore.getTime(), ...cutoffs],
        },
        {
          name: "notifications",
          sql: `DELETE FROM notifications WHERE enquiry_id IN (SELECT id FROM enquiries WHERE ${old}) RETURNING id`,
          params: cutoffs,
        },
        // A purged enquiry's words leave with it; what the owner's decision on it taught the model stays counted.
        {
          sql: `DELETE FROM spam_training WHERE enquiry_id IN (SELECT id FROM enquiries WHERE ${old})`,
          params: cutoffs,
        },
        keepFigures(db, old, cutoffs),
        { name: "enquiries", sql: `DELETE FROM enquiries WHERE ${old} RETURNING status`, params: cutoffs },
        {
          name: "formTokens",
          sql: "DELETE FROM used_form_tokens WHERE expires_at < ? RETURNING id",
          params: [now.getTime()],
        },
      ]);
      const spam = deleted.enquiries.filter((row) => row.status === "spam").length;
      if (deleted.activity.length + deleted.notifications.length + deleted.enquiries.length > 0) await scrub(false);
      return {
        enquiries: deleted.enquiries.length - spam,
        spam,
        notifications: deleted.notifications.length,
        activity: deleted.activity.length,
        formTokens: deleted.formTokens.length,
      };
    },

    async erase(email, now = new Date()) {
      const key = emailKey(email);
      const hash = (await erasedAddressHash(db))(key);
      const from = "(SELECT id FROM enquiries WHERE email_key = ?)";
      const buildPages = await buildPageErasure(db, from, [key]);
      const { erased } = await transaction(db, [
        ...buildPages,
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
        { sql: "DELETE FROM login_attempts WHERE account_key = ?", params: [key] },
        { sql: `DELETE FROM notifications WHERE enquiry_id IN ${from}`, params: [key] },
        // The owner's spam decisions on these enquiries are taken back out of the model's counts: its words go too.
        ...(["spam", "not-spam"] as const).map((decision) => {
          const column = decision === "spam" ? "spam" : "ham";
          const taught = `SELECT t.token FROM spam_training t JOIN enquiries e ON e.id = t.enquiry_id
                          WHERE e.email_key = ? AND e.spam_decision = '${decision}'`;
          return {
            sql: `UPDATE spam_tokens SET ${column} = ${column} - (SELECT COUNT(*) FROM (${taught}) AS taught
                    WHERE taught.token = spam_tokens.token)
                  WHERE token IN (${taught})`,
            params: [key, key],
          };
        }),
        { sql: "DELETE FROM spam_tokens WHERE spam <= 0 AND ham <= 0" },
        { sql: `DELETE FROM spam_training WHERE enquiry_id IN ${from}`, params: [key] },
        keepFigures(db, "email_key = ?", [key]),
        { name: "erased", sql: "DELETE FROM enquiries WHERE email_key = ? RETURNING id", params: [key] },
      ]);
      await scrub(true);
      return erased.length;
    },
  };
}
