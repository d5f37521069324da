import { describe, expect, it } from "vitest";
import { applyDocumentHeaders, contentSecurityPolicy, hardeningHeaders, noStore, pageCacheControl } from "~/http/headers.server";

/** "a b; c d" -> { a: ["b"], c: ["d"] } */
function directives(policy: string): Record<string, string[]> {
  const parsed: Record<string, string[]> = {};
  for (const part of policy.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (!name) continue;
    expect(parsed, `directive ${name} appears once`).not.toHaveProperty(name);
    parsed[name] = values;
  }
  return parsed;
}

describe("contentSecurityPolicy", () => {
  const nonce = "bm9uY2Utb2YtdGVzdA==";
  const csp = directives(contentSecurityPolicy(nonce));

  it("allows scripts only from self and with the request's nonce", () => {
    expect(csp["script-src"]).toEqual(["'self'", `'nonce-${nonce}'`]);
  });

  it("allows no inline script or style and no eval anywhere", () => {
    for (const [name, values] of Object.entries(csp)) {
      expect(values, name).not.toContain("'unsafe-inline'");
      expect(values, name).not.toContain("'unsafe-eval'");
      expect(values, name).not.toContain("*");
    }
  });

  it("locks down plugins, base URI, framing and form targets", () => {
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["base-uri"]).toEqual(["'self'"]);
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["form-action"]).toEqual(["'self'"]);
    expect(csp["default-src"]).toEqual(["'self'"]);
  });

  it("uses the nonce it is given, so each request can have its own", () => {
    expect(contentSecurityPolicy("AAAA")).toContain("'nonce-AAAA'");
    expect(contentSecurityPolicy("AAAA")).not.toContain(nonce);
  });

  it("opens the live-reload WebSocket only in development", () => {
    expect(csp["connect-src"]).toEqual(["'self'"]);
    const dev = directives(contentSecurityPolicy(nonce, { dev: true }));
    expect(dev["connect-src"]).toEqual(expect.arrayContaining(["'self'", "ws://localhost:*"]));
    expect(dev["script-src"]).toEqual(csp["script-src"]);
  });
});

describe("applyDocumentHeaders", () => {
  const apply = (options: { method: string; status: number; dev?: boolean }, initial: HeadersInit = {}) => {
    const headers = new Headers(initial);
    applyDocumentHeaders(headers, { nonce: "n0nce", ...options });
    return headers;
  };

  it("sets HTML content type, the CSP with the nonce and every hardening header", () => {
    const headers = apply({ method: "GET", status: 200 });
    expect(headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(headers.get("Content-Security-Policy")).toBe(contentSecurityPolicy("n0nce"));
    for (const [name, value] of Object.entries(hardeningHeaders)) expect(headers.get(name), name).toBe(value);
    expect(headers.get("X-Frame-Options")).toBe("DENY");
    expect(headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it.each([
    ["GET", 200],
    ["HEAD", 200],
    ["GET", 404],
  ])("lets a %s %i be cached publicly for a short time", (method, status) => {
    expect(apply({ method, status }).get("Cache-Control")).toBe(pageCacheControl);
    expect(pageCacheControl).toMatch(/^public, max-age=\d+$/);
  });

  it.each([
    ["POST", 200],
    ["POST", 400],
    ["POST", 413],
    ["POST", 502],
    ["GET", 500],
    ["GET", 400],
    ["GET", 503],
  ])("never stores a %s answered with %i", (method, status) => {
    expect(apply({ method, status }).get("Cache-Control")).toBe(noStore);
  });

  it("never caches in development", () => {
    expect(apply({ method: "GET", status: 200, dev: true }).get("Cache-Control")).toBe(noStore);
  });

  it("keeps a Cache-Control the route already chose", () => {
    expect(apply({ method: "GET", status: 200 }, { "Cache-Control": "no-store" }).get("Cache-Control")).toBe("no-store");
    expect(apply({ method: "GET", status: 200 }, { "Cache-Control": "private, max-age=0" }).get("Cache-Control")).toBe("private, max-age=0");
  });
});
