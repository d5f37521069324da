import type {
  ActionFunctionArgs,
  AppLoadContext,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { data, redirect, useActionData, useLoaderData } from "@remix-run/react";
import type { BodyCap } from "~/http/body-cap";
import { publicSiteFor } from "~/site-content/published-or-preview.server";
import { waitlistFormFor } from "~/enquiry/waitlist-offer.server";
import { joinFromForm } from "~/enquiry/waitlist-join.server";
import { waitlistPage } from "~/wording/waitlist";

/**
 * "Tell me when orders open" (docs/waitlist.md), one route for the list's pages (one entry in the route table every
 * page loads): `/waitlist` takes the form's post and says what happened; `/waitlist/confirm/{token}` shows the Confirm
 * button (a GET confirms nothing: mail scanners follow links) and its POST confirms; `/waitlist/unsubscribe/{token}`
 * shows the Unsubscribe button and its POST unsubscribes, from any site, without cookie or form token (RFC 8058's
 * one-click POST, `List-Unsubscribe=One-Click`). Anything else under /waitlist is the site's 404.
 */

/** Sent without scripts (ADR 0042): words and plain forms. */
export const handle = { hydrate: false };

/** An address and the form's hidden fields, or RFC 8058's one line: a small cap. */
export const bodyCap: BodyCap = { maxBytes: 4 * 1024, fromAnySite: /^\/waitlist\/unsubscribe\/[^/]+\/?$/ };

const privateHeaders = {
  "Cache-Control": "private, no-store",
  "X-Robots-Tag": "noindex, nofollow",
  // The links carry their token: no other site is told the address it was on.
  "Referrer-Policy": "same-origin",
};

export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders, errorHeaders }) => {
  const chosen = errorHeaders ?? (actionHeaders.has("Cache-Control") ? actionHeaders : loaderHeaders);
  const merged = new Headers(chosen);
  for (const [name, value] of Object.entries(privateHeaders)) merged.set(name, value);
  return merged;
};

type Where = { kind: "join" } | { kind: "confirm" | "unsubscribe"; token: string } | { kind: "elsewhere" };

function where(splat: string | undefined): Where {
  const path = (splat ?? "").replace(/\/+$/, "");
  if (path === "") return { kind: "join" };
  const match = /^(confirm|unsubscribe)\/([0-9a-f]{64})$/.exec(path);
  if (match) return { kind: match[1] as "confirm" | "unsubscribe", token: match[2]! };
  // A token of the wrong shape is a link that finds nothing (the same page as an unknown one).
  const shaped = /^(confirm|unsubscribe)\/[^/]+$/.exec(path);
  if (shaped) return { kind: shaped[1] as "confirm" | "unsubscribe", token: "" };
  return { kind: "elsewhere" };
}

/** What a page of the list shows: a heading, words, and a form (its markup made on the server) or a button. */
interface Shown {
  heading: string;
  text: string;
  /** The form's markup ("Tell me when orders open"), when it is offered. */
  form?: string | null;
  /** The page's own button, posting to the page itself. */
  button?: string;
  /** A link onwards. */
  link?: { to: string; label: string };
  business: string;
}

const notFound = () => {
  throw new Response(null, { status: 404, headers: privateHeaders });
};

async function shown(
  context: AppLoadContext,
  request: Request,
  page: Omit<Shown, "business" | "form">,
  form?: { email?: string; error?: string } | false,
): Promise<Shown> {
  const { site } = await publicSiteFor(request, context);
  return {
    ...page,
    business: site.business.name,
    form: form === false ? null : await waitlistFormFor(context, site, form ?? {}),
  };
}

const ended = (context: AppLoadContext, request: Request) =>
  shown(context, request, { heading: waitlistPage.endedHeading, text: waitlistPage.endedText, link: home });

const unknownLink = (context: AppLoadContext, request: Request) =>
  shown(
    context,
    request,
    { heading: waitlistPage.unknownLinkHeading, text: waitlistPage.unknownLinkText, link: contact },
    false,
  );

const home = { to: "/", label: waitlistPage.homeLink };
const contact = { to: "/contact", label: waitlistPage.contactLink };

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const at = where(params["*"]);
  if (at.kind === "elsewhere") return notFound();
  if (at.kind === "join") {
    const query = new URL(request.url).searchParams;
    if (query.get("asked") === "1") {
      return data(
        await shown(context, request, { heading: waitlistPage.heading, text: waitlistPage.asked, link: home }, false),
        { headers: privateHeaders },
      );
    }
    if (query.get("confirmed") === "1") {
      const page = { heading: waitlistPage.confirmedHeading, text: waitlistPage.confirmedText(null), link: home };
      return data(await shown(context, request, page, false), { headers: privateHeaders });
    }
    const page = await shown(context, request, { heading: waitlistPage.heading, text: "" });
    if (!page.form) return data(await notOffered(context, request), { headers: privateHeaders });
    return data(page, { headers: privateHeaders });
  }
  const inbox = context.services.inbox();
  if (at.kind === "confirm") {
    const entry = at.token ? await inbox.waitlistByConfirmToken(at.token) : null;
    if (!entry) return data(await ended(context, request), { status: 404, headers: privateHeaders });
    return data(
      await shown(
        context,
        request,
        {
          heading: waitlistPage.confirmHeading,
          text: waitlistPage.confirmText(entry.email),
          button: waitlistPage.confirmButton,
        },
        false,
      ),
      { headers: privateHeaders },
    );
  }
  const entry = at.token ? await inbox.waitlistByUnsubscribeToken(at.token) : null;
  if (!entry) return data(await unknownLink(context, request), { status: 404, headers: privateHeaders });
  const page =
    entry.state === "unsubscribed"
      ? { heading: waitlistPage.unsubscribedHeading, text: waitlistPage.unsubscribedText(entry.email), link: home }
      : {
          heading: waitlistPage.unsubscribeHeading,
          text: waitlistPage.unsubscribeText(entry.email),
          button: waitlistPage.unsubscribeButton,
        };
  return data(await shown(context, request, page, false), { headers: privateHeaders });
}

/** Orders are open (or the list is not offered): nothing to ask for here. */
async function notOffered(context: AppLoadContext, request: Request) {
  const { site } = await publicSiteFor(request, context);
  const text = site.orders.open ? waitlistPage.ordersOpen : waitlistPage.notOffered;
  return shown(context, request, { heading: waitlistPage.heading, text, link: contact }, false);
}

export async function action({ params, request, context }: ActionFunctionArgs) {
  const at = where(params["*"]);
  if (at.kind === "elsewhere") return notFound();
  const form = await request.formData();
  if (at.kind === "join") {
    const { site } = await publicSiteFor(request, context);
    const offered = await waitlistFormFor(context, site);
    if (!offered) return data(await notOffered(context, request), { headers: privateHeaders });
    const answer = await joinFromForm(form, context, context.clientAddress);
    if (answer.kind === "asked") return redirect("/waitlist?asked=1", { status: 303, headers: privateHeaders });
    if (answer.kind === "invalid") {
      return data(
        await shown(
          context,
          request,
          { heading: waitlistPage.heading, text: "" },
          {
            email: answer.email,
            error: answer.error,
          },
        ),
        { status: 400, headers: privateHeaders },
      );
    }
    const refused = answer.kind === "rate-limited";
    return data(
      await shown(
        context,
        request,
        {
          heading: waitlistPage.heading,
          text: refused ? waitlistPage.rateLimited : waitlistPage.unavailable,
          link: home,
        },
        false,
      ),
      {
        status: refused ? 429 : 503,
        headers: { ...privateHeaders, ...(refused ? { "Retry-After": String(answer.retryAfterSeconds) } : {}) },
      },
    );
  }
  const inbox = context.services.inbox();
  if (at.kind === "confirm") {
    const outcome = at.token ? await inbox.confirmWaitlist(at.token) : "unknown";
    // To a page of its own: the link is used up, so its own page is now the ended one.
    if (outcome === "confirmed" || outcome === "already") {
      return redirect("/waitlist?confirmed=1", { status: 303, headers: privateHeaders });
    }
    return data(await ended(context, request), { status: 404, headers: privateHeaders });
  }
  // RFC 8058: whatever the body says (`List-Unsubscribe=One-Click`, or the page's own button), a POST unsubscribes.
  const left = at.token ? await inbox.unsubscribeWaitlist(at.token) : false;
  if (!left) return data(await unknownLink(context, request), { status: 404, headers: privateHeaders });
  return data(
    await shown(
      context,
      request,
      { heading: waitlistPage.unsubscribedHeading, text: waitlistPage.unsubscribedText(null), link: home },
      false,
    ),
    { headers: privateHeaders },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [
  { title: waitlistPage.title(page?.business ?? "") },
  { name: "robots", content: "noindex, nofollow" },
  { name: "referrer", content: "same-origin" },
];

export default function WaitlistPage() {
  const loaded = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const page: Shown = (posted as Shown | undefined) ?? loaded;
  return (
    <section className="mx-auto max-w-2xl px-4 py-12 sm:px-6 lg:py-16">
      <h1 className="font-display text-4xl font-bold text-bone-50 sm:text-5xl">{page.heading}</h1>
      {page.text ? (
        <p className="mt-4 text-lg text-bone-300" role="status" data-waitlist-status="">
          {page.text}
        </p>
      ) : null}
      {page.button ? (
        <form method="post" className="mt-8">
          <button
            type="submit"
            className="rounded-md bg-ember-500 px-7 py-3 text-lg font-semibold text-night-950 hover:bg-ember-400 focus-visible:outline-offset-4 focus-visible:outline-ember-300"
          >
            {page.button}
          </button>
        </form>
      ) : null}
      {page.form && <div dangerouslySetInnerHTML={{ __html: page.form }} />}
      {page.link ? (
        <p className="mt-8">
          <a
            href={page.link.to}
            className="font-semibold text-ember-300 underline underline-offset-4 hover:text-bone-50"
          >
            {page.link.label}
          </a>
        </p>
      ) : null}
    </section>
  );
}
