import type { ReactNode } from "react";
import { formatAmount } from "~/owner/money";
import type { EnquiryEvent, Stage } from "~/store/pipeline.types";
import { absoluteTime } from "~/text/time";
import { pipelineCopy } from "~/wording/pipeline";

const words = pipelineCopy.timeline;

/** A timeline event as the loader sends it (its time as a string). */
export type TimelineEvent = Omit<EnquiryEvent, "at"> & { at: string | Date };

const stageName = (value: unknown) => pipelineCopy.stages[value as Stage] ?? String(value);

/** A stage change's fields in words: "quote $1,500.00, needed by 2027-09-30". */
function changedFields(detail: Record<string, unknown>, currency: string): string {
  return Object.entries(detail)
    .filter(([key]) => key in words.fields)
    .map(([key, value]) => {
      const shown =
        value === null
          ? words.cleared
          : key === "quoteAmount" || key === "depositAmount"
            ? formatAmount(Number(value), currency)
            : key === "lostReason"
              ? (pipelineCopy.lostReasons[value as keyof typeof pipelineCopy.lostReasons] ?? String(value))
              : String(value);
      return `${words.fields[key]} ${shown}`;
    })
    .join(", ");
}

/** A reply's or an acknowledgement's delivery as the customer-mail outbox has it (by the mail's id). */
export type MailStates = Readonly<Record<string, "pending" | "sent" | "failed">>;

/** What one line says, by its kind; the text a person wrote (a note, a reply, the customer's answer) under it. */
function EventLine({ event, currency, mails }: { event: TimelineEvent; currency: string; mails: MailStates }) {
  const detail = event.detail ?? {};
  const fields = event.kind === "stage" ? changedFields(detail, currency) : "";
  const heading =
    event.kind === "stage"
      ? `${words.stage(stageName(detail.from), stageName(detail.to))}${fields ? ` (${fields})` : ""}`
      : event.kind === "reminder" && typeof detail.dueOn === "string"
        ? words.reminderLine(String(detail.action ?? ""), detail.dueOn)
        : event.kind === "build-page"
          ? words.buildPageLine(String(detail.action ?? ""))
          : event.kind === "customer" && Array.isArray(detail.spam)
            ? words.customerSpam(detail.spam.map(String).join("; "))
            : event.kind === "reply"
              ? words.replyLine(mails[String(detail.mailId)] ?? "pending")
              : event.kind === "acknowledgement"
                ? words.acknowledgementLine(mails[String(detail.mailId)] ?? "pending")
                : words[event.kind];
  const at = new Date(event.at);
  return (
    <li className="border-l-2 border-night-600 pb-4 pl-4">
      <p className="text-sm text-bone-300">
        <time dateTime={at.toISOString()}>{absoluteTime(at)}</time>
        {/* The customer's answers and the site's own lines (a reminder sent) have no operator to name. */}
        {event.actor === "customer" || event.actor === "site" ? null : ` · ${words.by(event.actor)}`}
      </p>
      <p className="font-medium text-bone-50">{heading}</p>
      {event.body ? (
        <div className="mt-1 whitespace-pre-wrap break-words rounded-md bg-night-950 p-3 text-bone-100">
          {event.body}
        </div>
      ) : null}
    </li>
  );
}

/** The enquiry's life, oldest first: when it arrived, then every stage change, note, reply and answer. */
export function Timeline({
  receivedAt,
  events,
  currency,
  mails = {},
  children,
}: {
  receivedAt: Date;
  events: TimelineEvent[];
  currency: string;
  /** The replies' delivery, shown on their lines. */
  mails?: MailStates;
  /** Forms that add to it (a note), under the lines. */
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby="timeline" className="mt-8">
      <h2 id="timeline" className="font-display text-2xl font-bold text-bone-50">
        {words.heading}
      </h2>
      <ol className="mt-3">
        <li className="border-l-2 border-night-600 pb-4 pl-4">
          <p className="text-sm text-bone-300">
            <time dateTime={receivedAt.toISOString()}>{absoluteTime(receivedAt)}</time>
          </p>
          <p className="font-medium text-bone-50">{words.received}</p>
        </li>
        {events.map((event) => (
          <EventLine key={event.id} event={event} currency={currency} mails={mails} />
        ))}
      </ol>
      {children}
    </section>
  );
}
