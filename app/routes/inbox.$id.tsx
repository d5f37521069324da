import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { channelName, stateName } from "~/owner/delivery";
import { errorInWords, timeAgo } from "~/owner/format";
import { absoluteTime } from "~/text/time";
import { buttonClass, dangerButtonClass, InboxShell, linkClass, quietButtonClass } from "~/components/inbox/InboxShell";
import { ButtonForm } from "~/components/inbox/form/ButtonForm";
import { Notice } from "~/components/inbox/form/Notice";
import { inboxCopy } from "~/wording/inbox";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { ownerDecides } from "~/enquiry/spam-decisions.server";
import { currentRequestId } from "~/log.server";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { shownToOwner } from "~/owner/shown";
import { type Channel, channels, type SpamVerdictName } from "~/store/records";
import { projectAddress, projectForId } from "~/enquiry/about.server";
import { NoteForm, StageForm } from "~/components/inbox/PipelineForms";
import { Timeline } from "~/components/inbox/Timeline";
import { addNoteForm, saveStageForm, type PipelineRefusal } from "~/owner/pipeline-actions.server";
import { formatAmount } from "~/owner/money";
import { isWaiting } from "~/store/pipeline.types";
import { pipelineCopy } from "~/wording/pipeline";
import { replyBodyCap, replyPanel, sendReply } from "~/owner/replies.server";
import { ReplyPanel } from "~/components/inbox/replies/ReplyForm";
import { ReminderForm } from "~/components/inbox/ReminderForm";
import { isReminderIntent, reminderAction, remindersShown } from "~/owner/reminders.server";
import { BuildPageSection } from "~/components/inbox/BuildPageSection";
import {
  buildPageAction,
  buildPageSection,
  isBuildIntent,
  updateMaxLength,
  updatePhotosMax,
} from "~/owner/build-page.server";

export const meta: MetaFunction = () => [
  { title: `${inboxCopy.enquiry.title} | ${inboxCopy.title}` },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;
export const bodyCap = replyBodyCap;

const notFound = () => new Response(null, { status: 404, headers: privateHeaders });

export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showEnquiry);
}

async function showEnquiry({ request, params, context }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const id = params.id ?? "";
  const enquiry = await store.getEnquiry(id);
  if (!enquiry) throw notFound();
  const resendable = [...new Set([...context.services.channels(), ...enquiry.notifications.map((n) => n.channel)])];
  // The project it was sent about, as it was named then; its page at the project's address now while it is still
  // published (renamed since: the new one), else the address it had.
  const asked = enquiry.about;
  const current = asked ? projectForId(context.site.content.projects, asked.projectId) : undefined;
  const about = asked ? { title: asked.title, href: projectAddress(null, current?.slug ?? asked.slug) } : null;
  const site = context.site.content;
  return data(
    shownToOwner({
      operator: operator.email,
      enquiry,
      timeline: await store.timeline(id),
      currency: site.business.currency,
      services: site.services.map((service) => service.name),
      about,
      resendable,
      replies: await replyPanel(store, enquiry, context.services.config, context.site.content.business.name),
      now: new Date(),
      done: new URL(request.url).searchParams.get("done"),
      reminders: await remindersShown(store, id, context.services.config),
      build: await buildPageSection(store, id, enquiry.commission.stage, {
        publicUrl: context.services.config.publicUrl,
        canEmail: Boolean(context.services.config.notify?.email),
      }),
    }),
    { headers: privateHeaders },
  );
}

/**
 * Open (the list's entries: it becomes read), Mark handled / as new / as spam / not spam, and Resend: plain forms,
 * each answered with a redirect to the page (post/redirect/get). The page's own GET changes nothing.
 */
export async function action(args: ActionFunctionArgs) {
  return asOperator(args, changeEnquiry);
}

async function changeEnquiry({ request, params, context }: ActionFunctionArgs, session: OperatorSession) {
  const { operator, store } = session;
  const id = params.id ?? "";
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const log = (action: string, detail: string | null = null) =>
    store.logActivity({ actor: operator.email, action, enquiryId: id, detail });
  const back = (done: string) => redirect(`/inbox/${encodeURIComponent(id)}?done=${done}`, { headers: privateHeaders });
  if (intent === "stage") return saveStageForm(id, form, { store, actor: operator.email, site: context.site.content });
  if (intent === "note") return addNoteForm(id, form, { store, actor: operator.email });

  if (intent === "open") {
    await store.markRead(id, operator.email);
    return redirect(`/inbox/${encodeURIComponent(id)}`, { status: 303, headers: privateHeaders });
  }
  if (intent === "handled" || intent === "new") {
    if ((await store.setStatus(id, intent, operator.email)) === null) throw notFound();
    // Back to the list after "Mark as new": the owner put it aside for later.
    return intent === "new" ? redirect("/inbox", { headers: privateHeaders }) : back(intent);
  }
  if (intent === "spam" || intent === "not-spam") {
    // The store writes the activity entry and trains the spam model in the same transaction as the status change;
    // "not spam" on one kept aside creates its notifications (once).
    const before = await ownerDecides(store, id, intent, context.services.channels(), operator.email);
    if (before === null) throw notFound();
    if (intent === "not-spam" && before === "spam") {
      context.services.wakeOutbox();
      // New again, and read: the owner is looking at it.
      await store.markRead(id, operator.email);
    }
    return back(intent);
  }
  if (intent === "reply")
    return sendReply(form, { enquiryId: id, actor: operator.email, store, services: context.services });
  if (isBuildIntent(intent)) {
    const answer = await buildPageAction(intent, id, session);
    if ("notFound" in answer) throw notFound();
    if ("error" in answer) return data({ error: answer.error }, { status: answer.status, headers: privateHeaders });
    return redirect(`/inbox/${encodeURIComponent(id)}?done=${answer.done}#build-page`, { headers: privateHeaders });
  }
  if (intent === "resend") {
    const channel = String(form.get("channel") ?? "");
    if (!(channels as readonly string[]).includes(channel))
      return data({ error: inboxCopy.enquiry.unknownChannel }, { status: 400, headers: privateHeaders });
    if (!(await store.resend(id, channel as Channel, new Date(), currentRequestId()))) throw notFound();
    context.services.wakeOutbox();
    await log("resend", channel);
    return back("resend");
  }
  if (isReminderIntent(intent))
    return reminderAction({ form, intent, enquiryId: id, actor: operator.email, store, services: context.services });
  return data({ error: inboxCopy.enquiry.unknownAction }, { status: 400, headers: privateHeaders });
}

const labels = inboxCopy.delivery.labels;

/** What the spam filter said and why, and what the owner decided: shown whenever there is anything to say. */
function SpamVerdict({
  enquiry,
}: {
  enquiry: {
    spamVerdict: SpamVerdictName;
    spamScore: number | null;
    spamReasons: string[];
    spamDecision: string | null;
  };
}) {
  const words = inboxCopy.enquiry.spam;
  if (enquiry.spamVerdict === "none" && enquiry.spamDecision === null) return null;
  return (
    <div className="mt-3 rounded-md border border-ember-500/60 bg-night-950 p-3 text-sm text-bone-100">
      {enquiry.spamVerdict === "none" ? null : (
        <p>
          <span className="font-semibold">{words.verdict(enquiry.spamVerdict, enquiry.spamScore)}</span>
          {enquiry.spamReasons.length > 0 ? ` ${words.because(enquiry.spamReasons.join("; "))}` : null}
        </p>
      )}
      {enquiry.spamDecision === null ? null : <p>{words.decided(enquiry.spamDecision)}</p>}
    </div>
  );
}

export default function InboxEnquiry() {
  const { operator, enquiry, timeline, currency, services, about, resendable, replies, reminders, build, now, done } =
    useLoaderData<typeof loader>();
  const refused = useActionData<PipelineRefusal>();
  const refusal = useActionData<typeof action>();
  const handled = enquiry.status === "handled";
  const spam = enquiry.status === "spam";
  const receivedAt = new Date(enquiry.receivedAt);
  const commission = {
    ...enquiry.commission,
    stageAt: enquiry.commission.stageAt ? new Date(enquiry.commission.stageAt) : null,
    customerAt: new Date(enquiry.commission.customerAt),
    answeredAt: enquiry.commission.answeredAt ? new Date(enquiry.commission.answeredAt) : null,
    firstReplyAt: enquiry.commission.firstReplyAt ? new Date(enquiry.commission.firstReplyAt) : null,
    deliveredAt: enquiry.commission.deliveredAt ? new Date(enquiry.commission.deliveredAt) : null,
  };
  const waiting = !spam && isWaiting(commission);
  return (
    <InboxShell operator={operator}>
      <p>
        <Link to="/inbox" className={linkClass}>
          {inboxCopy.enquiry.back}
        </Link>
      </p>
      <div className="mt-4">
        <Notice>{done && !done.startsWith("build-") ? inboxCopy.enquiry.done[done] : null}</Notice>
      </div>
      <article className="rounded-xl border border-night-600 bg-night-800/70 p-5 sm:p-6">
        <header>
          <h1 className="break-words font-display text-3xl font-bold text-bone-50">{enquiry.name}</h1>
          <p className="mt-1 break-all text-bone-100">{enquiry.email}</p>
          <p className="mt-1 text-sm text-bone-300">
            <time dateTime={receivedAt.toISOString()}>{absoluteTime(receivedAt)}</time> ·{" "}
            {timeAgo(receivedAt, new Date(now))} · {inboxCopy.enquiry.status}{" "}
            <span className="font-medium text-bone-100">{enquiry.status}</span>
            {spam ? null : (
              <>
                {` · ${pipelineCopy.stageLine} `}
                <span className="font-medium text-bone-100">{pipelineCopy.stages[commission.stage]}</span>
                {commission.quoteAmount === null ? null : ` · ${formatAmount(commission.quoteAmount, currency)}`}
              </>
            )}
          </p>
          {waiting ? (
            <p className="mt-2 inline-block rounded-md border border-ember-400 px-2 py-0.5 text-sm font-semibold text-ember-300">
              {pipelineCopy.waitingBadge}
            </p>
          ) : null}
          {about ? (
            <p className="mt-1 text-bone-100">
              {inboxCopy.enquiry.about}{" "}
              <a href={about.href} className={linkClass}>
                {about.title}
              </a>
            </p>
          ) : null}
          <SpamVerdict enquiry={enquiry} />
        </header>
        <div className="mt-5 whitespace-pre-wrap break-words rounded-md bg-night-950 p-4 text-bone-50">
          {enquiry.message}
        </div>
        <div className="mt-5 flex flex-wrap gap-3">
          {/* To the Reply form below (or, without e-mail set up, its mail-program link). */}
          <a href="#reply" className={buttonClass}>
            {inboxCopy.enquiry.reply}
          </a>
          <ButtonForm fields={{ intent: handled ? "new" : "handled" }} buttonClassName={quietButtonClass}>
            {handled ? inboxCopy.enquiry.markNew : inboxCopy.enquiry.markHandled}
          </ButtonForm>
          {spam ? null : (
            <ButtonForm fields={{ intent: "spam" }} buttonClassName={quietButtonClass}>
              {inboxCopy.enquiry.markSpam}
            </ButtonForm>
          )}
          {/* Also for possible spam: the owner's "this one is real" teaches the filter. */}
          {spam || enquiry.spamVerdict !== "none" ? (
            <ButtonForm fields={{ intent: "not-spam" }} buttonClassName={quietButtonClass}>
              {inboxCopy.enquiry.notSpam}
            </ButtonForm>
          ) : null}
          <Form method="get" action={`/inbox/${enquiry.id}/erase`}>
            <button type="submit" className={dangerButtonClass}>
              {inboxCopy.enquiry.erase}
            </button>
          </Form>
        </div>
      </article>
      <ReplyPanel enquiryId={enquiry.id} panel={replies} />
      {spam ? null : (
        <StageForm
          commission={commission}
          currency={currency}
          services={services}
          refusal={refused?.form === "stage" ? refused : null}
        />
      )}
      <Timeline
        receivedAt={receivedAt}
        events={timeline.map((event) => ({ ...event, at: new Date(event.at) }))}
        currency={currency}
        mails={Object.fromEntries(replies.mails.map((mail) => [mail.id, mail.state]))}
      >
        <NoteForm refusal={refused?.form === "note" ? refused : null} />
      </Timeline>
      <ReminderForm reminders={reminders} />
      <section aria-labelledby="delivery" className="mt-8">
        <h2 id="delivery" className="font-display text-2xl font-bold text-bone-50">
          {inboxCopy.enquiry.delivery}
        </h2>
        {resendable.length === 0 ? <p className="mt-2 text-bone-300">{inboxCopy.enquiry.noDelivery}</p> : null}
        <ul className="mt-3 grid gap-4 md:grid-cols-2">
          {resendable.map((channel) => {
            const step = enquiry.notifications.find((n) => n.channel === channel);
            const name = channelName(channel);
            return (
              <li key={channel} className="rounded-xl border border-night-600 bg-night-800/70 p-4">
                <h3 className="text-lg font-semibold text-bone-50">{name}</h3>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-bone-300">{labels.state}</dt>
                  <dd className="text-bone-50">{step ? stateName(step.state) : inboxCopy.delivery.notSetUp}</dd>
                  <dt className="text-bone-300">{labels.attempts}</dt>
                  <dd className="text-bone-50">{step?.attempts ?? 0}</dd>
                  {step?.sentAt ? (
                    <>
                      <dt className="text-bone-300">{labels.sent}</dt>
                      <dd className="text-bone-50">{absoluteTime(new Date(step.sentAt))}</dd>
                    </>
                  ) : null}
                  {step?.lastError && step.state !== "sent" ? (
                    <>
                      <dt className="text-bone-300">{labels.lastError}</dt>
                      <dd className="text-bone-50">
                        {errorInWords(step.lastError)}{" "}
                        <span className="break-words text-bone-300">({step.lastError})</span>
                      </dd>
                    </>
                  ) : null}
                  {step?.nextAttemptAt ? (
                    <>
                      <dt className="text-bone-300">{labels.nextAttempt}</dt>
                      <dd className="text-bone-50">
                        {absoluteTime(new Date(step.nextAttemptAt))} (
                        {timeAgo(new Date(step.nextAttemptAt), new Date(now))})
                      </dd>
                    </>
                  ) : null}
                </dl>
                <ButtonForm
                  fields={{ intent: "resend", channel }}
                  className="mt-3"
                  buttonClassName={quietButtonClass}
                  label={`${inboxCopy.enquiry.resend} (${name})`}
                >
                  {inboxCopy.enquiry.resend}
                </ButtonForm>
              </li>
            );
          })}
        </ul>
      </section>
      <BuildPageSection
        enquiryId={enquiry.id}
        {...build}
        done={done}
        error={refusal && "error" in refusal ? refusal.error : null}
        photosMax={updatePhotosMax}
        textMax={updateMaxLength}
      />
    </InboxShell>
  );
}
