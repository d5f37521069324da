/**
 * The owner's reminders' words: the form on the enquiry page, "Due today" on the inbox's first page, and the message
 * that goes out on the day (e-mail and webhook).
 */

/** "Friday, 27 November 2026" for a YYYY-MM-DD day (a calendar day: no time zone moves it). */
export function dayInWords(day: string): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", dateStyle: "full" }).format(
    new Date(Date.UTC(year, month - 1, date)),
  );
}

export const reminderCopy = {
  form: {
    heading: "Remind me",
    intro: (hour: number, timeZone: string) =>
      `On the day you choose, a message reaches you at ${String(hour).padStart(2, "0")}:00 (${timeZone}) on the channels the inbox announces enquiries on.`,
    dateLabel: "Date",
    set: "Remind me",
    shortcutsLabel: "Or choose",
    shortcuts: { tomorrow: "Tomorrow", "in-3-days": "In 3 days", "in-a-week": "In a week" },
    listHeading: "Reminders",
    none: "No reminders on this enquiry.",
    markDone: "Mark done",
    moveLabel: "New date",
    move: "Move",
    state: {
      pending: "Not sent yet",
      sent: "Sent",
      failed: "Could not be sent",
      done: "Done",
    },
    due: (day: string) => `${dayInWords(day)}`,
    lastError: "Last error",
  },
  refused: {
    "bad-date": "That date could not be read. Choose a day in the calendar or write it as YYYY-MM-DD.",
    past: "That date has passed. Choose today or a later day.",
    "not-found": "That reminder is gone or already done. Nothing was changed.",
    unknownShortcut: "That choice is not one of the shortcuts. Nothing was changed.",
  },
  done: {
    "reminder-set": "Reminder set.",
    "reminder-moved": "Reminder moved.",
    "reminder-done": "Reminder marked done.",
  } as Record<string, string>,
  dueToday: {
    heading: "Due today",
    overdue: (day: string) => `due ${dayInWords(day)}`,
  },
  message: {
    subject: (name: string) => `Reminder: ${name}`,
    head: (name: string) => `Reminder: ${name}`,
    body: (name: string, day: string) => `You asked to be reminded about ${name}'s enquiry on ${dayInWords(day)}.`,
    open: (url: string) => `Open the enquiry: ${url}`,
    button: "Open the enquiry",
    nameless: "a customer",
  },
};
