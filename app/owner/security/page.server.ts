import type { ActionFunctionArgs } from "@remix-run/node";
import type { data } from "@remix-run/react";
import type { OperatorSession } from "~/owner/gate.server";

/**
 * The Security page's parts: each section (one-time codes, passkeys, sessions) has a module here with what its
 * loader shows and the intents its buttons post. The route (app/routes/inbox.security.tsx) puts them together.
 */

/** One button's work on the Security page: a redirect (post/redirect/get) or data for the page (a refusal). */
export type SecurityIntent = (
  args: ActionFunctionArgs,
  session: OperatorSession,
  form: FormData,
) => Promise<Response | ReturnType<typeof data<unknown>>>;
