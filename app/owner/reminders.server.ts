import { data, redirect } from "@remix-run/node";
import { defaultReminderHour, type Config, type ReminderClock } from "~/config.server";
import { privateHeaders } from "~/owner/headers";
import type { SiteServices } from "~/site-services.server";
import { addDays, isShortcut, localDay, shortcutDays } from "~/store/reminder-time";
import type { Reminder, ReminderRefusal, ReminderStore } from "~/store/reminders.types";
import { reminderCopy } from "~/wording/reminders";

/**
 * The enquiry page's reminders (app/components/inbox/ReminderForm.tsx): what its loader shows, and its three posts:
 * "Remind me" (a date, or a shortcut button: Tomorrow, In 3 days, In a week), "Mark done" and "Move". Each answers
 * with a redirect to the page (post/redirect/get); a refused one with the reason in words and what was typed.
 */

/** The enquiry page's action intents this module answers. */
export const reminderIntents = ["remind", "reminder-done", "reminder-move"] as const;
export type ReminderIntent = (typeof reminderIntents)[number];
export const isReminderIntent = (intent: string): intent is ReminderIntent =>
  (reminderIntents as readonly string[]).includes(intent);

/** REMINDER_HOUR in SITE_TIMEZONE (8 there, for a configuration built by hand without it). */
export const reminderClock = (config: Config): ReminderClock =>
  config.reminders ?? { hour: defaultReminderHour, timeZone: config.timeZone };

/** What the page shows of one reminder. */
export interface ShownReminder {
  id: string;
  dueOn: string;
  state: Reminder["state"] | "done";
  sentAt: Date | null;
  lastError: string | null;
}

export interface RemindersShown {
  /** Today in the business's calendar: the date input's least value and the shortcuts' start. */
  today: string;
  hour: number;
  timeZone: string;
  items: ShownReminder[];
}

export async function remindersShown(store: ReminderStore, enquiryId: string, config: Config): Promise<RemindersShown> {
  const clock = reminderClock(config);
  const reminders = await store.remindersOf(enquiryId);
  return {
    today: localDay(new Date(), clock.timeZone),
    hour: clock.hour,
    timeZone: clock.timeZone,
    items: reminders.map((reminder) => ({
      id: reminder.id,
      dueOn: reminder.dueOn,
      state: reminder.doneAt ? "done" : reminder.state,
      sentAt: reminder.sentAt,
      lastError: reminder.lastError,
    })),
  };
}

/** A refused reminder post's answer: which form, the reason in words, and what was typed (to put back). */
export interface ReminderRefused {
  reminder: { intent: ReminderIntent; id: string | null; error: string; date: string };
}

const refuse = (status: number, refused: ReminderRefused["reminder"]) =>
  data<ReminderRefused>({ reminder: refused }, { status, headers: privateHeaders });

const statusOf: Record<ReminderRefusal, number> = { "bad-date": 422, past: 422, "not-found": 409 };

export async function reminderAction({
  form,
  intent,
  enquiryId,
  actor,
  store,
  services,
}: {
  form: FormData;
  intent: ReminderIntent;
  enquiryId: string;
  actor: string;
  store: ReminderStore;
  services: Pick<SiteServices, "config" | "wakeReminders">;
}) {
  const clock = reminderClock(services.config);
  const now = new Date();
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.trim().slice(0, 100) : "";
  };
  const date = field("date");
  const reminderId = field("reminder") || null;
  const back = (done: string) =>
    redirect(`/inbox/${encodeURIComponent(enquiryId)}?reminder=${done}#reminders`, {
      status: 303,
      headers: privateHeaders,
    });

  if (intent === "reminder-done") {
    if (!reminderId || !(await store.markReminderDone(enquiryId, reminderId, actor, now)))
      return refuse(409, { intent, id: reminderId, error: reminderCopy.refused["not-found"], date: "" });
    return back("done");
  }

  let dueOn = date;
  const shortcut = intent === "remind" ? field("shortcut") : "";
  if (shortcut !== "") {
    if (!isShortcut(shortcut))
      return refuse(400, { intent, id: null, error: reminderCopy.refused.unknownShortcut, date });
    dueOn = addDays(localDay(now, clock.timeZone), shortcutDays[shortcut]);
  }
  const result =
    intent === "remind"
      ? await store.addReminder(enquiryId, dueOn, actor, clock, now)
      : reminderId
        ? await store.moveReminder(enquiryId, reminderId, dueOn, actor, clock, now)
        : ("not-found" as const);
  if (typeof result === "string") {
    // No such enquiry at all: the page's own answer for that.
    if (intent === "remind" && result === "not-found")
      throw new Response(null, { status: 404, headers: privateHeaders });
    return refuse(statusOf[result], { intent, id: reminderId, error: reminderCopy.refused[result], date });
  }
  // Set for today after its hour: due now, so this instance sends it now rather than at its next look.
  if (result.dueAt.getTime() <= now.getTime()) services.wakeReminders?.();
  return back(intent === "remind" ? "set" : "moved");
}

/** "Due today" on the inbox's first page: open reminders whose day is today or before (app/components/inbox/DueToday.tsx). */
export async function dueTodayShown(store: ReminderStore, config: Config) {
  const today = localDay(new Date(), reminderClock(config).timeZone);
  return { today, items: await store.remindersDueBy(today) };
}
