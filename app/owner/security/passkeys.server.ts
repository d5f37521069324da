import { redirect } from "@remix-run/react";
import { securityCopy } from "~/wording/security";
import { clientKey } from "~/http/rate-limit.server";
import { requireRecentFactor, type OperatorSession } from "~/owner/gate.server";
import { absoluteTime } from "~/text/time";
import { privateHeaders } from "~/owner/headers";
import type { SecurityIntent } from "~/owner/security/page.server";

/** The Security page's passkeys: each one's name, when it was added and last used. */
export async function passkeysSection({ operator, store }: OperatorSession) {
  return (await store.listPasskeys(operator.id)).map((passkey) => ({
    id: passkey.id,
    name: passkey.name,
    added: absoluteTime(passkey.createdAt),
    addedIso: passkey.createdAt.toISOString(),
    lastUsed: passkey.lastUsedAt ? absoluteTime(passkey.lastUsedAt) : null,
    lastUsedIso: passkey.lastUsedAt ? passkey.lastUsedAt.toISOString() : null,
  }));
}

/** A refusal on the Security page, shown beside the passkeys (PasskeysSection reads `passkeyError`). */
const refused = (words: string, status: number) =>
  Response.json({ passkeyError: words }, { status, headers: privateHeaders });

/**
 * Remove (a plain form post, works without JavaScript): step-up first, as removing a factor cannot be undone; never the
 * last factor while the inbox requires one (no confirmed one-time codes and no other passkey).
 */
const removePasskey: SecurityIntent = async ({ context }, session, form) => {
  await requireRecentFactor(session, "/inbox/security");
  const { operator, store } = session;
  const id = String(form.get("passkey") ?? "").slice(0, 4096);
  const passkeys = await store.listPasskeys(operator.id);
  const passkey = passkeys.find((candidate) => candidate.id === id);
  if (!passkey) return refused(securityCopy.passkeys.notFound, 404);
  if (context.services.config.requireSecondFactor !== false) {
    const totp = await store.totpFactor(operator.id);
    if (!totp?.confirmedAt && passkeys.length === 1) return refused(securityCopy.passkeys.lastFactor, 409);
  }
  if (!(await store.removePasskey(operator.id, id))) return refused(securityCopy.passkeys.notFound, 404);
  // Two removals at once (two tabs, the last two passkeys) both saw another factor: the later one puts its key back.
  if (context.services.config.requireSecondFactor !== false && !(await store.hasSecondFactor(operator.id))) {
    const { lastUsedAt, ...kept } = passkey;
    await store.addPasskey(kept);
    if (lastUsedAt) await store.usePasskey(passkey.id, passkey.counter, lastUsedAt);
    return refused(securityCopy.passkeys.lastFactor, 409);
  }
  const client = context.peerAddress ? clientKey(context.peerAddress) : "unknown";
  await store.logActivity({
    actor: operator.email,
    action: "passkey removed",
    detail: `"${passkey.name}" from ${client}`,
  });
  return redirect("/inbox/security?done=passkey-removed", { status: 303, headers: privateHeaders });
};

export const passkeyIntents: Record<string, SecurityIntent> = { "remove-passkey": removePasskey };
