import { errorInWords, timeAgo } from "~/owner/format";
import type { ShownMail } from "~/owner/replies";
import { absoluteTime } from "~/text/time";
import { repliesCopy } from "~/wording/replies";

const words = repliesCopy.list;

/** Where one mail is: waiting (with its next attempt), sent (when), or not sent (why). */
function DeliveryLine({ mail, now }: { mail: ShownMail; now: Date }) {
  if (mail.state === "sent" && mail.sentAt) {
    const sentAt = new Date(mail.sentAt);
    return (
      <p className="text-sm text-ghoul-300">
        {words.sent} <time dateTime={mail.sentAt}>{absoluteTime(sentAt)}</time>
      </p>
    );
  }
  if (mail.state === "failed") {
    return (
      <p className="text-sm text-red-300">
        {words.failed} {mail.lastError ? errorInWords(mail.lastError) : null}{" "}
        {mail.lastError ? <span className="break-words text-bone-300">({mail.lastError})</span> : null}
      </p>
    );
  }
  const next = mail.nextAttemptAt ? new Date(mail.nextAttemptAt) : null;
  return (
    <div className="text-sm text-bone-100">
      <p>
        {words.pending}
        {next && mail.attempts > 0 ? (
          <>
            {" "}
            · {words.nextAttempt} <time dateTime={mail.nextAttemptAt!}>{absoluteTime(next)}</time> ({timeAgo(next, now)}
            ) · {words.attempts(mail.attempts)}
          </>
        ) : null}
      </p>
      {mail.lastError ? (
        <p className="text-bone-300">
          {words.lastError} {errorInWords(mail.lastError)} <span className="break-words">({mail.lastError})</span>
        </p>
      ) : null}
    </div>
  );
}

/**
 * The mails sent to the customer about this enquiry (replies, build updates), oldest first, each with its words and
 * its delivery. Self-contained: a timeline can show it as it is, or render its entries one by one.
 */
export function RepliesList({ mails, now }: { mails: readonly ShownMail[]; now: string }) {
  if (mails.length === 0) return null;
  return (
    <section aria-labelledby="replies" className="mt-8">
      <h2 id="replies" className="font-display text-2xl font-bold text-bone-50">
        {words.heading}
      </h2>
      <ol className="mt-3 grid gap-4">
        {mails.map((mail) => (
          <ReplyEntry key={mail.id} mail={mail} now={new Date(now)} />
        ))}
      </ol>
    </section>
  );
}

/** One mail of the list: a timeline may render these among its own lines. */
export function ReplyEntry({ mail, now }: { mail: ShownMail; now: Date }) {
  const createdAt = new Date(mail.createdAt);
  return (
    <li className="rounded-xl border border-night-600 bg-night-800/70 p-4" data-mail-state={mail.state}>
      <p className="text-sm text-bone-300">
        {words[mail.kind]} · <time dateTime={mail.createdAt}>{absoluteTime(createdAt)}</time>
      </p>
      <h3 className="mt-1 break-words text-lg font-semibold text-bone-50">{mail.subject}</h3>
      <div className="mt-2 whitespace-pre-wrap break-words rounded-md bg-night-950 p-3 text-bone-50">{mail.body}</div>
      <div className="mt-2">
        <DeliveryLine mail={mail} now={now} />
      </div>
    </li>
  );
}
