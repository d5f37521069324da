import { createHash, randomBytes } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import type { Config } from "~/config.server";

/**
 * The owner's session: a cookie and a database row. Sessions live in the database (every instance accepts them); the
 * cookie holds a random id of 256 bits and the database only its SHA-256, so a copy of the database opens no session.
 */

/** A session ends 30 minutes after its last use, and 12 hours after the login at the latest. */
export const sessionLimits = { idleMs: 30 * 60_000, maxAgeMs: 12 * 60 * 60_000 } as const;

const secure = (config: Config) => new URL(config.publicUrl).protocol === "https:";
/** `__Host-`: the browser keeps it only when Secure, Path=/ and no Domain, so no sub-domain can set or widen it. */
export const sessionCookieName = (config: Config) => (secure(config) ? "__Host-inbox_session" : "inbox_session");

export const hashSessionId = (id: string) => createHash("sha256").update(id).digest("hex");
export const newSessionId = () => randomBytes(32).toString("base64url");

/**
 * A new id for a session changing stage (password → full, setup → full): the store moves the row to `idHash`, the
 * browser gets `cookie`, and a copy of the old id taken before opens nothing afterwards.
 */
export function renewedSession(context: AppLoadContext): { idHash: string; cookie: string } {
  const id = newSessionId();
  // The loaders that run after this action in the same request (a page's data) find the session under its new id.
  context.renewedSessionId = id;
  return { idHash: hashSessionId(id), cookie: sessionCookie(context.services.config, id) };
}

export function sessionCookie(config: Config, id: string): string {
  const maxAge = Math.floor(sessionLimits.maxAgeMs / 1000);
  return `${sessionCookieName(config)}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure(config) ? "; Secure" : ""}`;
}

export const clearedSessionCookie = (config: Config) =>
  `${sessionCookieName(config)}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure(config) ? "; Secure" : ""}`;

/** The random id (256 bits, base64url) a request's cookie of this name carries; a malformed one is none. */
export function randomIdCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) {
      const id = value.join("=");
      return /^[A-Za-z0-9_-]{43}$/.test(id) ? id : undefined;
    }
  }
  return undefined;
}

/** The session id the request's cookie carries (a well-formed one only). */
export const sessionIdOf = (request: Request, config: Config) => randomIdCookie(request, sessionCookieName(config));
