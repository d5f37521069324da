import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Link, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { InboxShell, linkClass, quietButtonClass } from "~/components/inbox/InboxShell";
import { ButtonForm } from "~/components/inbox/form/ButtonForm";
import { Notice } from "~/components/inbox/form/Notice";
import { inboxCopy } from "~/wording/inbox";
import { siteEditorCopy } from "~/wording/site-editor";
import { absoluteTime } from "~/text/time";
import { asOperator, requireRecentFactor, type OperatorSession } from "~/owner/gate.server";
import { stepUpReturn } from "~/owner/step-up";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { shownToOwner } from "~/owner/shown";
import { cdnDelayMinutes, staleMessage } from "~/site-content/editor.server";
import { publishContent } from "~/site-content/publish.server";
import { contentFromJson } from "~/site-content/schema.server";

export const meta: MetaFunction = () => [
  { title: `${siteEditorCopy.history.title} | ${inboxCopy.title}` },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;

const perPage = 50;
const words = siteEditorCopy.history;

/**
 * The published versions, newest first, each with what it changed; Restore publishes an older one again as a new
 * version (through the same publish as the Site page, refused when the draft moved on since this page was opened).
 */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showHistory);
}

async function showHistory({ request }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const url = new URL(request.url);
  const page = Math.max(1, Math.min(100_000, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  const [versions, latest, draft] = await Promise.all([
    store.siteVersions({ limit: perPage + 1, offset: (page - 1) * perPage }),
    store.latestSiteVersion(),
    store.siteDraft(),
  ]);
  const restored = Number.parseInt(url.searchParams.get("restored") ?? "", 10);
  const version = Number.parseInt(url.searchParams.get("version") ?? "", 10);
  const done = siteEditorCopy.done;
  const notice =
    url.searchParams.get("done") === "restored" && Number.isSafeInteger(restored) && Number.isSafeInteger(version)
      ? done.restored(restored, version, cdnDelayMinutes())
      : url.searchParams.get("done") === "unchanged" && Number.isSafeInteger(restored)
        ? done.restoredUnchanged(restored)
        : null;
  return data(
    shownToOwner({
      operator: operator.email,
      versions: versions.slice(0, perPage).map((entry) => ({
        number: entry.number,
        at: absoluteTime(entry.publishedAt),
        atIso: entry.publishedAt.toISOString(),
        by: entry.publishedBy,
        restoredFrom: entry.restoredFrom,
        changes: entry.changes,
      })),
      latest,
      revision: draft.revision,
      page,
      hasMore: versions.length > perPage,
      notice,
    }),
    { headers: privateHeaders },
  );
}

export async function action(args: ActionFunctionArgs) {
  return asOperator(args, restore);
}

async function restore({ request, context }: ActionFunctionArgs, session: OperatorSession) {
  const { operator, store } = session;
  const form = await request.formData();
  const asked = String(form.get("version") ?? "");
  const posted = Number(form.get("revision"));
  const revision = Number.isSafeInteger(posted) && posted >= 0 ? posted : -1;
  const number = /^\d{1,9}$/.test(asked) ? Number(asked) : null;
  const version = number === null ? null : await store.siteVersion(number);
  if (!version) {
    return data(shownToOwner({ refusal: siteEditorCopy.errors.noVersion(asked.slice(0, 20)), revision: null }), {
      status: 404,
      headers: privateHeaders,
    });
  }
  // Publishing changes the public site: the second factor again when the last one is over 10 minutes old.
  await requireRecentFactor(session, stepUpReturn.restore);
  const result = await publishContent(store, contentFromJson(version.content), revision, operator.email, {
    restoredFrom: version.number,
  });
  if (result.ok) {
    await context.services.sitePublished();
    context.services.wakePhotoEncoder();
    return redirect(`/inbox/site/history?done=restored&restored=${version.number}&version=${result.version}`, {
      status: 303,
      headers: privateHeaders,
    });
  }
  if (result.reason === "unchanged") {
    return redirect(`/inbox/site/history?done=unchanged&restored=${version.number}`, {
      status: 303,
      headers: privateHeaders,
    });
  }
  // The draft moved on: say who and when, and carry its revision so a second press restores deliberately.
  return data(shownToOwner({ refusal: staleMessage(result.draft, "restore"), revision: result.draft.revision }), {
    status: 409,
    headers: privateHeaders,
  });
}

export default function SiteHistory() {
  const { operator, versions, latest, revision, page, hasMore, notice } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const formRevision = refused?.revision ?? revision;
  return (
    <InboxShell operator={operator}>
      <p>
        <Link to="/inbox/site" className={linkClass}>
          {words.back}
        </Link>
      </p>
      <h1 className="mt-2 font-display text-3xl font-bold text-bone-50">{words.title}</h1>
      <p className="mt-1 max-w-3xl text-bone-300">{words.intro}</p>
      <div className="mt-4">
        <Notice>{refused ? null : notice}</Notice>
        <Notice tone="error" className="mb-4 font-semibold">
          {refused?.refusal}
        </Notice>
      </div>
      {versions.length === 0 ? (
        <p className="mt-4 text-bone-300">{words.empty}</p>
      ) : (
        <ol className="mt-2 space-y-3">
          {versions.map((version) => (
            <li key={version.number} className="rounded-xl border border-night-600 bg-night-800/70 p-4">
              <article aria-labelledby={`version-${version.number}`}>
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <h2 id={`version-${version.number}`} className="text-lg font-semibold text-bone-50">
                      {words.version(version.number)}
                      {version.number === latest ? (
                        <span className="ml-2 text-sm font-normal text-ghoul-300">({words.current})</span>
                      ) : null}
                    </h2>
                    <p className="text-sm text-bone-300">
                      <time dateTime={version.atIso}>{words.by(version.at, version.by)}</time>
                      {version.restoredFrom !== null ? ` · ${words.restoredFrom(version.restoredFrom)}` : null}
                    </p>
                  </div>
                  {version.number !== latest ? (
                    <ButtonForm
                      fields={{ version: String(version.number), revision: String(formRevision) }}
                      buttonClassName={quietButtonClass}
                      label={words.restoreLabel(version.number)}
                    >
                      {words.restore}
                    </ButtonForm>
                  ) : null}
                </div>
                {version.changes.length === 0 ? (
                  <p className="mt-2 text-sm text-bone-300">{words.noChanges}</p>
                ) : (
                  <ul className="mt-2 space-y-1 text-sm text-bone-100">
                    {version.changes.map((change, index) => (
                      <li key={index}>
                        <span className="font-medium">{change.label}:</span>{" "}
                        {change.before === "" ? null : (
                          <>
                            <span className="text-bone-300">{change.before}</span> →{" "}
                          </>
                        )}
                        <span className="text-bone-50">{change.after}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </article>
            </li>
          ))}
        </ol>
      )}
      <nav aria-label={words.pagesLabel} className="mt-6 flex justify-between">
        {page > 1 ? (
          <Link to={page === 2 ? "/inbox/site/history" : `/inbox/site/history?page=${page - 1}`} className={linkClass}>
            {words.newer}
          </Link>
        ) : (
          <span />
        )}
        {hasMore ? (
          <Link to={`/inbox/site/history?page=${page + 1}`} className={linkClass}>
            {words.older}
          </Link>
        ) : null}
      </nav>
    </InboxShell>
  );
}
