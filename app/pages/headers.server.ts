/**
 * Response headers for HTML documents: a strict Content-Security-Policy that admits exactly the document's own
 * inline scripts by their hashes, the usual hardening headers, and the cache policy. Kept pure so the unit tests
 * can read it directly.
 */
function directivesWith(scriptSources: string[], dev: boolean): Record<string, string[]> {
  return {
    "default-src": ["'self'"],
    "script-src": ["'self'", ...scriptSources],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    // Remix's dev server pushes live reloads over a WebSocket on its own port.
    "connect-src": dev ? ["'self'", "ws://localhost:*", "ws://127.0.0.1:*"] : ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
}

/** `scriptHashes` are CSP sources (`'sha256-…'`) of the inline scripts of the bytes that are sent. */
export function contentSecurityPolicy(scriptHashes: string[], { dev = false } = {}): string {
  return Object.entries(directivesWith(scriptHashes, dev))
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

export const hardeningHeaders = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  "Cross-Origin-Opener-Policy": "same-origin",
  "X-Frame-Options": "DENY",
} as const;

export function applyHardeningHeaders(headers: Headers): void {
  for (const [name, value] of Object.entries(hardeningHeaders)) headers.set(name, value);
}

/** GET and HEAD: the only requests whose answers may be cached. */
export const isSafeMethod = (method: string) => method === "GET" || method === "HEAD";

/**
 * Pages anyone may share. Browsers keep them but ask again each time (max-age=0; the ETag makes that a 304), so a
 * deploy never leaves a visitor on HTML that names /build/ files the new version no longer has. Shared caches (a
 * CDN) keep them five minutes and may serve a copy up to a minute older while they fetch a new one. `no-transform`:
 * the CSP hashes and the ETag describe these exact bytes, so nothing in between may rewrite them.
 */
export const pageCacheControl = "public, max-age=0, s-maxage=300, stale-while-revalidate=60, no-transform";
export const noStore = "no-store";

export function applyDocumentHeaders(
  headers: Headers,
  {
    scriptHashes,
    method,
    status,
    dev = false,
  }: { scriptHashes: string[]; method: string; status: number; dev?: boolean },
): void {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Content-Security-Policy", contentSecurityPolicy(scriptHashes, { dev }));
  applyHardeningHeaders(headers);
  // A route may already have asked for no-store (for example a page that shows a visitor's own status).
  const shareable = isSafeMethod(method) && (status === 200 || status === 404) && !dev;
  const cacheControl = headers.get("Cache-Control") ?? (shareable ? pageCacheControl : noStore);
  headers.set("Cache-Control", /\bno-transform\b/.test(cacheControl) ? cacheControl : `${cacheControl}, no-transform`);
}
