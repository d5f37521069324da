import { z } from "zod";
import { emptyAsUnset } from "~/config/env.server";

/**
 * The owner's reminders ("Remind me" on an enquiry): the local hour of the chosen day at which one goes out
 * (REMINDER_HOUR, counted in SITE_TIMEZONE: see serving.server.ts).
 */
export const remindersEnv = z.object({
  REMINDER_HOUR: z.preprocess(
    (value) => emptyAsUnset(typeof value === "string" ? value.trim() : value),
    z
      .string()
      .default("8")
      .transform((value, context) => {
        if (/^\d{1,2}$/.test(value) && Number(value) <= 23) return Number(value);
        context.addIssue({ code: "custom", message: "must be an hour from 0 to 23 (in SITE_TIMEZONE)" });
        return z.NEVER;
      }),
  ),
});

/** When a reminder set for a day is due: this hour of it in the business's time zone. */
export interface ReminderClock {
  /** The local hour, 0-23 (REMINDER_HOUR, 8 unless set). */
  hour: number;
  /** The business's IANA time zone (SITE_TIMEZONE). */
  timeZone: string;
}

export const defaultReminderHour = 8;

export const remindersConfig = (env: z.infer<typeof remindersEnv>, timeZone: string): { reminders: ReminderClock } => ({
  reminders: { hour: env.REMINDER_HOUR, timeZone },
});
