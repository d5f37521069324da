import type { AppLoadContext } from "@remix-run/node";
import { clientKey } from "~/http/rate-limit.server";
import { loginHashing } from "~/owner/hash-gate.server";
import { deriveOnHashThread } from "~/owner/hash-thread.server";
import { readForm } from "~/http/form.server";
import { dummyHash, verifyPassword } from "~/owner/password.server";
import { describeBrowser } from "~/owner/browser";
import { inboxStore, requireEmbedded, safeNext, stageHome, unavailable } from "~/owner/gate.server";
import { noteLogin } from "~/owner/new-login.server";
import { hashSessionId, newSessionId, sessionCookie, sessionIdOf } from "~/owner/session.server";
import { emailKey } from "~/store/rows.server";
import { oneLine } from "~/text/safety";

/** After this many failed logins for one account from one client address within the window: 429 until it passes. */
export const loginThrottle = { failures: 5, windowMs: 15 * 60_000 } as const;

export type LoginOutcome =
  /** `cookie`: the session's; `browserCookie`: the browser's id for the new-login alert (app/owner/new-login.server.ts). */
  | { kind: "ok"; next: string; cookie: string; browserCookie: string }
  | { kind: "wrong"; email: string }
  /** Too many tries for this account from this client (429). */
  | { kind: "throttled"; email: string; retryAfterSeconds: number }
  /** The site-wide login rate is used up (429). */
  | { kind: "busy"; email: string; retryAfterSeconds: number }
  /** Every hashing place and the queue are taken (503). */
  | { kind: "overloaded"; email: string; retryAfterSeconds: number };

/**
 * One login attempt. A wrong address and a wrong password give the same answer after the same work (an unknown
 * address is checked against a dummy hash). Attempts are counted per account and client address (an IPv6 /64) before
 * the check, so an attacker elsewhere only ever throttles themselves; while throttled, not even the right password
 * gets in from there. A site-wide rate and a small hashing queue bound the work many addresses can cause.
 */
export async function logIn(
  request: Request,
  context: AppLoadContext,
  maxBodyBytes: number,
  now = new Date(),
): Promise<LoginOutcome> {
  const outcome = await attempt(request, context, maxBodyBytes, now).catch(unavailable);
  context.services.metrics?.login({ step: "password", outcome: outcome.kind });
  return outcome;
}

async function attempt(
  request: Request,
  context: AppLoadContext,
  maxBodyBytes: number,
  now: Date,
): Promise<LoginOutcome> {
  requireEmbedded(context);
  const { config } = context.services;
  const store = inboxStore(context);
  const form = await readForm(request, maxBodyBytes);
  const email = String(form.get("email") ?? "").slice(0, 254);
  const password = String(form.get("password") ?? "").slice(0, 1024);
  const next = safeNext(String(form.get("next") ?? ""));
  const account = emailKey(email);
  // IPv6 by its /64, as the enquiry limit counts: a host picks any address of its network.
  const client = context.peerAddress ? clientKey(context.peerAddress) : "unknown";
  const actor = oneLine(email, 100) || "(no address)";

  const { admitLogin, loginHashes } = context.services;
  // Counted before anything is checked, in one statement shared by every instance: however many come at once, at most
  // `loginThrottle.failures` wrong passwords per account and client are ever checked in a window.
  const counted = await store.countLoginAttempt(account, client, loginThrottle.windowMs, now);
  if (counted.attempts > loginThrottle.failures) {
    await store.logActivity({ actor, action: "login refused (throttled)", detail: `from ${client}` }, now);
    const left = counted.windowStart.getTime() + loginThrottle.windowMs - now.getTime();
    return { kind: "throttled", email, retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) };
  }
  // Refused below without a check: the attempt is given back, as it guessed nothing. Not logged one by one: a flood
  // from many addresses would fill the activity log with them.
  const siteWait = await admitLogin();
  if (siteWait !== null) {
    await store.refundLoginAttempt(account, client);
    return { kind: "busy", email, retryAfterSeconds: siteWait };
  }
  const operator = await store.findOperator(email);
  const stored = operator?.passwordHash ?? (await dummyHash());
  const checked = loginHashes.run(() => verifyPassword(password, stored, deriveOnHashThread));
  if (!checked) {
    await store.refundLoginAttempt(account, client);
    return { kind: "overloaded", email, retryAfterSeconds: loginHashing.retryAfterSeconds };
  }
  const matches = await checked;
  if (!operator || !matches) {
    await store.logActivity({ actor, action: "login failed", detail: `from ${client}` }, now);
    return { kind: "wrong", email };
  }

  // The right password is no wrong guess: its attempt is given back. The wrong ones before it still count, so a
  // guesser sharing the owner's network gets no new tries from the owner's login.
  await store.refundLoginAttempt(account, client);
  // A new id at every login: a session id planted before the login is never the one that gets in.
  const previous = sessionIdOf(request, config);
  if (previous) await store.deleteSession(hashSessionId(previous));
  // The password alone opens a session that still owes its second factor (the code page), or, with none set up and
  // one required, that can only set one up (the Security page); only without either is it whole at once.
  const hasFactor = await store.hasSecondFactor(operator.id);
  const stage = hasFactor ? "password" : config.requireSecondFactor !== false ? "setup" : "full";
  const id = newSessionId();
  const browser = describeBrowser(request.headers.get("User-Agent"));
  await store.createSession(hashSessionId(id), operator.id, { stage, factorAt: null, browser, client }, now);
  await store.logActivity(
    {
      actor: operator.email,
      action: stage === "password" ? "password accepted" : "logged in",
      detail: `from ${client}`,
    },
    now,
  );
  // The right password from a browser not seen before for this operator is announced, even while a second factor is
  // still owed: a password known to someone else is what the owner must hear about.
  const browserCookie = await noteLogin(request, context, operator, now);
  const after =
    stage === "password"
      ? `${stageHome.password}?next=${encodeURIComponent(next)}`
      : stage === "setup"
        ? stageHome.setup
        : next;
  return { kind: "ok", next: after, cookie: sessionCookie(config, id), browserCookie };
}
