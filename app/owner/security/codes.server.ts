import type { OperatorSession } from "~/owner/gate.server";
import type { SecurityIntent } from "~/owner/security/page.server";

/** The Security page's one-time codes: whether they are set up, and how many recovery codes are left. */
export async function codesSection({ operator, store }: OperatorSession) {
  const totp = await store.totpFactor(operator.id);
  return {
    confirmed: Boolean(totp?.confirmedAt),
    recoveryLeft: await store.recoveryCodesLeft(operator.id),
  };
}

export const codeIntents: Record<string, SecurityIntent> = {};
