import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { buttonClass } from "~/components/inbox/InboxShell";
import { Field } from "~/components/inbox/form/Field";
import { Notice } from "~/components/inbox/form/Notice";
import { PasskeyButton } from "~/components/inbox/security/PasskeyButton";
import { inboxCopy } from "~/wording/inbox";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { defaultBodyCap, type BodyCap } from "~/http/body-cap";
import { formRefusal } from "~/http/form.server";
import { logIn } from "~/owner/login.server";
import { dummyHash } from "~/owner/password.server";
import { inboxStore, requireEmbedded, safeNext } from "~/owner/gate.server";
import { hashSessionId, sessionIdOf, sessionLimits } from "~/owner/session.server";

export const meta: MetaFunction = () => [
  { title: inboxCopy.login.title },
  { name: "robots", content: "noindex, nofollow" },
  { name: "description", content: inboxCopy.login.intro },
];
export const headers = inboxHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  requireEmbedded(context);
  // The first unknown-address login would otherwise pay for making the dummy hash, and so take longer than the rest.
  void dummyHash();
  const url = new URL(request.url);
  // Already logged in: straight to the inbox.
  const id = sessionIdOf(request, context.services.config);
  if (id) {
    const session = await inboxStore(context)
      .useSession(hashSessionId(id), sessionLimits)
      .catch(() => null);
    if (session) throw redirect(safeNext(url.searchParams.get("next")), { headers: privateHeaders });
  }
  return data(
    {
      next: safeNext(url.searchParams.get("next")),
      loggedOut: url.searchParams.get("out") === "1",
      again: url.searchParams.get("again") === "1",
    },
    { headers: privateHeaders },
  );
}

/** The login reads its form under this cap itself, so that a refusal is this page with its form and the reason. */
export const bodyCap: BodyCap = { maxBytes: defaultBodyCap, readsOwnBody: true };

export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await logIn(request, context, bodyCap.maxBytes).catch(async (error: unknown) => {
    // A body over the cap, or not a form: the login page again, with the reason beside the form.
    const refused = await formRefusal(error);
    if (refused === undefined) throw error;
    return { kind: "refused", ...refused } as const;
  });
  if (outcome.kind === "refused") {
    return data({ error: outcome.words, email: "" }, { status: outcome.status, headers: privateHeaders });
  }
  if (outcome.kind === "ok") {
    const headers = new Headers(privateHeaders);
    headers.append("Set-Cookie", outcome.cookie);
    headers.append("Set-Cookie", outcome.browserCookie);
    return redirect(outcome.next, { headers });
  }
  if (outcome.kind === "wrong") {
    return data({ error: inboxCopy.login.wrong, email: outcome.email }, { status: 401, headers: privateHeaders });
  }
  const { retryAfterSeconds } = outcome;
  const message =
    outcome.kind === "throttled"
      ? inboxCopy.login.throttled(Math.ceil(retryAfterSeconds / 60))
      : outcome.kind === "busy"
        ? inboxCopy.login.busy(retryAfterSeconds)
        : inboxCopy.login.overloaded;
  return data(
    { error: message, email: outcome.email },
    {
      status: outcome.kind === "overloaded" ? 503 : 429,
      headers: { ...privateHeaders, "Retry-After": String(retryAfterSeconds) },
    },
  );
}

export default function InboxLogin() {
  const { next, loggedOut, again } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  return (
    <section className="mx-auto max-w-md px-4 py-12 sm:px-6">
      <h1 className="font-display text-4xl font-bold text-bone-50">{inboxCopy.login.heading}</h1>
      <p className="mt-3 text-bone-300">{inboxCopy.login.intro}</p>
      <div className="mt-8 rounded-xl border border-night-600 bg-night-800/70 p-6">
        {result?.error ? (
          <Notice tone="error" id="login-error" className="mb-5">
            {result.error}
          </Notice>
        ) : (
          <Notice tone="info" className="mb-5">
            {loggedOut ? inboxCopy.login.loggedOut : again ? inboxCopy.login.again : null}
          </Notice>
        )}
        <Form method="post" className="space-y-5" aria-describedby={result?.error ? "login-error" : undefined}>
          <input type="hidden" name="next" value={next} />
          <Field
            id="login-email"
            label={inboxCopy.login.email}
            name="email"
            type="email"
            autoComplete="username"
            required
            maxLength={254}
            defaultValue={result?.email ?? ""}
          />
          <Field
            id="login-password"
            label={inboxCopy.login.password}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            maxLength={1024}
          />
          <button type="submit" className={buttonClass} disabled={busy}>
            {inboxCopy.login.submit}
          </button>
        </Form>
        <div className="mt-6 border-t border-night-600 pt-6">
          <PasskeyButton purpose="login" next={next} />
        </div>
      </div>
    </section>
  );
}
