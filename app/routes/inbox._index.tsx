import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, useLoaderData } from "@remix-run/react";
import { DeliverySummary } from "~/components/inbox/Delivery";
import { DueToday } from "~/components/inbox/DueToday";
import { dueTodayShown } from "~/owner/reminders.server";
import { StaleSeason } from "~/components/inbox/StaleSeason";
import { InboxShell, linkClass, quietButtonClass } from "~/components/inbox/InboxShell";
import { Field } from "~/components/inbox/form/Field";
import { Notice } from "~/components/inbox/form/Notice";
import { inboxCopy } from "~/wording/inbox";
import { timeAgo } from "~/owner/format";
import { absoluteTime } from "~/text/time";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { pageSize, placeQuery, readPlace } from "~/owner/query";
import { backupNotice } from "~/owner/backup-notice";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { shownToOwner } from "~/owner/shown";
import { staleSeasonYear } from "~/site-content/editor.server";
import { folders } from "~/store/enquiries.types";
import { isWaiting } from "~/store/pipeline.types";
import { pipelineCopy } from "~/wording/pipeline";

export const meta: MetaFunction = () => [{ title: inboxCopy.title }, { name: "robots", content: "noindex, nofollow" }];
export const headers = inboxHeaders;

export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showList);
}

async function showList({ request, context }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const url = new URL(request.url);
  const place = readPlace(url);
  const query = { folder: place.folder, search: place.search };
  const [{ items, hasMore }, counts, waiting] = await Promise.all([
    store.inboxPage(query, { limit: pageSize, offset: (place.page - 1) * pageSize }),
    store.folderCounts(place.search),
    store.waiting(),
  ]);
  const erased = Number.parseInt(url.searchParams.get("erased") ?? "", 10);
  const now = new Date();
  return data(
    shownToOwner({
      operator: operator.email,
      place,
      counts,
      hasMore,
      now,
      // Who is waiting for an answer, on the first page only (the owner's morning glance).
      waiting:
        place.page === 1 && waiting.count > 0 && waiting.oldestSince
          ? pipelineCopy.waiting(waiting.count, now.getTime() - waiting.oldestSince.getTime())
          : null,
      staleSeason: staleSeasonYear(context),
      // A backup that failed or is too old: the owner is the one most likely to see it (server/backups.ts).
      backup: backupNotice(context.services.backupStatus?.(), now),
      erased: Number.isSafeInteger(erased) ? erased : null,
      erasedFromWaitlist: url.searchParams.get("waitlist") === "1",
      // The first page of the list, not a search: the reminders whose day has come.
      dueToday: place.page === 1 && place.search === "" ? await dueTodayShown(store, context.services.config) : null,
      // After an erase: the v1 file that still holds the address, which only the operator can change.
      stillInV1File: url.searchParams.get("v1") === "1" ? context.services.config.inboxFile : null,
      items: items.map((item) => ({
        id: item.id,
        receivedAt: item.receivedAt,
        name: item.name,
        email: item.email,
        firstLine:
          item.message
            .split(/\r?\n/)
            .find((line) => line.trim() !== "")
            ?.slice(0, 160) ?? "",
        status: item.status,
        stage: item.status === "spam" ? null : pipelineCopy.stages[item.commission.stage],
        waiting: item.status !== "spam" && isWaiting(item.commission),
        possibleSpam: item.spamVerdict === "possible" && item.status !== "spam" && item.spamDecision === null,
        notifications: item.notifications.map(({ channel, state }) => ({ channel, state })),
      })),
    }),
    { headers: privateHeaders },
  );
}

export default function InboxList() {
  const {
    operator,
    place,
    counts,
    hasMore,
    now,
    waiting,
    items,
    erased,
    erasedFromWaitlist,
    stillInV1File,
    staleSeason,
    backup,
    dueToday,
  } = useLoaderData<typeof loader>();
  return (
    <InboxShell operator={operator}>
      <h1 className="font-display text-3xl font-bold text-bone-50">{inboxCopy.title}</h1>
      <p className="mt-1 text-bone-300">{inboxCopy.list.counts(counts, place.search !== "")}</p>
      {waiting ? (
        <p className="mt-3 rounded-md border border-ember-400 bg-night-800 px-4 py-3 text-bone-50" data-waiting="">
          {waiting}{" "}
          <Link to="/inbox/pipeline" className={linkClass}>
            {pipelineCopy.waitingLink}
          </Link>
        </p>
      ) : null}
      <div className="mt-4">
        <StaleSeason year={staleSeason} />
        {backup ? (
          <p
            className="mb-4 rounded-md border border-ember-400 bg-night-800 px-4 py-3 text-bone-50"
            data-backup-notice=""
          >
            {backup}
          </p>
        ) : null}
        <Notice>{erased === null ? null : inboxCopy.list.erased(erased, erasedFromWaitlist)}</Notice>
        <Notice>{stillInV1File === null ? null : inboxCopy.erase.stillInV1File(stillInV1File)}</Notice>
      </div>
      {dueToday ? <DueToday items={dueToday.items} today={dueToday.today} /> : null}
      <nav aria-label={inboxCopy.list.foldersLabel} className="mt-2">
        <ul className="flex flex-wrap gap-2">
          {folders.map((folder) => (
            <li key={folder}>
              <Link
                to={`/inbox${placeQuery({ folder, search: place.search })}`}
                aria-current={folder === place.folder ? "page" : undefined}
                className={`block rounded-md border px-3 py-2 ${folder === place.folder ? "border-ember-400 bg-night-700 text-ember-300" : "border-night-600 text-bone-100 hover:text-ember-300"}`}
              >
                {inboxCopy.folders[folder]} ({counts[folder]})
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <Form method="get" role="search" className="flex flex-1 flex-wrap items-end gap-2">
          {place.folder !== "new" ? <input type="hidden" name="folder" value={place.folder} /> : null}
          <Field
            id="inbox-search"
            label={inboxCopy.search.label}
            small
            className="min-w-[14rem] flex-1"
            name="q"
            type="search"
            defaultValue={place.search}
          />
          <button type="submit" className={quietButtonClass}>
            {inboxCopy.search.submit}
          </button>
        </Form>
        <a
          href={`/inbox/export.csv${placeQuery({ folder: place.folder, search: place.search }) || "?folder=new"}`}
          className={quietButtonClass}
        >
          {inboxCopy.list.download}
        </a>
      </div>
      {items.length === 0 ? (
        <p className="mt-8 text-bone-300">{inboxCopy.list.empty}</p>
      ) : (
        <ol className="mt-6 divide-y divide-night-600 rounded-xl border border-night-600 bg-night-800/70">
          {items.map((item) => (
            <li key={item.id} className="p-4">
              <article aria-labelledby={`enquiry-${item.id}`}>
                <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                  <Form method="post" action={`/inbox/${item.id}`}>
                    <input type="hidden" name="intent" value="open" />
                    <h2 id={`enquiry-${item.id}`} className="text-lg font-semibold">
                      {/* A post, as opening marks it read (a GET changes nothing); announced as a link: it opens the page. */}
                      <button type="submit" role="link" className={`${linkClass} text-left`}>
                        {item.name}
                      </button>
                      {item.status === "new" ? (
                        <span className="ml-2 rounded bg-ember-500 px-2 py-0.5 text-xs font-bold uppercase text-night-950">
                          {inboxCopy.list.unread}
                        </span>
                      ) : null}
                      {item.possibleSpam ? (
                        <span className="ml-2 rounded border border-ember-300 px-2 py-0.5 text-xs font-bold uppercase text-ember-300">
                          {inboxCopy.list.possibleSpam}
                        </span>
                      ) : null}
                    </h2>
                  </Form>
                  <p className="text-sm text-bone-300">
                    <time dateTime={new Date(item.receivedAt).toISOString()}>
                      {absoluteTime(new Date(item.receivedAt))}
                    </time>
                    {" · "}
                    {timeAgo(new Date(item.receivedAt), new Date(now))}
                  </p>
                </div>
                <p className="break-all text-sm text-bone-300">{item.email}</p>
                <p className="mt-1 truncate text-bone-100">{item.firstLine}</p>
                <p className="mt-1 text-sm text-bone-300">
                  {item.stage ? `${pipelineCopy.stageLine} ${item.stage}` : null}
                  {item.waiting ? (
                    <span className="ml-2 font-semibold text-ember-300">{pipelineCopy.pipeline.waiting}</span>
                  ) : null}
                  {item.stage ? " · " : null}
                  <DeliverySummary notifications={item.notifications} />
                </p>
              </article>
            </li>
          ))}
        </ol>
      )}
      <nav aria-label={inboxCopy.list.pagesLabel} className="mt-6 flex justify-between">
        {place.page > 1 ? (
          <Link to={`/inbox${placeQuery({ ...place, page: place.page - 1 })}`} className={linkClass} rel="prev">
            {inboxCopy.list.previous}
          </Link>
        ) : (
          <span />
        )}
        {hasMore ? (
          <Link to={`/inbox${placeQuery({ ...place, page: place.page + 1 })}`} className={linkClass} rel="next">
            {inboxCopy.list.next}
          </Link>
        ) : null}
      </nav>
    </InboxShell>
  );
}
