import type { IncomingMessage, ServerResponse } from "node:http";
import { canonicalPath } from "~/http/canonical-path";
import { isCrossSite } from "~/http/cross-site";

/**
 * Checks what the HTTP layer hands to Remix, before Remix sees it. Remix's Express adapter builds the request URL from
 * the Host and X-Forwarded-Host headers and the path, and throws (a 500) on a value it cannot parse: here those become
 * plain 4xx answers. Its check that a form post comes from the site's own origin also throws: here a cross-site post
 * is marked for the actions' own refusal with a plain message (markCrossSite). X-Forwarded-Host is dropped: which host the site
 * is never comes from a request (PUBLIC_URL names it).
 */

export interface Refusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

export const allowedMethods = ["GET", "HEAD", "POST"] as const;

// A DNS name or IPv4 address (underscores allowed: container service names use them), or a bracketed IPv6 address,
// each with an optional port.
const hostPattern =
  /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

export function isValidHost(host: string): boolean {
  const match = hostPattern.exec(host);
  if (match === null || (match[1] !== undefined && Number(match[1]) > 65535)) return false;
  // The pattern lets through what the URL parser still refuses (1.2.3.999, [1:2:3]); Remix builds a URL from it.
  try {
    new URL(`http://${host}/`);
    return true;
  } catch {
    return false;
  }
}

/** A path Remix can route: it starts with "/", decodes, and holds no backslash or control character once decoded. */
export function isValidPath(url: string): boolean {
  if (!url.startsWith("/")) return false;
  const path = url.split(/[?#]/, 1)[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  // eslint-disable-next-line no-control-regex
  return !/[\\\u0000-\u001f\u007f]/.test(decoded);
}

/** A request target's path and its query string (without the "?"; "" when none). */
function splitTarget(url: string): [string, string] {
  const target = url.split("#", 1)[0]!;
  const at = target.indexOf("?");
  return at === -1 ? [target, ""] : [target.slice(0, at), target.slice(at + 1)];
}

/** "https" or "http, https" (one per proxy hop). */
export function isValidForwardedProto(value: string): boolean {
  return value.split(",").every((part) => /^\s*https?\s*$/i.test(part));
}

export function checkRequest({
  method,
  url,
  host,
}: {
  method: string;
  url: string;
  host: string | undefined;
}): Refusal | null {
  if (!(allowedMethods as readonly string[]).includes(method)) {
    return { status: 405, message: "Method Not Allowed", headers: { Allow: allowedMethods.join(", ") } };
  }
  if (host !== undefined && !isValidHost(host)) return { status: 400, message: "Bad Request: malformed Host header" };
  if (!isValidPath(url)) return { status: 400, message: "Bad Request: malformed path" };
  const [path, query] = splitTarget(url);
  // Remix's data requests before single fetch (?_data=): this site asks for /path.data. Answered here, since Remix
  // itself would log a stack trace for each.
  if (new URLSearchParams(query).has("_data")) return { status: 400, message: "Bad Request: ?_data is not used here" };
  const canonical = canonicalPath(path);
  if (canonical !== path) {
    // 308 for a post keeps its method and body; a page is moved for good (301).
    const status = method === "POST" ? 308 : 301;
    return { status, message: `Moved to ${canonical}`, headers: { Location: canonical + (query ? `?${query}` : "") } };
  }
  return null;
}

type Next = () => void;

/** Express middleware: refuses what checkRequest refuses, forgets X-Forwarded-Host, and keeps connections usable. */
export function guardRequest(req: IncomingMessage, res: ServerResponse, next: Next): void {
  delete req.headers["x-forwarded-host"];
  // Believed only behind a trusted proxy (TRUST_PROXY), and then it becomes the request URL's scheme: anything but
  // http or https is dropped rather than allowed to break that URL.
  const proto = req.headers["x-forwarded-proto"];
  if (proto !== undefined && !isValidForwardedProto(String(proto))) delete req.headers["x-forwarded-proto"];
  const refusal = checkRequest({ method: req.method ?? "", url: req.url ?? "", host: req.headers.host });
  freeConnectionAfterResponse(req, res);
  if (!refusal) {
    // Remix compares the Origin with the Host as given; a host is case-insensitive.
    if (req.headers.host) req.headers.host = req.headers.host.toLowerCase();
    markCrossSite(req);
    return next();
  }
  res.writeHead(refusal.status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    ...refusal.headers,
  });
  res.end(`${refusal.message}\n`);
}

/**
 * A post another site started is refused by every action (app/http/admit.server.ts), with a plain message on a page, with
 * JavaScript too. Remix's own check would throw first (a 500) when the Origin is not the Host, so such a post reaches
 * Remix without its Origin and with what the rule found said the way a browser says it: Sec-Fetch-Site: cross-site.
 */
function markCrossSite(req: IncomingMessage): void {
  if (req.method !== "POST") return;
  const crossSite = isCrossSite({
    fetchSite: req.headers["sec-fetch-site"] as string | undefined,
    origin: req.headers.origin,
    host: req.headers.host,
  });
  if (!crossSite) return;
  delete req.headers.origin;
  req.headers["sec-fetch-site"] = "cross-site";
}

/**
 * A body nobody read (a post to a page without an action, a refusal) would stall the next request on this keep-alive
 * connection: Node reads it away only when nothing ever started reading it, and Remix's adapter has. Once the answer is
 * sent, the rest is read and dropped; an endless one is cut off by the server's requestTimeout.
 */
function freeConnectionAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  // A client that asked to close after its post (Connection: close) would otherwise have the socket closed under its
  // unsent body once an early answer (a 413) is out: a reset instead of the answer. The socket stays open until the
  // body is read away; the client closes it then.
  if (req.method === "POST" && !req.complete) res.shouldKeepAlive = true;
  res.once("finish", () => {
    if (req.complete || req.destroyed) return;
    req.removeAllListeners("data");
    req.on("data", () => {});
    req.resume();
  });
}
