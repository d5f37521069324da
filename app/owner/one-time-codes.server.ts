import { createHmac, randomInt } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";
import type { FactorStore } from "~/store/factors.types";

/**
 * One-time codes (TOTP, RFC 6238: SHA-1, 6 digits, 30 s) and recovery codes. A code is accepted for the step before,
 * the step of and the step after now (a phone's clock a little off), and never twice: the store takes each step once,
 * atomically, for every instance. Recovery codes are stored as keyed hashes and used once.
 */

export const totpSettings = { algorithm: "SHA1", digits: 6, period: 30 } as const;

/** A new secret: 160 bits (RFC 4226's recommended length), upper-case base32. */
export const newTotpSecret = () => new Secret({ size: 20 }).base32;

/** The secret as the owner types it into an app: upper-case base32 in groups of four. */
export const groupedSecret = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

const totpFor = (secret: string, issuer = "", label = "") =>
  new TOTP({ ...totpSettings, issuer, label, secret: Secret.fromBase32(secret) });

/** The otpauth:// URI an authenticator app reads from the QR code. */
export const otpauthUri = (secret: string, issuer: string, account: string) =>
  totpFor(secret, issuer, account).toString();

/**
 * The otpauth:// URI as a QR code, drawn here as SVG markup (no outside service, no script, no style attribute: the
 * page's CSP allows it inline). Dark modules on white with a quiet zone of four modules (ISO/IEC 18004), error
 * correction M so a phone reads it off a dim or scratched screen.
 */
export const otpauthQrSvg = (uri: string) =>
  renderSVG(uri, { border: 4, ecc: "M", pixelSize: 8, whiteColor: "#ffffff", blackColor: "#000000" });

/** The 30 s step a right code belongs to (now's, or one either side), or null when it is not right. */
export function totpStepOf(secret: string, code: string, now = new Date()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret).validate({ token: code, timestamp: now.getTime(), window: 1 });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / totpSettings.period) + delta;
}

/** Ten codes of 10 characters from 31 (49.5 bits each, drawn without bias) in two groups: "k7q2m-x9d4t". */
export const recoveryCodeCount = 10;
const recoveryAlphabet = "abcdefghjkmnpqrstuvwxyz23456789";

export function newRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () => {
    const chars = Array.from({ length: 10 }, () => recoveryAlphabet[randomInt(recoveryAlphabet.length)]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What a code is compared by: lower case, without spaces or dashes (as typed from a list, or from a phone). */
const normalised = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");

/** A recovery code's stored form: keyed by the operator, so equal codes of two operators never match each other. */
export const recoveryCodeHash = (operatorId: string, code: string) =>
  createHmac("sha256", `recovery:${operatorId}`).update(normalised(code)).digest("hex");

export type CodeKind = "totp" | "recovery";

/**
 * Checks what was typed in the Code field: six digits are a one-time code, anything else a recovery code. Resolves
 * with which one was accepted (and used up), or null.
 */
export async function takeSecondFactorCode(
  store: FactorStore,
  operatorId: string,
  typed: string,
  now = new Date(),
): Promise<CodeKind | null> {
  const code = typed.replace(/\s/g, "");
  if (/^\d{6}$/.test(code)) {
    const factor = await store.totpFactor(operatorId);
    if (!factor?.confirmedAt) return null;
    const step = totpStepOf(factor.secret, code, now);
    return step !== null && (await store.takeTotpStep(operatorId, step, { now })) ? "totp" : null;
  }
  if (normalised(code).length !== 10) return null;
  return (await store.takeRecoveryCode(operatorId, recoveryCodeHash(operatorId, code), now)) ? "recovery" : null;
}
