import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/react";
import { inboxCopy } from "~/content/inbox";
import { privateHeaders } from "~/owner/headers";
import { clearedSessionCookie, hashSessionId, sessionIdOf, sessionLimits } from "~/owner/session.server";
import { isStoreUnavailable } from "~/store/sql.server";
import type { InboxStore, Operator } from "~/store/types";

/**
 * The owner's inbox's gate: who may see what. Only in embedded mode, only for a logged-in operator, and a database
 * that does not answer is a 503 in words. (A cross-site post never reaches an action: app/http/admit.server.ts.)
 */

/** With API_HOST the site has no inbox: its paths are unknown (404, the site's not-found page). */
export function requireEmbedded(context: AppLoadContext): void {
  if (context.services.config.apiHost) throw new Response(null, { status: 404, headers: privateHeaders });
}

/** A database that does not answer becomes a 503 that says so in words (anything else is rethrown). */
export function unavailable(error: unknown): never {
  if (isStoreUnavailable(error)) {
    throw new Response(inboxCopy.unavailable, {
      status: 503,
      headers: { ...privateHeaders, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  throw error;
}

/** The open inbox database, or that 503. */
export function inboxStore(context: AppLoadContext): InboxStore {
  try {
    return context.services.inbox();
  } catch (error) {
    return unavailable(error);
  }
}

export interface OperatorSession {
  operator: Operator;
  store: InboxStore;
  sessionIdHash: string;
}

interface HandlerArgs {
  request: Request;
  context: AppLoadContext;
}

/**
 * An owner page's loader or action: `work` runs for the logged-in operator, or the request goes to the login page
 * (which comes back here afterwards). An outage at any point of the work is the 503 in words, never the error page's
 * 500. The place for a second factor: a session that has not passed it yet gets no further than here.
 */
export async function asOperator<Args extends HandlerArgs, Result>(
  args: Args,
  work: (args: Args, session: OperatorSession) => Promise<Result>,
): Promise<Result> {
  try {
    return await work(args, await requireOperator(args.request, args.context));
  } catch (error) {
    return unavailable(error);
  }
}

async function requireOperator(request: Request, context: AppLoadContext): Promise<OperatorSession> {
  requireEmbedded(context);
  const { config } = context.services;
  const store = inboxStore(context);
  const id = sessionIdOf(request, config);
  const session = id ? await store.useSession(hashSessionId(id), sessionLimits) : null;
  if (!session || !id) {
    const url = new URL(request.url);
    const back = request.method === "GET" ? `?next=${encodeURIComponent(url.pathname + url.search)}` : "";
    throw redirect(`/inbox/login${back}`, {
      headers: { ...privateHeaders, ...(id ? { "Set-Cookie": clearedSessionCookie(config) } : {}) },
    });
  }
  return { operator: session.operator, store, sessionIdHash: hashSessionId(id) };
}

/**
 * Where to go after the login: an inbox path, or a public page's preview of the draft (`/about?preview`); never
 * another site, never `//host`.
 */
export function safeNext(value: string | null): string {
  if (!value || value.includes("\\")) return "/inbox";
  return /^\/inbox(?:[/?]|$)/.test(value) || /^\/[a-z-]*\?preview=?$/.test(value) ? value : "/inbox";
}
