import type { OperatorSession } from "~/owner/gate.server";
import { absoluteTime } from "~/owner/format";
import type { SecurityIntent } from "~/owner/security/page.server";

/** The Security page's passkeys: each one's name, when it was added and last used. */
export async function passkeysSection({ operator, store }: OperatorSession) {
  return (await store.listPasskeys(operator.id)).map((passkey) => ({
    id: passkey.id,
    name: passkey.name,
    added: absoluteTime(passkey.createdAt),
    lastUsed: passkey.lastUsedAt ? absoluteTime(passkey.lastUsedAt) : null,
  }));
}

export const passkeyIntents: Record<string, SecurityIntent> = {};
