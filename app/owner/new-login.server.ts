import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import type { Config } from "~/config.server";
import { clientKey } from "~/http/rate-limit.server";
import { describeBrowser } from "~/owner/browser";
import type { Operator } from "~/store/owner.types";
import { inboxStore } from "~/owner/gate.server";
import { randomIdCookie } from "~/owner/session.server";

/**
 * The owner hears about logins: each browser that logs in gets a long-lived random id in a cookie of its own (the
 * database keeps only its SHA-256 per operator), and a login from a browser not seen before for that operator stores
 * one "New login to the inbox" alert per configured channel, which the background sender delivers
 * (server/owner-alerts-loop.ts). The cookie only tells browsers apart: it opens nothing and decides nothing else.
 */

/** About 400 days: the longest a browser keeps a cookie (Chrome caps Max-Age there). */
export const browserCookieMaxAgeSeconds = 400 * 24 * 60 * 60;

const secure = (config: Config) => new URL(config.publicUrl).protocol === "https:";
/** `__Host-`: the browser keeps it only when Secure, Path=/ and no Domain, so no sub-domain can set or widen it. */
export const browserCookieName = (config: Config) => (secure(config) ? "__Host-inbox_browser" : "inbox_browser");

export const hashBrowserId = (id: string) => createHash("sha256").update(id).digest("hex");

/** SameSite=Lax: it names the browser; the session cookie (Strict) is what opens anything. */
export function browserCookie(config: Config, id: string): string {
  return (
    `${browserCookieName(config)}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${browserCookieMaxAgeSeconds}` +
    (secure(config) ? "; Secure" : "")
  );
}

/** The browser id the request's cookie carries (a well-formed one only). */
export const browserIdOf = (request: Request, config: Config) => randomIdCookie(request, browserCookieName(config));

/**
 * Call at every successful login (password or passkey), once the operator is known: remembers this browser for the
 * operator and, when it had not been seen before, stores one alert per configured channel and wakes the sender.
 * Resolves with the browser cookie's Set-Cookie value (always sent again, so its 400 days run from the last login).
 */
export async function noteLogin(
  request: Request,
  context: AppLoadContext,
  operator: Pick<Operator, "id" | "email">,
  now = new Date(),
): Promise<string> {
  const { config } = context.services;
  const store = inboxStore(context);
  const id = browserIdOf(request, config) ?? randomBytes(32).toString("base64url");
  const isNew = await store.rememberBrowser(operator.id, hashBrowserId(id), now);
  if (isNew) {
    const channels = context.services.channels();
    await store.queueOwnerAlert(
      {
        id: randomUUID(),
        operatorEmail: operator.email,
        at: now,
        browser: describeBrowser(request.headers.get("User-Agent")),
        address: context.peerAddress ? clientKey(context.peerAddress) : "unknown",
      },
      channels,
    );
    await store.logActivity(
      {
        actor: operator.email,
        action: "login from a new browser",
        detail: channels.length > 0 ? `announced by ${channels.join(" and ")}` : "no notification channel configured",
      },
      now,
    );
    if (channels.length > 0) context.services.wakeOwnerAlerts?.();
  }
  return browserCookie(config, id);
}

/**
 * A factor added to the operator's account (a passkey, one-time codes) is announced on the same channels as a login
 * from a new browser, whichever browser added it: with a stolen session someone could add their own and come back
 * later, so the owner must hear of it.
 */
export async function announceFactorAdded(
  request: Request,
  context: AppLoadContext,
  operator: Pick<Operator, "email">,
  added: { kind: "passkey-added"; name: string } | { kind: "codes-added" },
  now = new Date(),
): Promise<void> {
  const channels = context.services.channels();
  if (channels.length === 0) return;
  await inboxStore(context).queueOwnerAlert(
    {
      id: randomUUID(),
      operatorEmail: operator.email,
      at: now,
      browser: describeBrowser(request.headers.get("User-Agent")),
      address: context.peerAddress ? clientKey(context.peerAddress) : "unknown",
      kind: added.kind,
      detail: added.kind === "passkey-added" ? added.name : null,
    },
    channels,
  );
  context.services.wakeOwnerAlerts?.();
}
