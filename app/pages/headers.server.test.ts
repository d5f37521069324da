import { describe, expect, it } from "vitest";
import {
  applyDocumentHeaders,
  contentSecurityPolicy,
  hardeningHeaders,
  noStore,
  pageCacheControl,
} from "~/pages/headers.server";

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
  const hashes = ["'sha256-aGFzaC1vZi1vbmU='", "'sha256-aGFzaC1vZi10d28='"];
  const csp = directives(contentSecurityPolicy(hashes));

  it("allows scripts only from self and the document's own inline scripts, by hash, with no nonce", () => {
    expect(csp["script-src"]).toEqual(["'self'", ...hashes]);
    expect(contentSecurityPolicy(hashes)).not.toContain("nonce");
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

  it("uses the hashes it is given, so each document admits only its own scripts", () => {
    expect(contentSecurityPolicy(["'sha256-AAAA'"])).toContain("script-src 'self' 'sha256-AAAA';");
    expect(contentSecurityPolicy(["'sha256-AAAA'"])).not.toContain(hashes[0]);
    expect(contentSecurityPolicy(hashes)).toBe(contentSecurityPolicy(hashes));
  });

  it("opens the live-reload WebSocket only in development", () => {
    expect(csp["connect-src"]).toEqual(["'self'"]);
    const dev = directives(contentSecurityPolicy(hashes, { dev: true }));
    expect(dev["connect-src"]).toEqual(expect.arrayContaining(["'self'", "ws://localhost:*"]));
    expect(dev["script-src"]).toEqual(csp["script-src"]);
  });
});

describe("applyDocumentHeaders", () => {
  const apply = (options: { method: string; status: number; dev?: boolean }, initial: HeadersInit = {}) => {
    const headers = new Headers(initial);
    applyDocumentHeaders(headers, { scriptHashes: ["'sha256-AAAA'"], ...options });
    return headers;
  };

  it("sets HTML content type, the CSP with the hashes and every hardening header", () => {
    const headers = apply({ method: "GET", status: 200 });
    expect(headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(headers.get("Content-Security-Policy")).toBe(contentSecurityPolicy(["'sha256-AAAA'"]));
    for (const [name, value] of Object.entries(hardeningHeaders)) expect(headers.get(name), name).toBe(value);
    expect(headers.get("X-Frame-Options")).toBe("DENY");
    expect(headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it.each([
    ["GET", 200],
    ["HEAD", 200],
    ["GET", 404],
  ])("lets shared caches keep a %s %i while browsers revalidate it", (method, status) => {
    expect(apply({ method, status }).get("Cache-Control")).toBe(pageCacheControl);
    const directives = Object.fromEntries(pageCacheControl.split(", ").map((d) => d.split("=")));
    expect(directives).toEqual({
      public: undefined,
      "max-age": "0",
      "s-maxage": expect.stringMatching(/^[1-9]\d*$/),
      "stale-while-revalidate": expect.stringMatching(/^[1-9]\d*$/),
      "no-transform": undefined,
    });
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
    expect(apply({ method, status }).get("Cache-Control")).toBe(`${noStore}, no-transform`);
  });

  it("never caches in development", () => {
    expect(apply({ method: "GET", status: 200, dev: true }).get("Cache-Control")).toBe(`${noStore}, no-transform`);
  });

  it("keeps a Cache-Control the route already chose, and asks every cache not to change the bytes", () => {
    expect(apply({ method: "GET", status: 200 }, { "Cache-Control": "no-store" }).get("Cache-Control")).toBe(
      "no-store, no-transform",
    );
    expect(apply({ method: "GET", status: 200 }, { "Cache-Control": "private, max-age=0" }).get("Cache-Control")).toBe(
      "private, max-age=0, no-transform",
    );
  });
});
