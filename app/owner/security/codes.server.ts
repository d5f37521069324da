import { data } from "@remix-run/react";
import { brand } from "~/wording/shared";
import { securityCopy } from "~/wording/security";
import { clientKey } from "~/http/rate-limit.server";
import { requireFreshToAddFactor, requireRecentFactor, type OperatorSession } from "~/owner/gate.server";
import { announceFactorAdded } from "~/owner/new-login.server";
import { renewedSession } from "~/owner/session.server";
import { privateHeaders } from "~/owner/headers";
import {
  groupedSecret,
  newRecoveryCodes,
  newTotpSecret,
  otpauthQrSvg,
  otpauthUri,
  recoveryCodeHash,
  totpStepOf,
} from "~/owner/one-time-codes.server";
import type { SecurityIntent } from "~/owner/security/page.server";
import { shownToOwner } from "~/owner/shown";

/**
 * The Security page's one-time codes: set-up (a new secret shown once, as grouped base32 text and a QR code, then a
 * code from the app to confirm it), the recovery codes (ten, shown once, stored hashed), and removal. The secret and
 * the recovery codes travel only in the answer to a post (action data): never in a URL, a loader's data or a log, so
 * a reload or a later visit does not show them again.
 */

/** What the page's loader shows of them: whether they are on, and how many recovery codes are left. */
export async function codesSection({ operator, store }: OperatorSession) {
  const totp = await store.totpFactor(operator.id);
  return {
    confirmed: Boolean(totp?.confirmedAt),
    recoveryLeft: await store.recoveryCodesLeft(operator.id),
  };
}

/** The set-up on screen: the secret as the owner types it, and its QR code (SVG markup drawn here). */
export interface CodesSetup {
  groupedSecret: string;
  qrSvg: string;
}

/** What a codes button answers with (the page reads it under `codes`, beside the other sections' answers). */
export interface CodesAnswer {
  setup?: CodesSetup;
  /** Shown once: just made, never stored in clear. */
  recoveryCodes?: string[];
  /** The codes were set up by this post (the page offers the way on to the enquiries). */
  justSetUp?: boolean;
  error?: string;
  notice?: string;
}

const copy = securityCopy.codes;
const securityPage = "/inbox/security";

function answer(codes: CodesAnswer, status = 200, headers: Record<string, string> = {}) {
  return data(shownToOwner({ codes }), { status, headers: { ...privateHeaders, ...headers } });
}

const from = (peerAddress: string | undefined) => `from ${peerAddress ? clientKey(peerAddress) : "unknown"}`;

function setupOf(secret: string, email: string): CodesSetup {
  return { groupedSecret: groupedSecret(secret), qrSvg: otpauthQrSvg(otpauthUri(secret, brand.name, email)) };
}

/**
 * "Set up one-time codes": a new secret, not yet confirmed (a set-up begun before and never confirmed is replaced).
 * Adding a factor asks for step-up as removing one does (or, for the first factor, a fresh password).
 */
const start: SecurityIntent = async ({ context }, session) => {
  const { operator, store } = session;
  // Already on (a second tab, a resent post): said first, as it changes nothing.
  if ((await store.totpFactor(operator.id))?.confirmedAt) return answer({ error: copy.alreadyOn }, 409);
  await requireFreshToAddFactor(session, securityPage, context.services.config);
  const secret = newTotpSecret();
  if (!(await store.startTotp(operator.id, secret))) return answer({ error: copy.alreadyOn }, 409);
  return answer({ setup: setupOf(secret, operator.email) });
};

/**
 * "Confirm" (step-up first, as for starting): a right code from the app turns the codes on (its step is used up: it
 * cannot log in again), makes ten recovery codes, and is announced like a new login. It is not this session's second
 * factor passed (adding one never makes the factor fresh); an operator who had to set one up goes on to
 * the inbox at once, under a new session id.
 */
const confirm: SecurityIntent = async ({ request, context }, session, form) => {
  const { operator, store, sessionIdHash } = session;
  const pending = await store.totpFactor(operator.id);
  if (!pending) return answer({ error: copy.notStarted }, 409);
  // A resent post after the set-up (a reload of its answer): said first, as it changes nothing.
  if (pending.confirmedAt) return answer({ error: copy.alreadyOn }, 409);
  await requireFreshToAddFactor(session, securityPage, context.services.config);
  const typed = String(form.get("code") ?? "")
    .replace(/\s/g, "")
    .slice(0, 64);
  const setup = setupOf(pending.secret, operator.email);
  if (!typed) return answer({ setup, error: copy.noCode }, 400);
  const now = new Date();
  const step = totpStepOf(pending.secret, typed, now);
  if (step === null || !(await store.takeTotpStep(operator.id, step, { confirm: true, now }))) {
    return answer({ setup, error: copy.wrongCode }, 400);
  }
  const recoveryCodes = newRecoveryCodes();
  await store.replaceRecoveryCodes(
    operator.id,
    recoveryCodes.map((code) => recoveryCodeHash(operator.id, code)),
  );
  // The first factor set up: the session's stage changes (setup → full), so it goes on under a new id.
  const renewed = session.stage === "setup" ? renewedSession(context) : undefined;
  const setUp = renewed ? await store.finishSetup(sessionIdHash, renewed.idHash) : false;
  await store.logActivity(
    { actor: operator.email, action: "one-time codes set up", detail: from(context.peerAddress) },
    now,
  );
  await announceFactorAdded(request, context, operator, { kind: "codes-added" }, now);
  return answer(
    { recoveryCodes, justSetUp: true, notice: copy.done },
    200,
    setUp && renewed ? { "Set-Cookie": renewed.cookie } : {},
  );
};

/** "Make new recovery codes": ten new ones replace every old one (step-up first). */
const newRecovery: SecurityIntent = async ({ context }, session) => {
  await requireRecentFactor(session, securityPage);
  const { operator, store } = session;
  const totp = await store.totpFactor(operator.id);
  if (!totp?.confirmedAt) return answer({ error: copy.notStarted }, 409);
  const recoveryCodes = newRecoveryCodes();
  await store.replaceRecoveryCodes(
    operator.id,
    recoveryCodes.map((code) => recoveryCodeHash(operator.id, code)),
  );
  await store.logActivity({
    actor: operator.email,
    action: "new recovery codes made",
    detail: from(context.peerAddress),
  });
  return answer({ recoveryCodes, notice: copy.newRecoveryDone });
};

/**
 * "Remove one-time codes" (step-up first): the secret and the recovery codes are deleted. Refused while they are the
 * operator's only factor and the inbox requires one (INBOX_REQUIRE_2FA): a passkey has to be added first.
 */
const remove: SecurityIntent = async ({ context }, session) => {
  await requireRecentFactor(session, securityPage);
  const { operator, store } = session;
  const required = context.services.config.requireSecondFactor !== false;
  const totp = await store.totpFactor(operator.id);
  if (totp?.confirmedAt && required && (await store.listPasskeys(operator.id)).length === 0) {
    return answer({ error: copy.lastFactor }, 409);
  }
  if (await store.removeTotp(operator.id)) {
    await store.logActivity({
      actor: operator.email,
      action: "one-time codes removed",
      detail: from(context.peerAddress),
    });
  }
  return answer({ notice: copy.removed });
};

export const codeIntents: Record<string, SecurityIntent> = {
  "totp-start": start,
  "totp-confirm": confirm,
  "recovery-new": newRecovery,
  "totp-remove": remove,
};
