import type { AppLoadContext } from "@remix-run/node";
import { clientKey } from "~/enquiry/rate-limit.server";
import { loginThrottle } from "~/owner/login.server";
import { takeSecondFactorCode, type CodeKind } from "~/owner/one-time-codes.server";
import type { OperatorSession } from "~/owner/gate.server";

/**
 * The second step, and step-up: a code typed on the code page. Codes are throttled like passwords (counted per
 * operator and client address in the same shared table before they are checked), and each is taken once.
 */

export type CodeOutcome =
  { kind: "ok"; used: CodeKind } | { kind: "wrong" } | { kind: "throttled"; retryAfterSeconds: number };

export async function checkCode(
  context: AppLoadContext,
  { operator, store, sessionIdHash }: OperatorSession,
  typed: string,
  now = new Date(),
): Promise<CodeOutcome> {
  const client = context.peerAddress ? clientKey(context.peerAddress) : "unknown";
  const account = `code:${operator.id}`;
  const counted = await store.countLoginAttempt(account, client, loginThrottle.windowMs, now);
  if (counted.attempts > loginThrottle.failures) {
    await store.logActivity(
      { actor: operator.email, action: "code refused (throttled)", detail: `from ${client}` },
      now,
    );
    const left = counted.windowStart.getTime() + loginThrottle.windowMs - now.getTime();
    return { kind: "throttled", retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) };
  }
  const used = await takeSecondFactorCode(store, operator.id, typed.slice(0, 64), now);
  if (!used) {
    await store.logActivity({ actor: operator.email, action: "wrong code", detail: `from ${client}` }, now);
    return { kind: "wrong" };
  }
  await store.refundLoginAttempt(account, client);
  await store.passSecondFactor(sessionIdHash, now);
  await store.logActivity(
    {
      actor: operator.email,
      action: used === "totp" ? "second factor passed (one-time code)" : "second factor passed (recovery code)",
      detail: `from ${client}`,
    },
    now,
  );
  return { kind: "ok", used };
}
