import type { AppLoadContext } from "@remix-run/node";
import { clientKey } from "~/http/rate-limit.server";
import { loginThrottle } from "~/owner/login.server";
import { takeSecondFactorCode, type CodeKind } from "~/owner/one-time-codes.server";
import type { OperatorSession } from "~/owner/gate.server";
import { renewedSession } from "~/owner/session.server";

/**
 * The second step, and step-up: a code typed on the code page. Codes are throttled like passwords (counted per
 * operator and client address in the same shared table before they are checked), and each is taken once. Unlike a
 * password, the code has only a million values and someone who tries it already knows the password: so the wrong
 * codes for one operator are also capped across every address (`perOperator`), and many networks together cannot
 * guess on. Attempts one client makes past its own cap are not checked and do not count towards that one.
 */
export const codeThrottle = { perClient: loginThrottle.failures, perOperator: 20, windowMs: loginThrottle.windowMs };
/** The operator-wide count's client (no client key looks like it). */
const everyClient = "*";

export type CodeOutcome =
  /** `cookie`: the session's new id when the code changed its stage (the login's second step), to set. */
  | { kind: "ok"; used: CodeKind; cookie?: string }
  | { kind: "wrong" }
  | { kind: "throttled"; retryAfterSeconds: number };

export async function checkCode(
  context: AppLoadContext,
  session: OperatorSession,
  typed: string,
  now = new Date(),
): Promise<CodeOutcome> {
  const outcome = await check(context, session, typed, now);
  context.services.metrics?.login({ step: "code", outcome: outcome.kind });
  return outcome;
}

async function check(
  context: AppLoadContext,
  { operator, store, sessionIdHash, stage }: OperatorSession,
  typed: string,
  now: Date,
): Promise<CodeOutcome> {
  const client = context.peerAddress ? clientKey(context.peerAddress) : "unknown";
  const account = `code:${operator.id}`;
  const { windowMs } = codeThrottle;
  const throttled = async (windowStart: Date, detail: string): Promise<CodeOutcome> => {
    await store.logActivity({ actor: operator.email, action: "code refused (throttled)", detail }, now);
    const left = windowStart.getTime() + windowMs - now.getTime();
    return { kind: "throttled", retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) };
  };
  const counted = await store.countLoginAttempt(account, client, windowMs, now);
  if (counted.attempts > codeThrottle.perClient) return throttled(counted.windowStart, `from ${client}`);
  const overall = await store.countLoginAttempt(account, everyClient, windowMs, now);
  if (overall.attempts > codeThrottle.perOperator) {
    // Not checked: this client's attempt is given back (the networks together used up the operator's tries).
    await store.refundLoginAttempt(account, client);
    return throttled(overall.windowStart, `from ${client} (${codeThrottle.perOperator} wrong codes from all networks)`);
  }
  const used = await takeSecondFactorCode(store, operator.id, typed.slice(0, 64), now);
  if (!used) {
    await store.logActivity({ actor: operator.email, action: "wrong code", detail: `from ${client}` }, now);
    return { kind: "wrong" };
  }
  await store.refundLoginAttempt(account, client);
  await store.refundLoginAttempt(account, everyClient);
  // The login's second step changes the session's stage: a new id, so a copy of the password step's cookie opens
  // nothing (step-up keeps the id: no change of stage).
  const renewed = stage === "full" ? undefined : renewedSession(context);
  await store.passSecondFactor(sessionIdHash, now, renewed?.idHash);
  await store.logActivity(
    {
      actor: operator.email,
      action: used === "totp" ? "second factor passed (one-time code)" : "second factor passed (recovery code)",
      detail: `from ${client}`,
    },
    now,
  );
  return { kind: "ok", used, ...(renewed ? { cookie: renewed.cookie } : {}) };
}
