import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, useLoaderData } from "@remix-run/react";
import { InboxShell } from "~/components/inbox/InboxShell";
import { Notice } from "~/components/inbox/form/Notice";
import { CodesSection } from "~/components/inbox/security/CodesSection";
import { PasskeysSection } from "~/components/inbox/security/PasskeysSection";
import { SessionsSection } from "~/components/inbox/security/SessionsSection";
import { inboxCopy } from "~/wording/inbox";
import { securityCopy } from "~/wording/security";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { codeIntents, codesSection } from "~/owner/security/codes.server";
import { passkeyIntents, passkeysSection } from "~/owner/security/passkeys.server";
import { sessionIntents, sessionsSection } from "~/owner/security/sessions.server";
import { shownToOwner } from "~/owner/shown";

export const meta: MetaFunction = () => [
  { title: `${securityCopy.page.title} | ${inboxCopy.title}` },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;

/**
 * The Security page: passkeys, one-time codes and recovery codes, sessions. A session at stage `setup` (a factor is
 * required and none is set up) sees this page and nothing else until it adds one.
 */
const securityStages = ["setup", "full"] as const;

export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showSecurity, securityStages);
}

async function showSecurity(_args: LoaderFunctionArgs, session: OperatorSession) {
  const [codes, passkeys, sessions] = await Promise.all([
    codesSection(session),
    passkeysSection(session),
    sessionsSection(session),
  ]);
  return data(
    shownToOwner({
      operator: session.operator.email,
      setupRequired: session.stage === "setup",
      codes,
      passkeys,
      sessions,
    }),
    { headers: privateHeaders },
  );
}

const intents = { ...codeIntents, ...passkeyIntents, ...sessionIntents };

export async function action(args: ActionFunctionArgs) {
  return asOperator(
    args,
    async (actionArgs, session) => {
      const form = await actionArgs.request.formData();
      const intent = intents[String(form.get("intent") ?? "")];
      if (!intent) return data({ error: securityCopy.page.unknownAction }, { status: 400, headers: privateHeaders });
      return intent(actionArgs, session, form);
    },
    securityStages,
  );
}

export default function InboxSecurity() {
  const { operator, setupRequired, codes, passkeys, sessions } = useLoaderData<typeof loader>();
  return (
    <InboxShell operator={operator}>
      <h1 className="font-display text-3xl font-bold text-bone-50">{securityCopy.page.title}</h1>
      <p className="mt-2 max-w-prose text-bone-300">{securityCopy.page.intro}</p>
      <Notice tone="warning" className="mt-4 max-w-prose">
        {setupRequired ? securityCopy.page.setupRequired : null}
      </Notice>
      <PasskeysSection passkeys={passkeys} />
      <CodesSection codes={codes} />
      <SessionsSection sessions={sessions} />
    </InboxShell>
  );
}
