import type { Channel } from "~/store/records";
import { randomUUID } from "node:crypto";
import { time } from "~/store/rows.server";
import { insertEvent, lockEnquiry } from "~/store/statements.server";
import { transaction, type Params, type Row, type SqlClient, type Statement } from "~/store/sql.server";
import { dueAtOf, isDay, localDay } from "~/store/reminder-time";
import type { ClaimedReminder, Reminder, ReminderState, ReminderStore } from "~/store/reminders.types";

/**
 * The owner's reminders (table `reminders`, schema v16): one row per "Remind me", due at REMINDER_HOUR of its day in
 * SITE_TIMEZONE, claimed under a lease by one sender on any instance and settled only by its holder, as the login
 * alerts are, so each goes out once. Setting, moving and marking one done each add a line to the enquiry's timeline
 * and an activity entry in the same transaction. Written once over a SqlClient for SQLite and PostgreSQL.
 */

/** How long a claim on a reminder holds: one held by a process that died is taken over after this. */
export const reminderLeaseMs = 30_000;

/** Who the timeline names for what the site did by itself (the reminder going out). */
export const siteActor = "site";

const states: readonly ReminderState[] = ["pending", "sent", "failed"];
const textOrNull = (value: unknown) => (value === null || value === undefined ? null : String(value));
const timeOrNull = (value: unknown) => (value === null || value === undefined ? null : time(value));

function reminderFrom(row: Row): Reminder {
  return {
    id: String(row.id),
    enquiryId: String(row.enquiry_id),
    dueOn: String(row.due_on),
    dueAt: time(row.due_at),
    createdAt: time(row.created_at),
    createdBy: String(row.created_by),
    doneAt: timeOrNull(row.done_at),
    state: states.includes(row.state as ReminderState) ? (row.state as ReminderState) : "pending",
    attempts: Number(row.attempts),
    nextAttemptAt: time(row.next_attempt_at),
    lastError: textOrNull(row.last_error),
    sentAt: timeOrNull(row.sent_at),
  };
}

/** A statement run only when `condition` (SQL over the row just changed) holds: the shared insert's WHERE, extended. */
const onlyIf = (statement: Statement, condition: string, params: Params): Statement => ({
  sql: `${statement.sql} AND ${condition}`,
  params: [...(statement.params ?? []), ...params],
});

/** An activity entry about the enquiry, only if it exists. */
const activity = (enquiryId: string, at: number, actor: string, action: string, detail: string): Statement => ({
  sql: `INSERT INTO activity (id, at, actor, action, enquiry_id, detail)
        SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), id, CAST(? AS TEXT)
        FROM enquiries WHERE id = ?`,
  params: [randomUUID(), at, actor, action, detail, enquiryId],
});

export function reminderOperations(db: SqlClient): ReminderStore {
  // PostgreSQL: a claim skips rows another instance is claiming (SQLite runs one write transaction at a time anyway).
  const skipLocked = db.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";

  const settle = async (claim: ClaimedReminder, set: string, params: Params, more: Statement[] = []) => {
    const { settled } = await transaction(db, [
      {
        name: "settled",
        sql: `UPDATE reminders SET ${set}, claim_token = NULL, claim_until = NULL
              WHERE id = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
        params: [...params, claim.id, claim.claimToken],
      },
      ...more,
    ]);
    return settled.length === 1;
  };

  /** The day's check shared by setting and moving: a real day, today or later in the business's calendar. */
  const checkDay = (dueOn: string, timeZone: string, now: Date) => {
    if (!isDay(dueOn)) return "bad-date" as const;
    if (dueOn < localDay(now, timeZone)) return "past" as const;
    return null;
  };

  return {
    async addReminder(enquiryId, dueOn, actor, { hour, timeZone }, now = new Date()) {
      const refused = checkDay(dueOn, timeZone, now);
      if (refused) return refused;
      const at = now.getTime();
      // Set today after its hour: due at once.
      const dueAt = Math.max(dueAtOf(dueOn, hour, timeZone), at);
      const id = randomUUID();
      const { added } = await transaction(db, [
        {
          name: "added",
          sql: `INSERT INTO reminders (id, enquiry_id, due_on, due_at, created_at, created_by, state, attempts, next_attempt_at)
                SELECT CAST(? AS TEXT), id, CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT),
                  'pending', 0, CAST(? AS BIGINT)
                FROM enquiries WHERE id = ? RETURNING *`,
          params: [id, dueOn, dueAt, at, actor, dueAt, enquiryId],
        },
        insertEvent(enquiryId, { at, kind: "reminder", actor, detail: { action: "set", dueOn } }),
        activity(enquiryId, at, actor, "reminder set", dueOn),
      ]);
      return added.length === 1 ? reminderFrom(added[0]!) : "not-found";
    },

    async moveReminder(enquiryId, id, dueOn, actor, { hour, timeZone }, now = new Date()) {
      const refused = checkDay(dueOn, timeZone, now);
      if (refused) return refused;
      const at = now.getTime();
      const dueAt = Math.max(dueAtOf(dueOn, hour, timeZone), at);
      // Only an open reminder moves; the timeline line and the entry only when it did (the marker: this move's time
      // in next_attempt_at, with the new day, is what the row now holds).
      const moved =
        "EXISTS (SELECT 1 FROM reminders WHERE id = ? AND due_on = ? AND next_attempt_at = ? AND attempts = 0)";
      const { changed } = await transaction(db, [
        ...lockEnquiry(db, enquiryId),
        {
          name: "changed",
          sql: `UPDATE reminders SET due_on = ?, due_at = ?, next_attempt_at = ?, state = 'pending', attempts = 0,
                  claim_token = NULL, claim_until = NULL, last_error = NULL, sent_at = NULL, sent_channels = NULL
                WHERE id = ? AND enquiry_id = ? AND done_at IS NULL RETURNING *`,
          params: [dueOn, dueAt, dueAt, id, enquiryId],
        },
        onlyIf(insertEvent(enquiryId, { at, kind: "reminder", actor, detail: { action: "moved", dueOn } }), moved, [
          id,
          dueOn,
          dueAt,
        ]),
        onlyIf(activity(enquiryId, at, actor, "reminder moved", dueOn), moved, [id, dueOn, dueAt]),
      ]);
      return changed.length === 1 ? reminderFrom(changed[0]!) : "not-found";
    },

    async markReminderDone(enquiryId, id, actor, now = new Date()) {
      const at = now.getTime();
      // The day it was for, for the timeline's line; the transaction checks again that it is still open.
      const [open] = await db.query(
        "SELECT due_on FROM reminders WHERE id = ? AND enquiry_id = ? AND done_at IS NULL",
        [id, enquiryId],
      );
      if (!open) return false;
      const dueOn = String(open.due_on);
      // Of two "Mark done" at once, the second finds it done already (at another moment): no second line.
      const done = "EXISTS (SELECT 1 FROM reminders WHERE id = ? AND done_at = ?)";
      const { changed } = await transaction(db, [
        ...lockEnquiry(db, enquiryId),
        {
          name: "changed",
          sql: `UPDATE reminders SET done_at = ?, claim_token = NULL, claim_until = NULL
                WHERE id = ? AND enquiry_id = ? AND done_at IS NULL RETURNING id`,
          params: [at, id, enquiryId],
        },
        onlyIf(insertEvent(enquiryId, { at, kind: "reminder", actor, detail: { action: "done", dueOn } }), done, [
          id,
          at,
        ]),
        onlyIf(activity(enquiryId, at, actor, "reminder done", dueOn), done, [id, at]),
      ]);
      return changed.length === 1;
    },

    async remindersOf(enquiryId) {
      const rows = await db.query("SELECT * FROM reminders WHERE enquiry_id = ? ORDER BY due_at, created_at, id", [
        enquiryId,
      ]);
      return rows.map(reminderFrom);
    },

    async remindersDueBy(day, limit = 50) {
      const rows = await db.query(
        `SELECT r.id, r.enquiry_id, r.due_on, e.name FROM reminders r JOIN enquiries e ON e.id = r.enquiry_id
         WHERE r.done_at IS NULL AND r.due_on <= ? AND e.status <> 'spam'
         ORDER BY r.due_on, r.due_at, r.id LIMIT ?`,
        [day, limit],
      );
      return rows.map((row) => ({
        id: String(row.id),
        enquiryId: String(row.enquiry_id),
        dueOn: String(row.due_on),
        name: String(row.name),
      }));
    },

    async claimReminders(limit, now = new Date()) {
      const at = now.getTime();
      const token = randomUUID();
      const due =
        "state = 'pending' AND done_at IS NULL AND next_attempt_at <= ? AND (claim_until IS NULL OR claim_until <= ?)";
      const { claimed } = await transaction(db, [
        {
          // The conditions again outside the sub-select: of two instances claiming at once, the second finds the row
          // claimed when it gets to it (PostgreSQL re-checks them on a row another transaction changed).
          name: "claimed",
          sql: `UPDATE reminders SET claim_token = ?, claim_until = ?, attempts = attempts + 1
                WHERE ${due} AND id IN (
                  SELECT id FROM reminders WHERE ${due} ORDER BY next_attempt_at LIMIT ?${skipLocked})
                RETURNING id, enquiry_id, due_on, due_at, attempts, claim_until, sent_channels`,
          params: [token, at + reminderLeaseMs, at, at, at, at, limit],
        },
      ]);
      if (!claimed || claimed.length === 0) return [];
      const ids = [...new Set(claimed.map((row) => String(row.enquiry_id)))];
      const names = new Map(
        (await db.query(`SELECT id, name FROM enquiries WHERE id IN (${ids.map(() => "?").join(", ")})`, ids)).map(
          (row) => [String(row.id), String(row.name)],
        ),
      );
      return claimed.map((row) => ({
        id: String(row.id),
        enquiryId: String(row.enquiry_id),
        dueOn: String(row.due_on),
        dueAt: time(row.due_at),
        name: names.get(String(row.enquiry_id)) ?? "",
        attempts: Number(row.attempts),
        claimToken: token,
        claimUntil: time(row.claim_until),
        sentChannels: row.sent_channels ? (String(row.sent_channels).split(",") as Channel[]) : [],
      }));
    },

    async markReminderChannelSent(claim, channel) {
      // Appended only by the claim's holder, and never twice (the list is read and written in one statement).
      const rows = await db.query(
        `UPDATE reminders SET sent_channels = CASE
            WHEN sent_channels IS NULL OR sent_channels = '' THEN ?
            WHEN (',' || sent_channels || ',') LIKE ? THEN sent_channels
            ELSE sent_channels || ',' || ? END
         WHERE id = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
        [channel, `%,${channel},%`, channel, claim.id, claim.claimToken],
      );
      return rows.length === 1;
    },

    markReminderSent(claim, now = new Date()) {
      const at = now.getTime();
      return settle(
        claim,
        "state = 'sent', sent_at = ?, last_error = NULL",
        [at],
        [
          onlyIf(
            insertEvent(claim.enquiryId, {
              at,
              kind: "reminder",
              actor: siteActor,
              detail: { action: "sent", dueOn: claim.dueOn },
            }),
            "EXISTS (SELECT 1 FROM reminders WHERE id = ? AND state = 'sent' AND sent_at = ?)",
            [claim.id, at],
          ),
        ],
      );
    },
    markReminderRetry: (claim, error, nextAttemptAt) =>
      settle(claim, "next_attempt_at = ?, last_error = ?", [nextAttemptAt.getTime(), error.slice(0, 1000)]),
    markReminderFailed: (claim, error) => settle(claim, "state = 'failed', last_error = ?", [error.slice(0, 1000)]),

    async nextReminderAt() {
      const [row] = await db.query(
        `SELECT MIN(CASE WHEN claim_until IS NOT NULL AND claim_until > next_attempt_at THEN claim_until ELSE next_attempt_at END) AS due
         FROM reminders WHERE state = 'pending' AND done_at IS NULL`,
      );
      return row?.due === null || row?.due === undefined ? null : time(row.due);
    },
  };
}
