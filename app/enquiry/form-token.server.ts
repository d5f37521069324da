import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { SiteServices } from "~/site-services.server";
import type { EnquiryStore } from "~/store/enquiries.types";

/**
 * The contact form's signed token: `<served time in ms>.<random id>.<HMAC-SHA256 of both>`, base64url. It proves the
 * post came from a form this site served, when, and (with the used-token record in the database) only once. The key
 * is generated once and kept in the database (every instance shares it; nothing to configure). See ADR 0013.
 */

/** What is wrong with a post's form token; the spam filter weighs it (app/enquiry/spam.server.ts). */
export type FormTokenProblem = "missing" | "forged" | "expired" | "used" | "too-fast";

/** A token older than this counts against the post. */
export const formTokenMaxAgeMs = 24 * 60 * 60_000;
/** Nobody reads the form, types a name, an address and a message in less than this. */
export const formTokenMinAgeMs = 3_000;

const sign = (key: Buffer, payload: string) => createHmac("sha256", key).update(payload).digest("base64url");

export function issueFormToken(key: Buffer, now = new Date()): string {
  const payload = `${now.getTime()}.${randomBytes(12).toString("base64url")}`;
  return `${payload}.${sign(key, payload)}`;
}

/** What the signature and the clock say; `id` (to be recorded as used) only for a genuine token. */
export type FormTokenCheck =
  { problem: FormTokenProblem; id?: string; expiresAt?: Date } | { problem?: undefined; id: string; expiresAt: Date };

export function checkFormToken(token: unknown, key: Buffer, now = new Date()): FormTokenCheck {
  if (typeof token !== "string" || token === "") return { problem: "missing" };
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { problem: "forged" };
  const [, servedAt, id, signature] = match;
  const expected = Buffer.from(sign(key, `${servedAt}.${id}`));
  if (!timingSafeEqual(expected, Buffer.from(signature!))) return { problem: "forged" };
  const age = now.getTime() - Number(servedAt);
  const expiresAt = new Date(Number(servedAt) + formTokenMaxAgeMs);
  if (age > formTokenMaxAgeMs) return { problem: "expired" };
  // Too fast (or from the future: a clock that went back counts as fast); still recorded, so it cannot be posted again.
  if (age < formTokenMinAgeMs) return { problem: "too-fast", id: id!, expiresAt };
  return { id: id!, expiresAt };
}

const formTokenKeyName = "form-token";
const keys = new WeakMap<EnquiryStore, Promise<Buffer>>();

/** The key from the database, read once per open store (it never changes). */
function formTokenKey(store: EnquiryStore): Promise<Buffer> {
  let key = keys.get(store);
  if (!key) {
    key = store.siteKey(formTokenKeyName);
    keys.set(store, key);
    key.catch(() => keys.delete(store)); // asked again next time
  }
  return key;
}

/** A token for a form being served now. */
export async function newFormToken(store: EnquiryStore, now = new Date()): Promise<string> {
  return issueFormToken(await formTokenKey(store), now);
}

/** What counts against a post's token, if anything; a genuine token is recorded as used (once, for every instance). */
export async function formTokenProblem(
  store: EnquiryStore,
  token: unknown,
  now = new Date(),
): Promise<FormTokenProblem | undefined> {
  const check = checkFormToken(token, await formTokenKey(store), now);
  if (check.id && check.expiresAt && !(await store.useFormToken(check.id, check.expiresAt))) return "used";
  return check.problem;
}

/**
 * The token for a contact form being rendered now: empty with an upstream API (it does its own checks) or while the
 * inbox database cannot be reached (the post is then refused with "try again later" anyway).
 */
export async function formTokenForPage(services: SiteServices): Promise<string> {
  if (services.config.apiHost) return "";
  try {
    return await newFormToken(services.inbox());
  } catch {
    return "";
  }
}
