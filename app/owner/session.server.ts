import { createHash, randomBytes } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/react";
import type { Config } from "~/config.server";
import { StoreUnavailableError } from "~/store/sql.server";
import type { InboxStore, Operator } from "~/store/types";

/**
 * The owner's inbox's gate: only in embedded mode, only for a logged-in operator. (A cross-site post never reaches an
 * action: app/http/admit.server.ts.)
 * Sessions live in the database (every instance accepts them); the cookie holds a random id of 256 bits and the
 * database only its SHA-256, so a copy of the database opens no session.
 */

/** A session ends 30 minutes after its last use, and 12 hours after the login at the latest. */
export const sessionLimits = { idleMs: 30 * 60_000, maxAgeMs: 12 * 60 * 60_000 } as const;
/** After this many failed logins for one account from one client address within the window: 429 until it passes. */
export const loginThrottle = { failures: 5, windowMs: 15 * 60_000 } as const;

const secure = (config: Config) => new URL(config.publicUrl).protocol === "https:";
/** `__Host-`: the browser keeps it only when Secure, Path=/ and no Domain, so no sub-domain can set or widen it. */
export const sessionCookieName = (config: Config) => (secure(config) ? "__Host-inbox_session" : "inbox_session");

export const hashSessionId = (id: string) => createHash("sha256").update(id).digest("hex");
export const newSessionId = () => randomBytes(32).toString("base64url");

export function sessionCookie(config: Config, id: string): string {
  const maxAge = Math.floor(sessionLimits.maxAgeMs / 1000);
  return `${sessionCookieName(config)}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure(config) ? "; Secure" : ""}`;
}

export const clearedSessionCookie = (config: Config) =>
  `${sessionCookieName(config)}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure(config) ? "; Secure" : ""}`;

/** The session id the request's cookie carries (a well-formed one only). */
export function sessionIdOf(request: Request, config: Config): string | undefined {
  const name = sessionCookieName(config);
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) {
      const id = value.join("=");
      return /^[A-Za-z0-9_-]{43}$/.test(id) ? id : undefined;
    }
  }
  return undefined;
}

/** The inbox's headers: never indexed, never kept by a browser or a cache. */
export const privateHeaders = { "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "no-store" } as const;

const plain = (status: number, text: string) =>
  new Response(text, { status, headers: { ...privateHeaders, "Content-Type": "text/plain; charset=utf-8" } });

/** With API_HOST the site has no inbox: its paths are unknown (404, the site's not-found page). */
export function requireEmbedded(context: AppLoadContext): void {
  if (context.services.config.apiHost) throw new Response(null, { status: 404, headers: privateHeaders });
}

/** A database that does not answer becomes a 503 that says so in words (anything else is rethrown). */
export function unavailable(error: unknown): never {
  if (error instanceof StoreUnavailableError)
    throw plain(503, "The inbox database is not reachable right now. Try again in a minute.");
  throw error;
}

/**
 * The open inbox database, or that 503. Every call on it that the database cannot answer becomes that 503 too, so an
 * outage during a page's work is said in words rather than ending in the error page's 500.
 */
export function inboxStore(context: AppLoadContext): InboxStore {
  let store: InboxStore;
  try {
    store = context.services.inbox();
  } catch (error) {
    return unavailable(error);
  }
  return new Proxy(store, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result: unknown = value.apply(target, args);
        return result instanceof Promise ? result.catch(unavailable) : result;
      };
    },
  });
}

export interface OperatorSession {
  operator: Operator;
  store: InboxStore;
  sessionIdHash: string;
}

/** The logged-in operator, or a redirect to the login page (which comes back here afterwards). */
export async function requireOperator(request: Request, context: AppLoadContext): Promise<OperatorSession> {
  requireEmbedded(context);
  const { config } = context.services;
  const store = inboxStore(context);
  const id = sessionIdOf(request, config);
  const session = id ? await store.useSession(hashSessionId(id), sessionLimits) : null;
  if (!session || !id) {
    const url = new URL(request.url);
    const back = request.method === "GET" ? `?next=${encodeURIComponent(url.pathname + url.search)}` : "";
    throw redirect(`/inbox/login${back}`, {
      headers: { ...privateHeaders, ...(id ? { "Set-Cookie": clearedSessionCookie(config) } : {}) },
    });
  }
  return { operator: session.operator, store, sessionIdHash: hashSessionId(id) };
}

/** Where to go after the login: an inbox path only (never another site, never `//host`). */
export function safeNext(value: string | null): string {
  return value && /^\/inbox(?:[/?]|$)/.test(value) && !value.includes("\\") ? value : "/inbox";
}
