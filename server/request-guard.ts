import type { IncomingMessage, ServerResponse } from "node:http";
import { canonicalPath } from "~/http/canonical-path";

/**
 * Checks what the HTTP layer hands to Remix, before Remix sees it. Remix's Express adapter builds the request URL from
 * the Host and X-Forwarded-Host headers and the path, and throws (a 500) on a value it cannot parse; its check that a
 * form post comes from the site's own origin also throws. Here those become plain 4xx answers, and X-Forwarded-Host
 * is dropped: which host the site is never comes from a request (PUBLIC_URL names it).
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

/**
 * For a post: the Origin a browser sent must be this host's, as Remix's own check demands (it compares the Origin's
 * host with the Host header). No Origin (a script or an old browser) passes, as it does in Remix.
 */
export function isSameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (origin === "null" || host === undefined) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

export function checkRequest({
  method,
  url,
  host,
  origin,
}: {
  method: string;
  url: string;
  host: string | undefined;
  origin: string | undefined;
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
  if (method === "POST" && !isSameOrigin(origin, host)) {
    return {
      status: 403,
      message:
        "Forbidden: this form can only be sent from the site's own pages. If you used the site's form, the proxy in " +
        "front of it must pass the browser's Host header on unchanged.",
    };
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
  const origin = req.headers.origin;
  const refusal = checkRequest({ method: req.method ?? "", url: req.url ?? "", host: req.headers.host, origin });
  freeConnectionAfterResponse(req, res);
  if (!refusal) {
    // Remix compares the Origin with the Host as given; a host is case-insensitive.
    if (req.headers.host) req.headers.host = req.headers.host.toLowerCase();
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
 * A body nobody read (a post to a page without an action, a refusal) would stall the next request on this keep-alive
 * connection: Node reads it away only when nothing ever started reading it, and Remix's adapter has. Once the answer is
 * sent, the rest is read and dropped; an endless one is cut off by the server's requestTimeout.
 */
function freeConnectionAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  res.once("finish", () => {
    if (req.complete || req.destroyed) return;
    req.removeAllListeners("data");
    req.on("data", () => {});
    req.resume();
  });
}
