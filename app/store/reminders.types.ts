import type { Channel } from "~/store/records";
/**
 * The owner's reminders' part of the store (app/store/reminders.server.ts): "Remind me" on a day, due at
 * REMINDER_HOUR of it in SITE_TIMEZONE, sent once under a lease by whichever instance claims it.
 */

/** When a reminder set for a day is due: this hour of it (REMINDER_HOUR) in the business's time zone (SITE_TIMEZONE). */
export interface ReminderClock {
  hour: number;
  timeZone: string;
}

export type ReminderState = "pending" | "sent" | "failed";

export interface Reminder {
  id: string;
  enquiryId: string;
  /** The day chosen, YYYY-MM-DD in the business's calendar. */
  dueOn: string;
  /** REMINDER_HOUR of that day in SITE_TIMEZONE (later than the moment it was set, for a day whose hour had passed). */
  dueAt: Date;
  createdAt: Date;
  createdBy: string;
  /** "Mark done": it leaves "Due today" and, if not sent yet, is not sent. */
  doneAt: Date | null;
  state: ReminderState;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  sentAt: Date | null;
}

/** Why a reminder was not set or moved. */
export type ReminderRefusal = "bad-date" | "past" | "not-found";

/** A reminder on the inbox's first page: open (not done), its day today or before. */
export interface DueReminder {
  id: string;
  enquiryId: string;
  dueOn: string;
  /** The customer's name, as they wrote it. */
  name: string;
}

/** A reminder one sender holds: send it on every configured channel, then settle it. */
export interface ClaimedReminder {
  id: string;
  enquiryId: string;
  dueOn: string;
  dueAt: Date;
  /** The customer's name, as they wrote it. */
  name: string;
  /** Attempts so far, this one included. */
  attempts: number;
  claimToken: string;
  claimUntil: Date;
  /** The channels that took it on an earlier attempt: not sent to again. */
  sentChannels: Channel[];
}

export interface ReminderStore {
  /** Records that `channel` took the claimed reminder (only the claim's holder can); false when the claim is gone. */
  markReminderChannelSent(claim: ClaimedReminder, channel: Channel): Promise<boolean>;
  /** Sets a reminder for `dueOn` (a day today or later, in the clock's zone), with its timeline line and activity entry. */
  addReminder(
    enquiryId: string,
    dueOn: string,
    actor: string,
    clock: ReminderClock,
    now?: Date,
  ): Promise<Reminder | ReminderRefusal>;
  /** A new day for an open reminder: due again at its hour, to be sent again (attempts from zero). */
  moveReminder(
    enquiryId: string,
    id: string,
    dueOn: string,
    actor: string,
    clock: ReminderClock,
    now?: Date,
  ): Promise<Reminder | ReminderRefusal>;
  /** Marks an open reminder done; false when there is no such open reminder on the enquiry. */
  markReminderDone(enquiryId: string, id: string, actor: string, now?: Date): Promise<boolean>;
  /** The enquiry's reminders, the soonest first. */
  remindersOf(enquiryId: string): Promise<Reminder[]>;
  /** Open reminders whose day is `day` (YYYY-MM-DD) or before, the oldest first, of enquiries not in the spam folder. */
  remindersDueBy(day: string, limit?: number): Promise<DueReminder[]>;
  /** Claims the due reminders (pending, not done, due, unclaimed or with an expired lease), at most `limit`. */
  claimReminders(limit: number, now?: Date): Promise<ClaimedReminder[]>;
  /** Sent on every channel: also a timeline line. Each settle is the claim holder's only. */
  markReminderSent(claim: ClaimedReminder, now?: Date): Promise<boolean>;
  markReminderRetry(claim: ClaimedReminder, error: string, nextAttemptAt: Date): Promise<boolean>;
  markReminderFailed(claim: ClaimedReminder, error: string): Promise<boolean>;
  /** When the next pending reminder becomes due (or its lease expires); null when none is pending. */
  nextReminderAt(): Promise<Date | null>;
}
