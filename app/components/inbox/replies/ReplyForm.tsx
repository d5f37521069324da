import { Form, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { buttonClass, linkClass } from "~/components/inbox/InboxShell";
import { ErrorSummary } from "~/components/inbox/form/ErrorSummary";
import { Notice } from "~/components/inbox/form/Notice";
import { TextField } from "~/components/inbox/form/TextField";
import type { ReplyPanelData, ReplyRefusal } from "~/owner/replies";
import { replyLimits, repliesCopy } from "~/wording/replies";
import { RepliesList } from "./RepliesList";

/**
 * The enquiry page's Replies part: the mails sent to the customer with their delivery, and the "Reply" form (Subject,
 * Message, "Send reply"), a plain post that works without JavaScript. A refused post shows the form again with what
 * was typed and why; without e-mail set up on the server, words saying so and a mailto: link instead of the form.
 */
export function ReplyPanel({ enquiryId, panel }: { enquiryId: string; panel: ReplyPanelData }) {
  const [search] = useSearchParams();
  const refusal = (useActionData() as { reply?: ReplyRefusal } | undefined)?.reply;
  const sending = useNavigation().formData?.get("intent") === "reply";
  const problemOf = (field: string) => refusal?.problems.find((problem) => problem.field === field)?.text;
  return (
    <>
      <RepliesList mails={panel.mails} now={panel.now} />
      <section aria-labelledby="reply" className="mt-8">
        <h2 id="reply" className="font-display text-2xl font-bold text-bone-50">
          {repliesCopy.heading}
        </h2>
        <Notice className="mt-3">{search.get("done") === "reply" && !refusal ? repliesCopy.done : null}</Notice>
        {panel.canSend ? (
          // A new form after each stored reply (its count is the key): the fields start again from the page's values.
          <Form
            key={panel.mails.length}
            method="post"
            action={`/inbox/${encodeURIComponent(enquiryId)}`}
            noValidate
            className="mt-3 grid max-w-2xl gap-4"
          >
            <input type="hidden" name="intent" value="reply" />
            <p className="break-all text-sm text-bone-300">{repliesCopy.to(panel.to)}</p>
            <ErrorSummary
              lines={refusal ? [repliesCopy.refused] : []}
              problems={(refusal?.problems ?? []).map((problem, index) => ({
                key: String(index),
                text: problem.text,
                field: problem.field ?? undefined,
              }))}
              focusKey={JSON.stringify(refusal?.problems ?? [])}
            />
            <TextField
              id="reply-subject"
              name="subject"
              label={repliesCopy.subjectLabel}
              value={refusal ? refusal.subject : panel.subject}
              error={problemOf("reply-subject")}
              maxLength={replyLimits.subject}
              required
            />
            <TextField
              id="reply-message"
              name="message"
              label={repliesCopy.messageLabel}
              hint={repliesCopy.messageHint}
              value={refusal ? refusal.message : ""}
              error={problemOf("reply-message")}
              maxLength={replyLimits.message}
              rows={10}
              required
            />
            <p>
              <button type="submit" className={buttonClass} disabled={sending}>
                {repliesCopy.send}
              </button>
            </p>
          </Form>
        ) : (
          <div className="mt-3 max-w-2xl">
            {refusal ? <ErrorSummary lines={[repliesCopy.refused, ...refusal.problems.map((p) => p.text)]} /> : null}
            <p className="text-bone-100">{repliesCopy.notSetUp}</p>
            <p className="mt-2">
              <a href={panel.mailto} className={linkClass}>
                {repliesCopy.mailto}
              </a>
            </p>
          </div>
        )}
      </section>
    </>
  );
}
