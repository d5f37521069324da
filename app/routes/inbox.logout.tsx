import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, redirect, useLoaderData } from "@remix-run/react";
import { buttonClass, InboxShell } from "~/components/inbox/InboxShell";
import { inboxCopy } from "~/wording/inbox";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { clearedSessionCookie } from "~/owner/session.server";
import { shownToOwner } from "~/owner/shown";

/** A session half way through its login, or setting up its factor, can always log out. */
const anyStage = ["password", "setup", "full"] as const;

export const meta: MetaFunction = () => [{ title: inboxCopy.nav.logout }, { name: "robots", content: "noindex" }];
export const headers = inboxHeaders;

/** A link to /inbox/logout shows a one-button page: logging out is a post, so another site cannot do it. */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(
    args,
    async (_args, { operator }) => data(shownToOwner({ operator: operator.email }), { headers: privateHeaders }),
    anyStage,
  );
}

export async function action(args: ActionFunctionArgs) {
  return asOperator(args, logOut, anyStage);
}

async function logOut({ context }: ActionFunctionArgs, { operator, store, sessionIdHash }: OperatorSession) {
  // The row goes: the old cookie opens nothing from now on, on every instance.
  await store.deleteSession(sessionIdHash);
  await store.logActivity({ actor: operator.email, action: "logged out" });
  return redirect("/inbox/login?out=1", {
    headers: { ...privateHeaders, "Set-Cookie": clearedSessionCookie(context.services.config) },
  });
}

export default function InboxLogout() {
  const { operator } = useLoaderData<typeof loader>();
  return (
    <InboxShell operator={operator}>
      <h1 className="font-display text-3xl font-bold text-bone-50">{inboxCopy.nav.logout}</h1>
      <Form method="post" className="mt-6">
        <button type="submit" className={buttonClass}>
          {inboxCopy.nav.logout}
        </button>
      </Form>
    </InboxShell>
  );
}
