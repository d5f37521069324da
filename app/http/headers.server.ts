/**
 * Response headers for HTML documents: a strict Content-Security-Policy with a fresh nonce per request, the usual
 * hardening headers, and the cache policy. Kept pure so the unit tests can read it directly.
 */
function policyAround(nonceSource: string, dev: boolean): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", nonceSource],
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
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

// Only the nonce changes from one document to the next: the text around it is built once.
const NONCE_SLOT = "'nonce-\u0000'";
const policyParts = {
  production: policyAround(NONCE_SLOT, false).split(NONCE_SLOT),
  dev: policyAround(NONCE_SLOT, true).split(NONCE_SLOT),
};

export function contentSecurityPolicy(nonce: string, { dev = false } = {}): string {
  const [before, after] = dev ? policyParts.dev : policyParts.production;
  return `${before}'nonce-${nonce}'${after}`;
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

/** Short public caching for pages anyone may share; never for a response to a post or an error. */
export const pageCacheControl = "public, max-age=300";
export const noStore = "no-store";

export function applyDocumentHeaders(
  headers: Headers,
  { nonce, method, status, dev = false }: { nonce: string; method: string; status: number; dev?: boolean },
): void {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, { dev }));
  applyHardeningHeaders(headers);
  // A route may already have asked for no-store (for example a page that shows a visitor's own status).
  if (!headers.has("Cache-Control")) {
    const shareable = isSafeMethod(method) && (status === 200 || status === 404);
    headers.set("Cache-Control", shareable && !dev ? pageCacheControl : noStore);
  }
}
