import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  data,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  type ClientActionFunctionArgs,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { ContactForm } from "~/components/ContactForm";
import { contactForm, contactPage, enquiryMessages } from "~/wording";
import { acceptEnquiry } from "~/enquiry/accept.server";
import { acknowledger } from "~/notify/acknowledgement.server";
import { projectForSlug } from "~/enquiry/about.server";
import { contactPageAnswer } from "~/enquiry/answers.server";
import { formTokenForPage } from "~/enquiry/form-token.server";
import { aboutField, enquiryFieldNames, maxBodyBytes, type EnquiryValues } from "~/enquiry/fields";
import type { BodyCap } from "~/http/body-cap";
import { browserFailureText } from "~/enquiry/api-answer";
import { metaFromLoader } from "~/site-content/root-data";
import { pageHeadFor, previewHeaders, waitlistFormFor } from "~/site-content/pages.server";

export const meta: MetaFunction = metaFromLoader;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const query = new URL(request.url).searchParams;
  // Set by the post/redirect/get after a successful send. That page carries one visitor's status: never cache it.
  const sent = query.get("sent") === "1";
  // "Ask for one like this" on a published project's page (its slug now or before a rename); anything else in
  // ?about= is ignored and the plain form shown.
  const asked = query.has(aboutField)
    ? projectForSlug(context.site.content.projects, query.get(aboutField))
    : undefined;
  const about = asked ? { id: asked.id, slug: asked.slug, prefill: contactForm.aboutPrefill(asked.title) } : null;
  // Each visitor's form carries its own signed token (ADR 0013): with the embedded inbox the page is never shared or
  // kept, also when the database was down and it has none (a kept token-less form would make every post "missing").
  const { meta, site, preview } = await pageHeadFor("contact", request, context);
  const formToken = await formTokenForPage(context.services);
  // A page with ?about= (known or not) is never kept either: the in-memory page cache keeps no query string at all
  // (app/pages/page-cache.server.ts), and no-store tells a CDN the same, so made-up values cannot fill a cache. The
  // page is cheap to render, and a visitor asks for it once.
  // "Tell me when orders open" while orders are closed (docs/waitlist.md): markup made on the server, no script.
  const waitlist = preview ? null : await waitlistFormFor(context, site);
  const perVisitor = sent || !context.services.config.apiHost || query.has(aboutField) || waitlist !== null;
  return data(
    { sent, formToken, meta, intro: site.contactIntro, about, waitlist },
    { headers: preview ? previewHeaders : perVisitor ? { "Cache-Control": "no-store" } : {} },
  );
}

// The loader's only header is the thank-you page's no-store; the action's, a rate limit's Retry-After.
export const headers: HeadersFunction = ({ loaderHeaders, actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  if (!retryAfter) return loaderHeaders;
  const headers = new Headers(loaderHeaders);
  headers.set("Retry-After", retryAfter);
  return headers;
};

/** The enquiry is read under its cap by acceptEnquiry, so that a refusal is this page with its status line. */
export const bodyCap: BodyCap = { maxBytes: maxBodyBytes, readsOwnBody: true };

export async function action({ request, context }: ActionFunctionArgs) {
  const acceptance = await acceptEnquiry(request, "form", context.services, context.clientAddress, {
    projects: context.site.content.projects,
    acknowledge: acknowledger(context.services, context.site.content),
  });
  // A failed save may have used up the posted token; with JavaScript the page is not reloaded, so send a new one.
  const formToken = acceptance.kind === "not-stored" ? await formTokenForPage(context.services) : undefined;
  return contactPageAnswer(acceptance, formToken);
}

/**
 * With JavaScript the post goes through here. If the browser cannot reach our server, or gets an answer that is not
 * our server's (a proxy's error page), the caught error is logged as it is and the status says what happened in
 * plain words, instead of the error page; the visitor's words stay in the form.
 */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  const form = await request.clone().formData();
  try {
    return await serverAction<typeof action>();
  } catch (error) {
    if (error instanceof Response) throw error; // the success redirect
    // In the browser: the developer tools' console is where this belongs (the README's decisions).
    // eslint-disable-next-line no-console
    console.error(error);
    const values: EnquiryValues = {};
    for (const field of enquiryFieldNames) values[field] = String(form.get(field) ?? "");
    return { status: browserFailureText(error), values };
  }
}

/**
 * A failed send changes nothing the loader knows, so nothing is reloaded; if the network is down, a reload would
 * fail too and replace the form (and what the visitor typed) with the error page.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) => {
  if (actionResult && typeof actionResult === "object" && "status" in actionResult) return false;
  return defaultShouldRevalidate;
};

export default function Contact() {
  const { sent, formToken, intro, about, waitlist } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof clientAction>();
  const navigation = useNavigation();
  const location = useLocation();
  // With a project, the form posts to its own address: shown again after a refusal without JavaScript, the page
  // still carries the project.
  const formAction = about ? `/contact?${aboutField}=${encodeURIComponent(about.slug)}` : "/contact";
  const busy = navigation.state !== "idle" && navigation.formAction?.split("?")[0] === "/contact";
  const status = busy ? enquiryMessages.sending : (actionData?.status ?? (sent ? enquiryMessages.success : ""));

  return (
    <section className="mx-auto max-w-2xl px-4 py-12 sm:px-6 lg:py-16">
      <h1 className="font-display text-4xl font-bold text-bone-50 sm:text-5xl">{contactPage.heading}</h1>
      <p className="mt-4 text-lg text-bone-300">{intro}</p>
      {waitlist && <div dangerouslySetInnerHTML={{ __html: waitlist }} />}
      <div className="mt-8 rounded-xl border border-night-600 bg-night-800/70 p-5 shadow-[0_0_60px_-25px_rgb(242_140_40_/_0.4)] sm:p-8">
        {/* A new key after each successful send empties the form; a failed send keeps everything typed. */}
        <ContactForm
          key={sent ? location.key : "enquiry"}
          status={status}
          values={actionData?.values ?? {}}
          busy={busy}
          formToken={(actionData && "formToken" in actionData && actionData.formToken) || formToken}
          about={about}
          action={formAction}
        />
      </div>
    </section>
  );
}
