import type { AppLoadContext } from "@remix-run/node";
import type { Config } from "~/config.server";
import { redirect } from "@remix-run/react";
import { inboxCopy } from "~/wording/inbox";
import { log } from "~/log.server";
import { privateHeaders } from "~/owner/headers";
import { clearedSessionCookie, hashSessionId, sessionIdOf, sessionLimits } from "~/owner/session.server";
import { isSecretsKeyError } from "~/store/sealed-secrets.server";
import { isStoreUnavailable } from "~/store/sql.server";
import type { Operator, SessionStage } from "~/store/owner.types";
import type { InboxStore } from "~/store/store.types";

/**
 * The owner's inbox's gate: who may see what. Only in embedded mode, only for a logged-in operator, and a database
 * that does not answer is a 503 with a plain message. (A cross-site post never reaches an action: app/http/admit.server.ts.)
 */

/** With API_HOST the site has no inbox: its paths are unknown (404, the site's not-found page). */
export function requireEmbedded(context: AppLoadContext): void {
  if (context.services.config.apiHost) throw new Response(null, { status: 404, headers: privateHeaders });
}

/**
 * A database that does not answer becomes a 503 that says so plainly (anything else is rethrown); so does a sealed
 * secret this server's SECRETS_KEY cannot open (a `secrets rotate` before the restart): never a login that fails as if
 * the code were wrong.
 */
export function unavailable(error: unknown): never {
  if (isSecretsKeyError(error)) {
    log.error(error.message);
    throw new Response(inboxCopy.secretsKey, {
      status: 503,
      headers: { ...privateHeaders, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
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
  stage: SessionStage;
  /** When this session last passed a second factor (null: never). */
  factorAt: Date | null;
  /** When its password was typed (the login; a change of stage keeps it). */
  loggedInAt: Date;
}

/** Which sessions a page lets in: every page wants `full`; the Security page also `setup`, the code page `password`. */
export type AllowedStages = readonly SessionStage[];
const fullOnly: AllowedStages = ["full"];

/** Where each stage that a page does not let in is sent instead. */
export const stageHome = { password: "/inbox/verify", setup: "/inbox/security", full: "/inbox" } as const;

interface HandlerArgs {
  request: Request;
  context: AppLoadContext;
}

/**
 * An owner page's loader or action: `work` runs for the logged-in operator, or the request goes to the login page
 * (which comes back here afterwards). An outage at any point of the work is the 503 with a plain message, never the error page's
 * 500. The place for a second factor: a session that has not passed it yet gets no further than here.
 */
export async function asOperator<Args extends HandlerArgs, Result>(
  args: Args,
  work: (args: Args, session: OperatorSession) => Promise<Result>,
  allow: AllowedStages = fullOnly,
): Promise<Result> {
  try {
    return await work(args, await requireOperator(args.request, args.context, allow));
  } catch (error) {
    return unavailable(error);
  }
}

/** A GET's own address as a `next` parameter (a post has none: it comes back to the page it was sent from). */
function backTo(request: Request): string {
  const url = new URL(request.url);
  return request.method === "GET" ? `?next=${encodeURIComponent(url.pathname + url.search)}` : "";
}

async function requireOperator(
  request: Request,
  context: AppLoadContext,
  allow: AllowedStages,
): Promise<OperatorSession> {
  requireEmbedded(context);
  const { config } = context.services;
  const store = inboxStore(context);
  // An action that changed the session's stage in this request moved it to a new id (the cookie still has the old).
  const id = context.renewedSessionId ?? sessionIdOf(request, config);
  const session = id ? await store.useSession(hashSessionId(id), sessionLimits) : null;
  if (!session || !id) {
    throw redirect(`/inbox/login${backTo(request)}`, {
      headers: { ...privateHeaders, ...(id ? { "Set-Cookie": clearedSessionCookie(config) } : {}) },
    });
  }
  // A session setting up its factor while the operator added one elsewhere (another browser) now owes it instead.
  const stage =
    session.stage === "setup" && (await store.hasSecondFactor(session.operator.id)) ? "password" : session.stage;
  // A session that still owes its second factor, or has to set one up, sees nothing else.
  if (!allow.includes(stage)) {
    const home = stageHome[stage];
    throw redirect(stage === "password" ? `${home}${backTo(request)}` : home, { headers: privateHeaders });
  }
  return {
    operator: session.operator,
    store,
    sessionIdHash: hashSessionId(id),
    stage,
    factorAt: session.factorAt,
    loggedInAt: session.createdAt,
  };
}

/** What cannot be undone asks for the second factor again when the last one is older than this. */
export const stepUpMs = 10 * 60_000;

/**
 * Step-up for what cannot be undone (erase, removing a factor, publishing, the CSV export): an operator who has a
 * second factor proves it again when this session's last one is older than `stepUpMs`; the request goes to the code
 * page, which comes back to `returnTo` (a page to press the button on again). Without a factor (INBOX_REQUIRE_2FA=off)
 * it works as before.
 */
export async function requireRecentFactor(session: OperatorSession, returnTo: string, now = new Date()): Promise<void> {
  if (session.factorAt && now.getTime() - session.factorAt.getTime() < stepUpMs) return;
  if (!(await session.store.hasSecondFactor(session.operator.id))) return;
  throw redirect(`${stageHome.password}?next=${encodeURIComponent(safeNext(returnTo))}&again=1`, {
    headers: privateHeaders,
  });
}

/**
 * Adding a factor (one-time codes, a passkey) asks for what removing one does: with a factor already on
 * the account, step-up (requireRecentFactor). Without one (the first factor, at set-up, or with INBOX_REQUIRE_2FA off)
 * there is nothing to step up with, so the password must be fresh: typed less than `stepUpMs` ago. An older session is
 * ended and sent to the login page, which comes back to `returnTo`; a stolen set-up cookie cannot put its own factor
 * on the account once the owner has walked away.
 */
export async function requireFreshToAddFactor(
  session: OperatorSession,
  returnTo: string,
  config: Config,
  now = new Date(),
): Promise<void> {
  if (await session.store.hasSecondFactor(session.operator.id)) return requireRecentFactor(session, returnTo, now);
  if (now.getTime() - session.loggedInAt.getTime() < stepUpMs) return;
  await session.store.deleteSession(session.sessionIdHash);
  throw redirect(`/inbox/login?next=${encodeURIComponent(safeNext(returnTo))}&again=1`, {
    headers: { ...privateHeaders, "Set-Cookie": clearedSessionCookie(config) },
  });
}

/**
 * Where to go after the login: an inbox path, or a public page's preview of the draft (`/about?preview`); never
 * another site, never `//host`.
 */
export function safeNext(value: string | null): string {
  if (!value || value.includes("\\")) return "/inbox";
  return /^\/inbox(?:[/?]|$)/.test(value) || /^\/[a-z-]*\?preview=?$/.test(value) ? value : "/inbox";
}
