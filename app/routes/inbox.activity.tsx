import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Link, useLoaderData } from "@remix-run/react";
import { InboxShell, linkClass } from "~/components/inbox/InboxShell";
import { inboxCopy } from "~/wording/inbox";
import { absoluteTime } from "~/text/time";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { shownToOwner } from "~/owner/shown";

export const meta: MetaFunction = () => [
  { title: `${inboxCopy.activity.title} | ${inboxCopy.title}` },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;

const perPage = 100;

/** Who did what and when: logins, failed logins, exports, erasures, status and operator changes (never message text). */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showActivity);
}

async function showActivity({ request }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const page = Math.max(
    1,
    Math.min(10_000, Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1),
  );
  const entries = await store.listActivity({ limit: perPage + 1, offset: (page - 1) * perPage });
  return data(
    shownToOwner({
      operator: operator.email,
      entries: entries.slice(0, perPage),
      page,
      hasMore: entries.length > perPage,
    }),
    { headers: privateHeaders },
  );
}

export default function InboxActivity() {
  const { operator, entries, page, hasMore } = useLoaderData<typeof loader>();
  return (
    <InboxShell operator={operator}>
      <h1 className="font-display text-3xl font-bold text-bone-50">{inboxCopy.activity.title}</h1>
      {entries.length === 0 ? (
        <p className="mt-4 text-bone-300">{inboxCopy.activity.empty}</p>
      ) : (
        <ol className="mt-4 divide-y divide-night-600 rounded-xl border border-night-600 bg-night-800/70">
          {entries.map((entry) => (
            <li key={entry.id} className="flex flex-wrap gap-x-4 gap-y-1 p-3 text-sm">
              <time dateTime={new Date(entry.at).toISOString()} className="text-bone-300">
                {absoluteTime(new Date(entry.at))}
              </time>
              <span className="break-all font-medium text-bone-50">{entry.actor}</span>
              <span className="text-bone-100">{entry.action}</span>
              {entry.detail ? <span className="break-all text-bone-300">{entry.detail}</span> : null}
              {entry.enquiryId ? (
                <Link to={`/inbox/${entry.enquiryId}`} className={linkClass}>
                  {inboxCopy.activity.enquiry}
                </Link>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      <nav aria-label={inboxCopy.list.pagesLabel} className="mt-6 flex justify-between">
        {page > 1 ? (
          <Link to={page === 2 ? "/inbox/activity" : `/inbox/activity?page=${page - 1}`} className={linkClass}>
            {inboxCopy.list.previous}
          </Link>
        ) : (
          <span />
        )}
        {hasMore ? (
          <Link to={`/inbox/activity?page=${page + 1}`} className={linkClass}>
            {inboxCopy.list.next}
          </Link>
        ) : null}
      </nav>
    </InboxShell>
  );
}
