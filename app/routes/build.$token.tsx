import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { NotFound } from "~/components/NotFound";
import { ResponsivePhoto } from "~/components/ResponsivePhoto";
import { answerBuild, answerMaxLength, buildPageData, lookUpBuild } from "~/enquiry/build-page.server";
import { formTokenField, honeypotField } from "~/enquiry/fields";
import { buildPageCopy } from "~/wording/build-page";
import { contactForm, notFoundPage } from "~/wording";
import { absoluteTime } from "~/text/time";

/**
 * The customer's build page (docs/inbox.md, "The customer's build page"): the build's title, its stages with their
 * dates and the owner's updates with photos, and a form to answer. Private: reached only by its random token, never
 * indexed, never kept by a cache, never in the sitemap. An unknown, revoked or expired token is the site's 404, all
 * three alike; a client guessing too many is answered 429.
 */

/** Sent without scripts (ADR 0042): words, photos and one plain form. */
export const handle = { hydrate: false };

const words = buildPageCopy.page;
const privateHeaders = {
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "same-origin",
};

export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders, errorHeaders }) => {
  const chosen = errorHeaders ?? (actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders);
  const merged = new Headers(chosen);
  for (const [name, value] of Object.entries(privateHeaders)) merged.set(name, value);
  return merged;
};

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [
  { title: page && page.kind === "found" ? words.title(page.business) : notFoundPage.title(page?.business ?? "") },
  { name: "robots", content: "noindex, nofollow" },
  { name: "referrer", content: "same-origin" },
];

/** A client past its misses: answered 429 whatever it asks for, so a hit cannot be told from a miss. */
const tooManyHeaders = (retryAfterSeconds: number) => ({ ...privateHeaders, "Retry-After": String(retryAfterSeconds) });

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const token = params.token ?? "";
  const business = context.site.content.business.name;
  const found = await lookUpBuild(token, context);
  if (found.kind === "throttled")
    return data(
      { kind: "throttled" as const, business },
      { status: 429, headers: tooManyHeaders(found.retryAfterSeconds) },
    );
  if (found.kind === "not-found")
    return data({ kind: "not-found" as const, business }, { status: 404, headers: privateHeaders });
  const page = await buildPageData(token, found.build, context);
  const sent = new URL(request.url).searchParams.get("sent") === "1";
  return data({ kind: "found" as const, business, token, sent, ...page }, { headers: privateHeaders });
}

export async function action({ params, request, context }: ActionFunctionArgs) {
  const token = params.token ?? "";
  const found = await lookUpBuild(token, context);
  if (found.kind !== "found") {
    request.body?.cancel().catch(() => {});
    return data(
      { error: null, message: "" },
      {
        status: found.kind === "throttled" ? 429 : 404,
        headers: found.kind === "throttled" ? tooManyHeaders(found.retryAfterSeconds) : privateHeaders,
      },
    );
  }
  const outcome = await answerBuild(request, found.build, context);
  if (outcome.kind === "sent")
    return redirect(`/build/${token}?sent=1#answer`, { status: 303, headers: privateHeaders });
  return data(
    { error: outcome.error, message: outcome.message },
    {
      status: outcome.status,
      headers: {
        ...privateHeaders,
        ...(outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : {}),
      },
    },
  );
}

export default function BuildPage() {
  const page = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  if (page.kind === "throttled")
    return (
      <section className="mx-auto max-w-3xl px-4 py-24 text-center sm:px-6">
        <p role="alert" className="text-lg text-bone-100">
          {words.tooMany}
        </p>
      </section>
    );
  if (page.kind !== "found") return <NotFound />;
  return (
    <article className="mx-auto max-w-4xl px-4 py-12 sm:px-6 sm:py-16">
      <header>
        <h1 className="break-words font-display text-4xl font-bold text-bone-50 sm:text-5xl">{page.title}</h1>
        <p className="mt-3 text-lg text-bone-300">{words.intro(page.business)}</p>
      </header>
      <section aria-labelledby="build-stages" className="mt-10">
        <h2 id="build-stages" className="font-display text-2xl font-bold text-bone-50">
          {words.stages}
        </h2>
        <ol className="mt-4 grid gap-3 sm:grid-cols-3">
          {page.stages.map((step) => (
            <li
              key={step.stage}
              className={`rounded-xl border p-4 ${step.stage === page.stage ? "border-ember-500 bg-night-800" : "border-night-600 bg-night-800/60"}`}
              aria-current={step.stage === page.stage ? "step" : undefined}
            >
              <p className="font-semibold text-bone-50">{step.name}</p>
              {step.at ? (
                <p className="mt-1 text-sm text-bone-300">
                  <time dateTime={step.at}>{absoluteTime(new Date(step.at))}</time>
                </p>
              ) : null}
            </li>
          ))}
          {page.ahead.map((step) => (
            <li key={step.stage} className="rounded-xl border border-dashed border-night-600 p-4" data-stage-ahead>
              <p className="font-semibold text-bone-300">{step.name}</p>
              <p className="mt-1 text-sm text-bone-300">{words.ahead}</p>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="build-updates" className="mt-12">
        <h2 id="build-updates" className="font-display text-2xl font-bold text-bone-50">
          {words.updates}
        </h2>
        {page.updates.length === 0 ? <p className="mt-3 text-bone-300">{words.noUpdates}</p> : null}
        <ol className="mt-4 grid gap-8">
          {page.updates.map((update) => (
            <li key={update.id} className="rounded-xl border border-night-600 bg-night-800/70 p-5">
              <p className="text-sm text-bone-300">
                <time dateTime={update.at}>{absoluteTime(new Date(update.at))}</time>
              </p>
              {update.body ? (
                <p className="mt-2 whitespace-pre-wrap break-words text-lg text-bone-50">{update.body}</p>
              ) : null}
              {update.photos.length > 0 ? (
                <ul className="mt-4 grid gap-4 sm:grid-cols-2">
                  {update.photos.map((photo, index) => (
                    <li key={index}>
                      {photo.state === "ready" ? (
                        <ResponsivePhoto
                          photo={{ ...photo.photo, alt: words.photoAlt(index + 1, update.photos.length) }}
                          sizes="(min-width: 640px) 430px, calc(100vw - 4.5rem)"
                          lazy
                          className="rounded-lg"
                        />
                      ) : (
                        <p
                          className="flex aspect-[4/3] items-center justify-center rounded-lg border border-dashed border-night-600 bg-night-900 p-4 text-center text-bone-300"
                          data-photo-preparing=""
                        >
                          {words.preparing}
                        </p>
                      )}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
      <section id="answer" aria-labelledby="build-answer" className="mt-12">
        <h2 id="build-answer" className="font-display text-2xl font-bold text-bone-50">
          {words.answerHeading}
        </h2>
        {page.sent && !answer ? (
          <p role="status" className="mt-3 rounded-md border border-ghoul-400/60 bg-night-800 px-4 py-3 text-bone-50">
            {words.sent}
          </p>
        ) : null}
        {answer?.error ? (
          <p role="alert" className="mt-3 rounded-md border border-red-400 bg-night-900 px-4 py-3 text-bone-50">
            {answer.error}
          </p>
        ) : null}
        <form method="post" action={`/build/${page.token}#answer`} className="mt-4 grid gap-4">
          <div>
            <label htmlFor="answer-message" className="block font-semibold text-bone-50">
              {words.answerLabel}
            </label>
            <textarea
              id="answer-message"
              name="message"
              rows={5}
              required
              maxLength={answerMaxLength}
              defaultValue={answer?.message ?? ""}
              className="mt-2 w-full rounded-md border border-night-600 bg-night-950 px-3 py-2 text-bone-50 focus-visible:outline-ember-300"
            />
          </div>
          {/* Bot trap, as on the contact form: hidden from people and assistive technology alike. */}
          <div className="hidden">
            <label htmlFor="answer-honeypot">{contactForm.honeypotLabel}</label>
            <input
              id="answer-honeypot"
              type="text"
              name={honeypotField}
              tabIndex={-1}
              autoComplete="off"
              defaultValue=""
            />
          </div>
          {page.formToken ? <input type="hidden" name={formTokenField} value={page.formToken} /> : null}
          <div>
            <button
              type="submit"
              className="rounded-md bg-ember-500 px-7 py-3 text-lg font-semibold text-night-950 hover:bg-ember-400 focus-visible:outline-offset-4 focus-visible:outline-ember-300"
            >
              {words.send}
            </button>
          </div>
        </form>
      </section>
    </article>
  );
}
