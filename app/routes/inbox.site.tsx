import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Link, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { InboxShell, linkClass } from "~/components/inbox/InboxShell";
import { Notice } from "~/components/inbox/form/Notice";
import { SiteForm } from "~/components/inbox/SiteForm";
import { StaleSeason } from "~/components/inbox/StaleSeason";
import { inboxCopy } from "~/wording/inbox";
import { photosEditorCopy } from "~/wording/photos-editor";
import { siteEditorCopy } from "~/wording/site-editor";
import type { BodyCap } from "~/http/body-cap";
import { absoluteTime } from "~/text/time";
import { asOperator, requireRecentFactor, type OperatorSession } from "~/owner/gate.server";
import { stepUpReturn } from "~/owner/step-up";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { shownToOwner } from "~/owner/shown";
import { cdnDelayMinutes, staleMessage, staleSeasonYear } from "~/site-content/editor.server";
import { editServices, errorsByField, fromContent, fromForm, toInput, type SiteFormValues } from "~/site-content/form";
import { describeChanges } from "~/site-content/changes";
import { draftContent, publishContent } from "~/site-content/publish.server";
import { projectsWithServices } from "~/site-content/project-edits";
import {
  contentFromJson,
  defaultSiteContent,
  validateSiteContent,
  type FieldErrors,
} from "~/site-content/schema.server";

export const meta: MetaFunction = () => [
  { title: `${siteEditorCopy.title} | ${inboxCopy.title}` },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;

/**
 * The owner's Site page: the draft of the site's content in one form, with Save draft, Preview and Publish.
 * The services' add, remove and move buttons post the form back and show it changed, saving nothing, so they work
 * without JavaScript and keep what was typed. A refused post (a field's problem, or a save from a stale revision) shows
 * the form again as typed.
 */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showSite);
}

function doneNotice(url: URL): string | null {
  const version = Number.parseInt(url.searchParams.get("version") ?? "", 10);
  const done = siteEditorCopy.done;
  switch (url.searchParams.get("done")) {
    case "saved":
      return done.saved;
    case "unchanged":
      return done.unchanged;
    case "published":
      return Number.isSafeInteger(version) ? done.published(version, cdnDelayMinutes()) : null;
    default:
      return null;
  }
}

async function showSite({ request, context }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const [{ content, revision }, draft, published] = await Promise.all([
    draftContent(store),
    store.siteDraft(),
    store.publishedSite(),
  ]);
  const live = published ? contentFromJson(published.content) : defaultSiteContent;
  return data(
    shownToOwner({
      operator: operator.email,
      values: fromContent(content),
      revision,
      published: published
        ? { version: published.number, at: absoluteTime(published.publishedAt), by: published.publishedBy }
        : null,
      saved: draft.savedAt && draft.savedBy ? { at: absoluteTime(draft.savedAt), by: draft.savedBy } : null,
      pending: describeChanges(live, content),
      notice: doneNotice(new URL(request.url)),
      staleSeason: staleSeasonYear(context),
      timeZone: context.services.config.timeZone,
      cdnMinutes: cdnDelayMinutes(),
      mailConfigured: Boolean(context.services.config.notify?.email),
    }),
    { headers: privateHeaders },
  );
}

/** What a post that does not leave the page shows: the form as typed, and why it is back. */
interface Returned {
  values: SiteFormValues;
  revision: number;
  /** A new one each time, so the form is drawn afresh from these values (JavaScript keeps the old inputs otherwise). */
  formKey: string;
  errors: FieldErrors | null;
  refusal: string | null;
  note: string | null;
}

/**
 * Every field of the site's content at its limit, in any script (a character can take 12 bytes form-encoded), fits.
 */
export const bodyCap: BodyCap = { maxBytes: 256 * 1024 };

export async function action(args: ActionFunctionArgs) {
  return asOperator(args, editSite);
}

async function editSite({ request, context }: ActionFunctionArgs, session: OperatorSession) {
  const { operator, store } = session;
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "save");
  const values = fromForm(form);
  const posted = form.get("revision");
  // No revision, or not a number (a hand-made post), is never the draft's: it is refused as stale, with the current
  // one to save again. (Number() would read a missing or empty one as 0, a fresh site's revision.)
  const revision = typeof posted === "string" && /^\d{1,15}$/.test(posted) ? Number(posted) : -1;
  const back = (returned: Partial<Returned>, status: number) =>
    data(
      shownToOwner({
        values,
        revision,
        formKey: crypto.randomUUID(),
        errors: null,
        refusal: null,
        note: null,
        ...returned,
      }),
      { status, headers: privateHeaders },
    );

  const services = editServices(values.services, intent);
  if (services) return back({ values: { ...values, services }, note: siteEditorCopy.serviceEdited }, 200);
  if (!["save", "preview", "publish"].includes(intent))
    return back({ refusal: siteEditorCopy.errors.unknownAction }, 400);

  // The photos and projects are edited on their own pages: the draft's stay as they are (a stale revision is refused
  // below anyway); a renamed service is renamed on its projects too.
  const { content: draft } = await draftContent(store);
  const input = toInput(values) as { services: { name: string }[] };
  const projects = projectsWithServices(draft, input.services);
  const checked = validateSiteContent({ ...input, photos: draft.photos, projects });
  if (!checked.ok) return back({ errors: errorsByField(checked.errors) }, 400);
  const stale = (draft: Parameters<typeof staleMessage>[0]) =>
    back({ revision: draft.revision, refusal: staleMessage(draft) }, 409);

  if (intent === "publish") {
    // Publishing changes the public site: the second factor again when the last one is over 10 minutes old. Nothing
    // typed is lost: the draft is saved first (as Save draft does), and the code page comes back here with it.
    const askedForFactor = await requireRecentFactor(session, stepUpReturn.publish).then(
      () => null,
      (thrown: unknown) => {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      },
    );
    if (askedForFactor) {
      const saved = await store.saveSiteDraft(JSON.stringify(checked.content), revision, operator.email);
      if (!saved.ok) return stale(saved.draft);
      return askedForFactor;
    }
    const result = await publishContent(store, checked.content, revision, operator.email);
    if (result.ok) {
      await context.services.sitePublished();
      context.services.wakePhotoEncoder();
      return redirect(`/inbox/site?done=published&version=${result.version}`, { status: 303, headers: privateHeaders });
    }
    if (result.reason === "stale") return stale(result.draft);
    return redirect("/inbox/site?done=unchanged", { status: 303, headers: privateHeaders });
  }
  const saved = await store.saveSiteDraft(JSON.stringify(checked.content), revision, operator.email);
  if (!saved.ok) return stale(saved.draft);
  return redirect(intent === "preview" ? "/?preview" : "/inbox/site?done=saved", {
    status: 303,
    headers: privateHeaders,
  });
}

export default function InboxSite() {
  const page = useLoaderData<typeof loader>();
  const returned = useActionData<typeof action>();
  const words = siteEditorCopy;
  return (
    <InboxShell operator={page.operator}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-2">
        <h1 className="font-display text-3xl font-bold text-bone-50">{words.title}</h1>
        <p className="flex flex-wrap gap-x-6 gap-y-1">
          <Link to="/inbox/site/photos" className={linkClass}>
            {photosEditorCopy.link}
          </Link>
          <Link to="/inbox/site/history" className={linkClass}>
            {words.historyLink}
          </Link>
        </p>
      </div>
      <p className="mt-1 max-w-3xl text-bone-300">{words.intro}</p>
      <div className="mt-4">
        <Notice>{returned ? null : page.notice}</Notice>
        <StaleSeason year={page.staleSeason} link={false} />
      </div>
      <section className="rounded-xl border border-night-600 bg-night-800/70 p-4 text-sm text-bone-100">
        <p>
          {page.published
            ? words.published.version(page.published.version, page.published.at, page.published.by)
            : words.published.none}
          {page.saved ? ` ${words.draft.saved(page.saved.at, page.saved.by)}` : null}
        </p>
        {page.pending.length === 0 ? (
          <p className="mt-2 text-bone-300">{words.draft.same}</p>
        ) : (
          <>
            <p className="mt-2">{words.draft.pending(page.pending.length)}</p>
            <ul className="mt-1 list-disc space-y-1 pl-5 text-bone-300">
              {page.pending.map((change, index) => (
                <li key={index}>
                  {/* An event (a project added) has no "before": ‘Project “Reaper”: added’. */}
                  <span className="text-bone-100">{change.label}:</span>{" "}
                  {change.before === "" ? change.after : `${change.before} → ${change.after}`}
                </li>
              ))}
            </ul>
          </>
        )}
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
          <span>{words.previewLinks}</span>
          {words.previewPages.map((link) => (
            <a key={link.to} href={link.to} className={linkClass}>
              {link.label}
            </a>
          ))}
        </p>
      </section>
      <SiteForm
        key={`${returned?.revision ?? page.revision}-${returned?.formKey ?? ""}`}
        values={returned?.values ?? page.values}
        revision={returned?.revision ?? page.revision}
        errors={returned?.errors ?? null}
        refusal={returned?.refusal ?? null}
        note={returned?.note ?? null}
        timeZone={page.timeZone}
        cdnMinutes={page.cdnMinutes}
        mailConfigured={page.mailConfigured}
      />
    </InboxShell>
  );
}
