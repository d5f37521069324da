/**
 * Response headers for HTML documents: a strict Content-Security-Policy with a fresh nonce per request, the usual
 * hardening headers, and the cache policy. Kept pure so the unit tests can read it directly.
 */
export function contentSecurityPolicy(nonce: string, { dev = false } = {}): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${nonce}'`],
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

export const hardeningHeaders = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  "Cross-Origin-Opener-Policy": "same-origin",
  "X-Frame-Options": "DENY",
} as const;

/** Short public caching for pages anyone may share; never for a response to a post or an error. */
export const pageCacheControl = "public, max-age=300";
export const noStore = "no-store";

export function applyDocumentHeaders(
  headers: Headers,
  { nonce, method, status, dev = false }: { nonce: string; method: string; status: number; dev?: boolean },
): void {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, { dev }));
  for (const [name, value] of Object.entries(hardeningHeaders)) headers.set(name, value);
  // A route may already have asked for no-store (for example a page that shows a visitor's own status).
  if (!headers.has("Cache-Control")) {
    const shareable = (method === "GET" || method === "HEAD") && (status === 200 || status === 404);
    headers.set("Cache-Control", shareable && !dev ? pageCacheControl : noStore);
  }
}
