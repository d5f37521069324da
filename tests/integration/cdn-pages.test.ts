import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enquiryFieldNames, honeypotField } from "~/enquiry/fields";
import { noStore, pageCacheControl } from "~/pages/headers.server";
import { checkHtml } from "../support/html-checker";
import { startSite, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * The built server's documents as a CDN and a browser get them: valid HTML, a CSP that admits exactly the inline
 * scripts of the bytes sent, byte-identical answers with strong ETags and 304, and the cache policy.
 */

const temp = useTempDir("haunt-cdn-");
const browser = { "Accept-Encoding": "gzip, deflate, br" };
const shared = ["/", "/about", "/privacy"];
/** The contact page carries each visitor's own form token (ADR 0013): never shared, never stored. */
const withToken = ["/contact", "/contact?sent=1"];
/** The page with its token (in the form and in the loader data the page carries) blanked out. */
function withoutToken(html: string): string {
  const token = /name="form_token" value="([^"]+)"/.exec(html)?.[1];
  return token ? html.replaceAll(token, "TOKEN") : html;
}

let site: SiteServer;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.stop();
});

/** A failed post (the security answer left empty), shown again with what the visitor typed. */
const failedPost = () =>
  fetch(`${site.url}/contact`, {
    method: "POST",
    headers: browser,
    body: new URLSearchParams({
      name: "Vera <Visitor>",
      email: "vera@example.com",
      message: 'A coffin that opens.\r\n</script><script>alert("x")</script>',
      security: "",
      [honeypotField]: "",
    }),
  });

/** fetch decodes the body: `bytes` are the page's own, Content-Length tells the encoded size. */
async function get(path: string, headers: Record<string, string> = browser) {
  const response = await fetch(`${site.url}${path}`, { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

const htmlOf = async (response: Response) => Buffer.from(await response.arrayBuffer()).toString("utf8");

/**
 * Every header but the ones that change with the moment (Date), the connection, or the request (X-Request-Id: each
 * request's own id for the logs, never part of what a cache keeps or compares).
 */
const stableHeaders = (response: Response) =>
  [...response.headers].filter(([name]) => !["date", "connection", "keep-alive", "x-request-id"].includes(name));

it("posts every field of the form", () => {
  expect([...enquiryFieldNames].sort()).toEqual(["email", "message", "name", "security"]);
});

describe("valid HTML (W3C Nu checker)", () => {
  it(
    "reports no error on /, /about, /privacy, /contact, a 404, the thank-you page and a failed post",
    { timeout: 60_000 },
    async () => {
      const pages: Record<string, string> = {};
      for (const path of [...shared, ...withToken, "/no-such-page"])
        pages[path] = await htmlOf(await fetch(`${site.url}${path}`));
      const failed = await failedPost();
      expect(failed.status).toBe(400);
      pages["POST /contact"] = await htmlOf(failed);
      const dir = temp.dir();
      const files = Object.entries(pages).map(([name, html], i) => {
        const file = join(dir, `page-${i}.html`);
        writeFileSync(file, html);
        return [file, name] as const;
      });
      const messages = await checkHtml(files.map(([f]) => f));
      const byPage = new Map(files.map(([file, name]) => [`file:${file}`, name]));
      const errors = messages
        .filter((m) => m.type === "error")
        .map((m) => `${byPage.get(m.url) ?? m.url}: ${m.message}`);
      expect(errors).toEqual([]);
      expect(messages.every((m) => byPage.has(m.url))).toBe(true);
    },
  );
});

describe("hash-based CSP", () => {
  const scriptSources = (html: string) =>
    [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter(([, attributes, text]) => !/\bsrc=/.test(attributes!) && text !== "")
      .map(([, , text]) => `'sha256-${createHash("sha256").update(text!.replace(/\r\n?/g, "\n")).digest("base64")}'`);
  const scriptSrc = (response: Response) =>
    /(?:^|; )script-src ([^;]*)/.exec(response.headers.get("content-security-policy") ?? "")?.[1]?.split(" ");

  it.each([...shared, ...withToken, "/no-such-page", "POST /contact"])(
    "%s: script-src is 'self' and the hash of each inline script sent, no nonce, nothing inline besides",
    async (path) => {
      const response =
        path === "POST /contact" ? await failedPost() : await fetch(`${site.url}${path}`, { headers: browser });
      const html = await htmlOf(response);
      const hashes = scriptSources(html);
      expect(hashes.length).toBeGreaterThanOrEqual(3);
      expect(scriptSrc(response)).toEqual(["'self'", ...new Set(hashes)]);
      expect(html).not.toContain("nonce");
      const csp = response.headers.get("content-security-policy")!;
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|nonce-/);
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
    },
  );

  it("gives a page that shows a visitor's words hashes of its own, with those words inert", async () => {
    const html = await htmlOf(await failedPost());
    expect(html).not.toContain('</script><script>alert("x")');
    const plain = await htmlOf(await fetch(`${site.url}/contact`));
    const own = scriptSources(html).filter((hash) => !scriptSources(plain).includes(hash));
    expect(own.length).toBeGreaterThan(0);
  });
});

describe("cacheable and revalidatable", () => {
  it.each([...shared, "/no-such-page"])(
    "%s: identical requests get byte-identical bodies and headers, in every encoding",
    async (path) => {
      for (const encoding of ["br", "gzip", "identity"]) {
        const headers = { "Accept-Encoding": encoding };
        const [a, b, c] = [await get(path, headers), await get(path, headers), await get(path, headers)];
        expect(b.bytes.equals(a.bytes) && c.bytes.equals(a.bytes), `${path} ${encoding}`).toBe(true);
        expect(stableHeaders(b.response)).toEqual(stableHeaders(a.response));
        expect(stableHeaders(c.response)).toEqual(stableHeaders(a.response));
        expect(a.response.headers.get("etag")).toMatch(/^"[\w-]{20,}"$/);
        expect(a.response.headers.get("vary")).toBe("Accept-Encoding");
        expect(a.response.headers.get("content-encoding") ?? "identity").toBe(encoding);
      }
    },
  );

  it.each(withToken)("%s: each request its own form token, no-store, no 304; the same page otherwise", async (path) => {
    const [a, b] = [await get(path), await get(path)];
    const token = (bytes: Buffer) => /name="form_token" value="([^"]+)"/.exec(bytes.toString())?.[1];
    expect(token(a.bytes)).toBeTruthy();
    expect(token(a.bytes)).not.toBe(token(b.bytes));
    expect(withoutToken(a.bytes.toString())).toBe(withoutToken(b.bytes.toString()));
    expect(a.response.headers.get("cache-control")).toBe(`${noStore}, no-transform`);
    const again = await get(path, { ...browser, "If-None-Match": a.response.headers.get("etag")! });
    expect(again.response.status).toBe(200);
  });

  it("gives each encoding its own strong ETag, a hash of its bytes", async () => {
    const tags = new Set<string>();
    for (const encoding of ["br", "gzip", "identity"])
      tags.add((await get("/", { "Accept-Encoding": encoding })).response.headers.get("etag")!);
    expect(tags.size).toBe(3);
  });

  it.each(shared)(
    "%s: If-None-Match with the ETag gives 304 without a body; another ETag gives the page",
    async (path) => {
      const first = await get(path);
      const etag = first.response.headers.get("etag")!;
      for (const ifNoneMatch of [etag, `W/${etag}`, `"stale", ${etag}`]) {
        const again = await get(path, { ...browser, "If-None-Match": ifNoneMatch });
        expect(again.response.status).toBe(304);
        expect(again.bytes.length).toBe(0);
        expect(again.response.headers.get("etag")).toBe(etag);
        expect(again.response.headers.get("cache-control")).toBe(pageCacheControl);
      }
      const changed = await get(path, { ...browser, "If-None-Match": '"from-an-older-deploy"' });
      expect(changed.response.status).toBe(200);
      expect(changed.bytes.equals(first.bytes)).toBe(true);
    },
  );

  it("answers HEAD with GET's headers and no body", async () => {
    const got = await get("/about");
    const head = await fetch(`${site.url}/about`, { method: "HEAD", headers: browser });
    expect(head.status).toBe(200);
    expect(stableHeaders(head)).toEqual(stableHeaders(got.response));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("lets shared caches keep pages while browsers revalidate; never stores what carries a visitor's data", async () => {
    for (const path of [...shared, "/no-such-page"]) {
      const { response } = await get(path);
      expect(response.headers.get("cache-control"), path).toBe(pageCacheControl);
    }
    expect(pageCacheControl).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+, no-transform$/);
    const thanks = await get("/contact?sent=1");
    expect(thanks.response.headers.get("cache-control")).toBe(`${noStore}, no-transform`);
    const failed = await failedPost();
    expect(failed.headers.get("cache-control")).toBe(`${noStore}, no-transform`);
    await failed.body?.cancel();
  });

  it("never serves the thank-you page or a failed post's page to someone else", async () => {
    const failed = await htmlOf(await failedPost());
    expect(failed).toContain("Vera");
    await (await fetch(`${site.url}/contact?sent=1`)).body?.cancel();
    const afterThanks = await htmlOf(await fetch(`${site.url}/contact`));
    const afterPost = (await get("/contact", { "Accept-Encoding": "br" })).bytes.toString();
    expect(afterThanks).not.toContain("Vera");
    expect(afterPost).not.toContain("Vera");
    expect(withoutToken(afterPost)).toBe(withoutToken(afterThanks));
  });
});
