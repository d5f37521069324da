import { Form, useActionData, useSearchParams } from "@remix-run/react";
import { buttonClass, quietButtonClass } from "~/components/inbox/InboxShell";
import { ButtonForm } from "~/components/inbox/form/ButtonForm";
import { Field } from "~/components/inbox/form/Field";
import { Notice } from "~/components/inbox/form/Notice";
import type { ReminderRefused, RemindersShown } from "~/owner/reminders.server";
import { shortcutDays } from "~/store/reminder-time";
import { absoluteTime } from "~/text/time";
import { dayInWords, reminderCopy } from "~/wording/reminders";

const words = reminderCopy.form;

/** Dates come back from the loader as strings (JSON); the shape is otherwise the loader's. */
type Shown = Omit<RemindersShown, "items"> & {
  items: (Omit<RemindersShown["items"][number], "sentAt"> & { sentAt: string | Date | null })[];
};

/**
 * The enquiry page's "Remind me": a date, or one of the shortcut buttons (each a submit button of the same plain form
 * with its own value, so it works without JavaScript), then the enquiry's reminders with "Mark done" and "Move".
 * A refused post shows why beside the form it came from, with what was typed.
 */
export function ReminderForm({ reminders }: { reminders: Shown }) {
  const refused = (useActionData() as Partial<ReminderRefused> | undefined)?.reminder;
  const [params] = useSearchParams();
  const done = params.get("reminder");
  const addError = refused?.intent === "remind" ? refused.error : undefined;
  // A refused move shows under its own field while that reminder is still open; anything else above the form.
  const inline =
    refused?.intent === "reminder-move" &&
    reminders.items.some((item) => item.id === refused.id && item.state !== "done");
  return (
    <section id="reminders" aria-labelledby="reminders-heading" className="mt-8">
      <h2 id="reminders-heading" className="font-display text-2xl font-bold text-bone-50">
        {words.heading}
      </h2>
      <p className="mt-1 text-sm text-bone-300">{words.intro(reminders.hour, reminders.timeZone)}</p>
      <div className="mt-3">
        <Notice>{done ? reminderCopy.done[`reminder-${done}`] : null}</Notice>
        <Notice tone="error">{refused && refused.intent !== "remind" && !inline ? refused.error : null}</Notice>
      </div>
      {/* Keyed by the count: emptied once a reminder is added (in the browser too), kept as typed when refused. */}
      <Form
        key={reminders.items.length}
        method="post"
        className="mt-3 flex flex-wrap items-end gap-2"
        data-reminder-form=""
      >
        <input type="hidden" name="intent" value="remind" />
        <Field
          id="reminder-date"
          label={words.dateLabel}
          small
          name="date"
          type="date"
          min={reminders.today}
          defaultValue={refused?.intent === "remind" ? refused.date : ""}
          error={addError}
          className="min-w-[11rem]"
        />
        <button type="submit" className={buttonClass}>
          {words.set}
        </button>
        <span className="basis-full text-sm text-bone-300 sm:basis-auto">{words.shortcutsLabel}</span>
        {Object.keys(shortcutDays).map((shortcut) => (
          <button
            key={shortcut}
            type="submit"
            name="shortcut"
            value={shortcut}
            formNoValidate
            className={quietButtonClass}
          >
            {words.shortcuts[shortcut as keyof typeof words.shortcuts]}
          </button>
        ))}
      </Form>
      <h3 className="mt-5 text-lg font-semibold text-bone-50">{words.listHeading}</h3>
      {reminders.items.length === 0 ? <p className="mt-1 text-bone-300">{words.none}</p> : null}
      <ul className="mt-2 grid gap-3">
        {reminders.items.map((reminder) => {
          const open = reminder.state !== "done";
          const moveError = inline && refused?.id === reminder.id ? refused.error : undefined;
          return (
            <li
              key={reminder.id}
              className="rounded-xl border border-night-600 bg-night-800/70 p-4"
              data-reminder={reminder.state}
            >
              <p className="text-bone-50">
                <span className="font-semibold">{dayInWords(reminder.dueOn)}</span> ·{" "}
                <span>{words.state[reminder.state]}</span>
                {reminder.sentAt ? (
                  <span className="text-sm text-bone-300"> ({absoluteTime(new Date(reminder.sentAt))})</span>
                ) : null}
              </p>
              {reminder.lastError && reminder.state !== "sent" ? (
                <p className="mt-1 break-words text-sm text-bone-300">
                  {words.lastError}: {reminder.lastError}
                </p>
              ) : null}
              {open ? (
                <div className="mt-3 flex flex-wrap items-end gap-3">
                  <ButtonForm
                    fields={{ intent: "reminder-done", reminder: reminder.id }}
                    buttonClassName={quietButtonClass}
                  >
                    {words.markDone}
                  </ButtonForm>
                  <Form method="post" className="flex flex-wrap items-end gap-2">
                    <input type="hidden" name="intent" value="reminder-move" />
                    <input type="hidden" name="reminder" value={reminder.id} />
                    <Field
                      id={`reminder-move-${reminder.id}`}
                      label={words.moveLabel}
                      small
                      name="date"
                      type="date"
                      min={reminders.today}
                      defaultValue={moveError ? refused!.date : reminder.dueOn}
                      error={moveError}
                    />
                    <button type="submit" className={quietButtonClass}>
                      {words.move}
                    </button>
                  </Form>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
