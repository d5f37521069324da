import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { signature } from "~/notify/sender";
import { data, Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { AutoRefresh } from "~/components/inbox/AutoRefresh";
import { ErrorSummary } from "~/components/inbox/form/ErrorSummary";
import { Notice } from "~/components/inbox/form/Notice";
import { TextField } from "~/components/inbox/form/TextField";
import { buttonClass, InboxShell, linkClass, quietButtonClass } from "~/components/inbox/InboxShell";
import { asOperator, requireRecentFactor, type OperatorSession } from "~/owner/gate.server";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import {
  readWaitlistPlace,
  waitlistPages,
  waitlistPageSize,
  waitlistPlaceQuery,
  waitlistStates,
  type WaitlistPlace,
} from "~/owner/query";
import { shownToOwner } from "~/owner/shown";
import { stepUpReturn } from "~/owner/step-up";
import {
  announceAction,
  announcementState,
  seasonWords,
  type AnnouncementRefusal,
  type AnnouncementWords,
} from "~/site-content/waitlist-page.server";
import { absoluteTime } from "~/text/time";
import { inboxCopy } from "~/wording/inbox";
import { announcementLimits, waitlistOwnerCopy } from "~/wording/waitlist-owner";

export const meta: MetaFunction = () => [
  { title: `${waitlistOwnerCopy.title} | ${inboxCopy.title}` },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;

const copy = waitlistOwnerCopy;

/**
 * The Waitlist page (docs/inbox.md, "Waitlist"): the counts, the addresses with their dates a page at a time (like the
 * inbox: `?page=`, and `?state=` for one state), Download CSV, Erase per address, and the season's announcement:
 * offered once a publish opened orders, previewed, sent behind step-up, and its progress ("120 of 340 sent") while
 * the list's sender works through it. Every part is a plain form or link.
 */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showWaitlist);
}

async function showWaitlist({ request, context }: LoaderFunctionArgs, session: OperatorSession) {
  const { operator, store } = session;
  const url = new URL(request.url);
  const place = readWaitlistPlace(url);
  const state = await announcementState(store, context);
  // The totals first: a page past the end is answered in words without reading the table (no long OFFSET).
  const total =
    place.state === "all"
      ? state.counts.pending + state.counts.confirmed + state.counts.unsubscribed
      : state.counts[place.state];
  const pages = waitlistPages(total);
  const pastEnd = place.page > pages;
  const { entries, hasMore } = pastEnd
    ? { entries: [], hasMore: false }
    : await store.waitlistPage(
        { state: place.state },
        { limit: waitlistPageSize, offset: (place.page - 1) * waitlistPageSize },
      );
  // The form is opened after step-up (not only at Send): what the owner types is not lost to the code page.
  const announcing = url.searchParams.get("announce") === "1" && state.offer;
  if (announcing) await requireRecentFactor(session, stepUpReturn.announce);
  const progress = state.progress;
  return data(
    shownToOwner({
      operator: operator.email,
      counts: state.counts,
      place,
      total,
      pages,
      pastEnd,
      hasMore,
      first: (place.page - 1) * waitlistPageSize + 1,
      year: state.year,
      open: state.open,
      offer: state.offer,
      announcing,
      words: seasonWords(context.site.content, context.services.config.publicUrl),
      canSend: state.canSend,
      progress: progress
        ? {
            season: progress.season,
            createdBy: progress.createdBy,
            createdAt: progress.createdAt,
            total: progress.total,
            sent: progress.sent,
            failed: progress.failed,
            pending: progress.pending,
          }
        : null,
      entries: entries.map((entry) => ({
        id: entry.id,
        email: entry.email,
        state: entry.state,
        createdAt: entry.createdAt,
        confirmedAt: entry.confirmedAt,
        unsubscribedAt: entry.unsubscribedAt,
      })),
    }),
    // A page that is not there says so, with the way back, as a 404 (the owner's whole page around it).
    { status: pastEnd ? 404 : 200, headers: privateHeaders },
  );
}

/** Preview and Send announcement (the default body cap holds the longest words: 4,150 characters, 12 bytes each). */
export async function action(args: ActionFunctionArgs) {
  return asOperator(args, async ({ request, context }, session) => {
    const form = await request.formData();
    const intent = String(form.get("intent") ?? "");
    if (intent === "preview" || intent === "send") {
      const sender = { business: context.site.content.business, siteUrl: context.services.config.publicUrl };
      return announceAction(intent, form, session, context, signature(sender));
    }
    return data(
      { announce: { subject: "", message: "", problems: [{ field: null, text: copy.announce.unknownAction }] } },
      { status: 400, headers: privateHeaders },
    );
  });
}

type Answer = { announce?: AnnouncementWords & { problems?: AnnouncementRefusal["problems"]; preview?: Preview } };
interface Preview {
  subject: string;
  text: string;
  people: number;
}

const day = (value: Date | string | null) => (value ? absoluteTime(new Date(value)) : "");

export default function Waitlist() {
  const page = useLoaderData<typeof loader>();
  const answer = (useActionData() as Answer | undefined)?.announce;
  const [search] = useSearchParams();
  const erased = search.get("erased");
  const { counts, progress, place } = page;
  return (
    <InboxShell operator={page.operator}>
      <h1 className="font-display text-3xl font-bold text-bone-50">{copy.title}</h1>
      <p className="mt-3 max-w-2xl text-bone-100">{copy.intro}</p>
      <Notice className="mt-4">{erased === "1" ? copy.erased : null}</Notice>
      <Notice tone="info" className="mt-4">
        {erased === "0" ? copy.notErased : null}
      </Notice>
      <dl aria-label={copy.counts.label} className="mt-6 flex flex-wrap gap-3">
        {(["pending", "confirmed", "unsubscribed"] as const).map((state) => (
          <div key={state} className="flex items-baseline gap-2 rounded-md border border-night-600 px-4 py-2">
            <dt className="text-bone-300">{copy.counts[state]}</dt>
            <dd className="text-xl font-semibold tabular-nums text-bone-50" data-count={state}>
              {copy.counts.number(counts[state])}
            </dd>
          </div>
        ))}
      </dl>

      <section aria-labelledby="announce" className="mt-8 max-w-2xl">
        <h2 id="announce" className="text-xl font-semibold text-bone-50">
          {progress ? copy.announce.progressHeading(progress.season) : copy.announce.heading}
        </h2>
        {progress ? <Progress progress={progress} done={search.get("done") === "announced"} /> : null}
        {/* A refused Send (already sent, orders closed meanwhile) keeps the words and says why, whatever is offered. */}
        {answer || (!progress && page.offer) ? (
          <Offer page={page} answer={answer} />
        ) : progress ? null : (
          <p className="mt-2 text-bone-100">
            {!page.open
              ? copy.announce.closed
              : counts.confirmed === 0
                ? copy.announce.nobody(page.year)
                : copy.announce.cannotSend(page.year)}
          </p>
        )}
      </section>

      <section aria-labelledby="addresses" className="mt-10">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="addresses" className="text-xl font-semibold text-bone-50">
            {copy.list.heading}
          </h2>
          <a href="/inbox/waitlist.csv" className={quietButtonClass}>
            {copy.list.download}
          </a>
        </div>
        <nav aria-label={copy.list.showLabel} className="mt-4">
          <ul className="flex flex-wrap gap-2">
            {(["all", ...waitlistStates] as const).map((state) => (
              <li key={state}>
                <Link
                  to={`/inbox/waitlist${waitlistPlaceQuery({ state })}#addresses`}
                  aria-current={state === place.state ? "page" : undefined}
                  className={`block rounded-md border px-3 py-1.5 text-sm ${state === place.state ? "border-ember-400 bg-night-700 text-ember-300" : "border-night-600 text-bone-100 hover:text-ember-300"}`}
                >
                  {state === "all" ? copy.list.all : copy.list.states[state]}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {page.pastEnd ? (
          <p className="mt-4 text-bone-100" data-past-end="">
            {`${copy.list.pastEnd(place.page, page.pages)} `}
            <Link
              to={`/inbox/waitlist${waitlistPlaceQuery({ ...place, page: page.pages })}#addresses`}
              className={linkClass}
            >
              {copy.list.lastPage(page.pages)}
            </Link>
          </p>
        ) : page.entries.length === 0 ? (
          <p className="mt-4 text-bone-300">
            {place.state === "all" ? copy.list.empty : copy.list.emptyState(place.state)}
          </p>
        ) : (
          <ul className="mt-4 divide-y divide-night-600 border-y border-night-600">
            {page.entries.map((entry) => (
              <li key={entry.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="break-all font-medium text-bone-50">{entry.email}</p>
                  <p className="text-sm text-bone-300">
                    <span className="text-bone-100">{copy.list.states[entry.state]}</span>
                    {` · ${copy.list.asked} ${day(entry.createdAt)}`}
                    {entry.confirmedAt ? ` · ${copy.list.confirmed} ${day(entry.confirmedAt)}` : null}
                    {entry.unsubscribedAt ? ` · ${copy.list.unsubscribed} ${day(entry.unsubscribedAt)}` : null}
                  </p>
                </div>
                {/* A form per address: its confirmation page says what goes before anything is deleted, and the
                    erase comes back to this page of the list (a GET form sends its fields, not its action's query). */}
                <Form method="get" action={`/inbox/waitlist/${encodeURIComponent(entry.id)}/erase`}>
                  {place.state !== "all" ? <input type="hidden" name="state" value={place.state} /> : null}
                  {place.page > 1 ? <input type="hidden" name="page" value={place.page} /> : null}
                  <button type="submit" className={quietButtonClass} aria-label={copy.list.eraseLabel(entry.email)}>
                    {copy.list.erase}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        {/* Past the end: only the way back above (a Previous there would lead to another page that is not there). */}
        {page.pastEnd ? null : (
          <Pages
            place={place}
            first={page.first}
            shown={page.entries.length}
            total={page.total}
            hasMore={page.hasMore}
          />
        )}
      </section>
      <AutoRefresh
        active={Boolean(progress && progress.pending > 0)}
        reloadTo={`/inbox/waitlist${waitlistPlaceQuery(place)}`}
      />
    </InboxShell>
  );
}

/** Previous / Next as the inbox's list has them (plain links, the same words), and where this page is in the list. */
function Pages({
  place,
  first,
  shown,
  total,
  hasMore,
}: {
  place: WaitlistPlace;
  first: number;
  shown: number;
  total: number;
  hasMore: boolean;
}) {
  if (place.page === 1 && !hasMore) return null;
  const to = (page: number) => `/inbox/waitlist${waitlistPlaceQuery({ ...place, page })}#addresses`;
  return (
    <nav aria-label={inboxCopy.list.pagesLabel} className="mt-4 flex items-baseline justify-between gap-3">
      {place.page > 1 ? (
        <Link to={to(place.page - 1)} className={linkClass} rel="prev">
          {inboxCopy.list.previous}
        </Link>
      ) : (
        <span />
      )}
      {shown > 0 ? (
        <p className="text-sm tabular-nums text-bone-300" data-showing="">
          {copy.list.showing(first, first + shown - 1, total)}
        </p>
      ) : null}
      {hasMore ? (
        <Link to={to(place.page + 1)} className={linkClass} rel="next">
          {inboxCopy.list.next}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

function Progress({
  progress,
  done,
}: {
  progress: {
    createdBy: string;
    createdAt: string | Date;
    total: number;
    sent: number;
    failed: number;
    pending: number;
  };
  done: boolean;
}) {
  const dropped = progress.total - progress.sent - progress.failed - progress.pending;
  return (
    <div className="mt-2">
      <Notice className="mb-3">{done ? copy.announce.done : null}</Notice>
      <p className="text-2xl font-semibold tabular-nums text-bone-50" data-progress="">
        {copy.announce.progress(progress.sent, progress.total)}
      </p>
      {progress.failed > 0 ? <p className="mt-1 text-red-200">{copy.announce.failed(progress.failed)}</p> : null}
      {dropped > 0 ? <p className="mt-1 text-bone-300">{copy.announce.dropped(dropped)}</p> : null}
      {progress.pending > 0 ? <p className="mt-1 text-sm text-bone-300">{copy.announce.waiting}</p> : null}
      <p className="mt-2 text-sm text-bone-300">
        {copy.announce.sentBy(progress.createdBy, absoluteTime(new Date(progress.createdAt)))}
      </p>
    </div>
  );
}

function Offer({
  page,
  answer,
}: {
  page: { year: number; counts: { confirmed: number }; announcing: boolean; words: AnnouncementWords };
  answer: Answer["announce"];
}) {
  const sending = useNavigation().formData?.get("intent") === "send";
  const people = page.counts.confirmed;
  if (!page.announcing && !answer) {
    return (
      <div className="mt-2">
        <p className="text-bone-100">{copy.announce.offerIntro(page.year)}</p>
        <p className="mt-3">
          <Link to="/inbox/waitlist?announce=1#announce" className={buttonClass}>
            {copy.announce.offer(people)}
          </Link>
        </p>
      </div>
    );
  }
  const problems = answer?.problems ?? [];
  const problemOf = (field: string) => problems.find((problem) => problem.field === field)?.text;
  const words = answer ?? page.words;
  return (
    <div className="mt-2">
      <p className="text-bone-100">{copy.announce.formIntro}</p>
      {answer?.preview ? <PreviewBox preview={answer.preview} /> : null}
      <Form method="post" action="/inbox/waitlist?announce=1" noValidate className="mt-4 grid gap-4">
        <ErrorSummary
          lines={[]}
          problems={problems.map((problem, index) => ({
            key: String(index),
            text: problem.text,
            field: problem.field ?? undefined,
          }))}
          focusKey={JSON.stringify(problems)}
        />
        <TextField
          id="announce-subject"
          name="subject"
          label={copy.announce.subject}
          value={words.subject}
          error={problemOf("announce-subject")}
          maxLength={announcementLimits.subject}
          required
        />
        <TextField
          id="announce-message"
          name="message"
          label={copy.announce.message}
          value={words.message}
          error={problemOf("announce-message")}
          maxLength={announcementLimits.message}
          rows={12}
          required
        />
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" name="intent" value="preview" className={quietButtonClass}>
            {copy.announce.preview}
          </button>
          <button type="submit" name="intent" value="send" className={buttonClass} disabled={sending}>
            {copy.announce.send}
          </button>
          <Link to="/inbox/waitlist" className={linkClass}>
            {copy.announce.cancel}
          </Link>
        </div>
      </Form>
    </div>
  );
}

function PreviewBox({ preview }: { preview: Preview }) {
  return (
    <section aria-labelledby="announce-preview" className="mt-4 rounded-md border border-night-600 bg-night-800 p-4">
      <h3 id="announce-preview" className="font-semibold text-bone-50">
        {copy.announce.previewHeading}
      </h3>
      <p className="mt-1 text-sm text-bone-300">{copy.announce.previewIntro(preview.people)}</p>
      <p className="mt-3 text-bone-100">
        <span className="text-bone-300">{`${copy.announce.previewSubject} `}</span>
        <span className="font-medium">{preview.subject}</span>
      </p>
      <pre className="mt-3 whitespace-pre-wrap font-sans text-bone-100">{preview.text}</pre>
    </section>
  );
}
