import type { AppLoadContext } from "@remix-run/node";
import { bodyCapFor } from "~/http/body-caps";
import { readForm } from "~/http/form.server";
import { dummyHash, verifyPassword } from "~/owner/password.server";
import {
  hashSessionId,
  inboxStore,
  loginThrottle,
  newSessionId,
  requireEmbedded,
  safeNext,
  sessionCookie,
  sessionIdOf,
  unavailable,
} from "~/owner/session.server";
import { emailKey } from "~/store/store.server";
import { oneLine } from "~/text/safety";

export type LoginOutcome =
  | { kind: "ok"; next: string; cookie: string }
  | { kind: "wrong"; email: string }
  | { kind: "throttled"; email: string };

/**
 * One login attempt. A wrong address and a wrong password give the same answer after the same work (an unknown
 * address is checked against a dummy hash). Failures are counted per account and client address, so an attacker
 * elsewhere only ever throttles themselves; while throttled, not even the right password gets in from there.
 */
export async function logIn(request: Request, context: AppLoadContext, now = new Date()): Promise<LoginOutcome> {
  return attempt(request, context, now).catch(unavailable);
}

async function attempt(request: Request, context: AppLoadContext, now: Date): Promise<LoginOutcome> {
  requireEmbedded(context);
  const { config } = context.services;
  const store = inboxStore(context);
  const form = await readForm(request, bodyCapFor("routes/inbox.login"));
  const email = String(form.get("email") ?? "").slice(0, 254);
  const password = String(form.get("password") ?? "").slice(0, 1024);
  const next = safeNext(String(form.get("next") ?? ""));
  const account = emailKey(email);
  const client = context.peerAddress ?? "unknown";
  const actor = oneLine(email, 100) || "(no address)";

  const since = new Date(now.getTime() - loginThrottle.windowMs);
  if ((await store.countLoginFailures(account, client, since)) >= loginThrottle.failures) {
    await store.logActivity({ actor, action: "login refused (throttled)", detail: `from ${client}` }, now);
    return { kind: "throttled", email };
  }

  const operator = await store.findOperator(email);
  const matches = await verifyPassword(password, operator?.passwordHash ?? (await dummyHash()));
  if (!operator || !matches) {
    await store.recordLoginFailure(account, client, since, now);
    await store.logActivity({ actor, action: "login failed", detail: `from ${client}` }, now);
    return { kind: "wrong", email };
  }

  await store.clearLoginFailures(account, client);
  // A new id at every login: a session id planted before the login is never the one that gets in.
  const previous = sessionIdOf(request, config);
  if (previous) await store.deleteSession(hashSessionId(previous));
  const id = newSessionId();
  await store.createSession(hashSessionId(id), operator.id, now);
  await store.logActivity({ actor: operator.email, action: "logged in", detail: `from ${client}` }, now);
  return { kind: "ok", next, cookie: sessionCookie(config, id) };
}
