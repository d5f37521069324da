import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { buttonClass, linkClass } from "~/components/inbox/InboxShell";
import { Field } from "~/components/inbox/form/Field";
import { Notice } from "~/components/inbox/form/Notice";
import { PasskeyButton } from "~/components/inbox/security/PasskeyButton";
import { securityCopy } from "~/wording/security";
import { asOperator, safeNext, type OperatorSession } from "~/owner/gate.server";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { shownToOwner } from "~/owner/shown";
import { stepUpReason } from "~/owner/step-up";
import { checkCode } from "~/owner/verify.server";

export const meta: MetaFunction = () => [
  { title: securityCopy.verify.title },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;

/**
 * The code page: the login's second step (a session at stage `password`), and step-up for what cannot be undone (a
 * whole session whose last factor is older than ten minutes, `?again=1`). Either way it goes on to `next`.
 */
const verifyingStages = ["password", "full"] as const;

export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showVerify, verifyingStages);
}

async function showVerify({ request }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const url = new URL(request.url);
  const totp = await store.totpFactor(operator.id);
  const next = safeNext(url.searchParams.get("next"));
  const again = url.searchParams.get("again") === "1";
  return data(
    shownToOwner({
      operator: operator.email,
      next,
      again,
      // Step-up: what sent the owner here, to say what happens after the code.
      why: again ? stepUpReason(next) : null,
      hasCodes: Boolean(totp?.confirmedAt) || (await store.recoveryCodesLeft(operator.id)) > 0,
      hasPasskeys: (await store.listPasskeys(operator.id)).length > 0,
    }),
    { headers: privateHeaders },
  );
}

export async function action(args: ActionFunctionArgs) {
  return asOperator(args, verify, verifyingStages);
}

async function verify({ request, context }: ActionFunctionArgs, session: OperatorSession) {
  const form = await request.formData();
  const next = safeNext(String(form.get("next") ?? ""));
  const outcome = await checkCode(context, session, String(form.get("code") ?? ""));
  if (outcome.kind === "ok") {
    return redirect(next, {
      headers: { ...privateHeaders, ...(outcome.cookie ? { "Set-Cookie": outcome.cookie } : {}) },
    });
  }
  if (outcome.kind === "throttled") {
    return data(
      { error: securityCopy.verify.throttled(Math.ceil(outcome.retryAfterSeconds / 60)) },
      { status: 429, headers: { ...privateHeaders, "Retry-After": String(outcome.retryAfterSeconds) } },
    );
  }
  return data({ error: securityCopy.verify.wrong }, { status: 401, headers: privateHeaders });
}

export default function InboxVerify() {
  const { next, again, why, hasCodes, hasPasskeys } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const copy = securityCopy.verify;
  return (
    <section className="mx-auto max-w-md px-4 py-12 sm:px-6">
      <h1 className="font-display text-4xl font-bold text-bone-50">{copy.heading}</h1>
      <p className="mt-3 text-bone-300">{again ? copy.againIntro : copy.intro}</p>
      {why ? <p className="mt-2 text-bone-300">{copy.againWhy[why]}</p> : null}
      <div className="mt-8 rounded-xl border border-night-600 bg-night-800/70 p-6">
        <Notice tone="error" id="verify-error" className="mb-5">
          {result?.error}
        </Notice>
        {hasCodes ? (
          <Form method="post" className="space-y-5">
            <input type="hidden" name="next" value={next} />
            <Field
              id="verify-code"
              label={copy.code}
              hint={copy.codeHint}
              hintAfter
              alertId={result?.error ? "verify-error" : undefined}
              name="code"
              type="text"
              inputMode="text"
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              required
              maxLength={64}
            />
            <button type="submit" className={buttonClass} disabled={busy}>
              {copy.submit}
            </button>
          </Form>
        ) : (
          <p className="text-bone-100">{copy.noCodes}</p>
        )}
        {hasPasskeys ? (
          <div className="mt-6 border-t border-night-600 pt-6">
            <PasskeyButton purpose="verify" next={next} />
          </div>
        ) : null}
      </div>
      <Form method="post" action="/inbox/logout" className="mt-6">
        <button type="submit" className={linkClass}>
          {copy.otherAccount}
        </button>
      </Form>
    </section>
  );
}
