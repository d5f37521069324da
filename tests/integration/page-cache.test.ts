import { request as httpRequest, createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageCacheControl } from "~/pages/headers.server";
import { isKeepable, keepPage, PageCache, pageKey } from "~/pages/page-cache.server";
import { pageCacheMiddleware } from "../../server/page-cache";
import { Page } from "~/pages/page.server";
import { orderWindow } from "~/site-content/order-window";
import { defaultSiteContent } from "~/site-content/schema.server";

const html = (n: number) => `<!DOCTYPE html><html><body>${`<p>page ${n}</p>`.repeat(50)}</body></html>`;
const page = (n = 1, { status = 200, cacheControl = pageCacheControl } = {}) =>
  new Page(status, new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": cacheControl }), html(n));

describe("pageKey", () => {
  it("is the path as Remix reads it, and nothing for a query string or an odd target", () => {
    expect(pageKey("/about")).toBe("/about");
    expect(pageKey("/a/../about")).toBe("/about");
    expect(pageKey("/about?")).toBe("/about");
    expect(pageKey("//elsewhere/about")).toBe("//elsewhere/about");
    expect(pageKey("/contact?sent=1")).toBeUndefined();
    expect(pageKey("/?utm_source=x")).toBeUndefined();
    expect(pageKey("http://site/about")).toBeUndefined();
    expect(pageKey("*")).toBeUndefined();
  });
});

describe("isKeepable", () => {
  const get = { method: "GET", url: "http://site/" };
  it("keeps a shareable 200 answer to GET or HEAD", () => {
    expect(isKeepable(get, page())).toBe(true);
    expect(isKeepable({ ...get, method: "HEAD" }, page())).toBe(true);
  });

  it("never keeps what may carry a visitor's data or an error", () => {
    expect(isKeepable({ ...get, method: "POST" }, page())).toBe(false);
    expect(isKeepable(get, page(1, { cacheControl: "no-store, no-transform" }))).toBe(false);
    expect(isKeepable(get, page(1, { status: 404 }))).toBe(false);
    expect(isKeepable(get, page(1, { status: 500 }))).toBe(false);
    const withCookie = new Page(200, new Headers({ "Cache-Control": pageCacheControl, "Set-Cookie": "a=b" }), html(1));
    expect(isKeepable(get, withCookie)).toBe(false);
  });

  it("keeps nothing for a URL with a query string, so a query cannot grow the cache", () => {
    const cache = new PageCache();
    for (let i = 0; i < 50; i++) keepPage(cache, new Request(`http://site/?q=${i}`), page());
    expect(cache.size.entries).toBe(0);
    keepPage(cache, new Request("http://site/contact?sent=1"), page());
    keepPage(cache, new Request("http://site/about"), page());
    expect(cache.size.entries).toBe(1);
  });
});

describe("PageCache", () => {
  it("is bounded in entries, dropping the least recently used", () => {
    const cache = new PageCache({ maxEntries: 3, maxBytes: 10_000_000 });
    for (const key of ["/a", "/b", "/c"]) cache.set(key, page());
    expect(cache.get("/a")).toBeDefined(); // /a is now the most recent
    cache.set("/d", page());
    expect(cache.size.entries).toBe(3);
    expect(cache.get("/b")).toBeUndefined();
    expect(["/a", "/c", "/d"].every((key) => cache.get(key))).toBe(true);
  });

  it("is bounded in bytes, counting every encoding it holds, and leaves out a page too large to keep", () => {
    const one = page().encodeForKeeping().byteLength;
    const cache = new PageCache({ maxEntries: 100, maxBytes: one * 8 });
    for (let i = 0; i < 20; i++) cache.set(`/${i}`, page());
    expect(cache.size.bytes).toBeLessThanOrEqual(one * 8);
    expect(cache.size.entries).toBe(8);
    const small = new PageCache({ maxEntries: 100, maxBytes: one * 4 });
    small.set("/", page());
    expect(small.size).toEqual({ entries: 0, bytes: 0 });
  });

  it("replaces an entry kept again under the same key without counting it twice", () => {
    const cache = new PageCache();
    cache.set("/", page(1));
    const { bytes } = cache.size;
    cache.set("/", page(1));
    expect(cache.size).toEqual({ entries: 1, bytes });
  });

  it("lets every page lapse on 1 January, when the footer's year changes", () => {
    let now = new Date(2026, 11, 31, 23, 59, 59).getTime();
    const cache = new PageCache(undefined, () => now);
    cache.set("/", page());
    expect(cache.get("/")).toBeDefined();
    now = new Date(2027, 0, 1, 0, 0, 0).getTime();
    expect(cache.get("/")).toBeUndefined();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });
});

describe("the order window's change", () => {
  it("drops a kept page at the close date's midnight in SITE_TIMEZONE, not before", () => {
    const season = { ...defaultSiteContent.season, year: 2026, ordersOpen: true, closesOn: "2026-09-01" };
    const timeZone = "America/New_York";
    let now = Date.parse("2026-09-01T03:59:59Z"); // 23:59:59 on 31 August in New York
    const cache = new PageCache(undefined, () => now);
    const { changesAt } = orderWindow(season, new Date(now), timeZone);
    expect(changesAt).toBe(Date.parse("2026-09-01T04:00:00Z"));
    keepPage(cache, new Request("http://site/"), page(), { generation: 0, known: true, changesAt });
    expect(cache.get("/")).toBeDefined();
    now = changesAt! - 1;
    expect(cache.get("/")).toBeDefined();
    now = changesAt!;
    expect(cache.get("/")).toBeUndefined();
    // Rendered again now, the page shows orders closed and has no change ahead: kept until the new year.
    expect(orderWindow(season, new Date(now), timeZone)).toEqual({ open: false, changesAt: null });
    keepPage(cache, new Request("http://site/"), page(2), { generation: 0, known: true, changesAt: null });
    now = Date.parse("2026-12-31T12:00:00Z");
    expect(cache.get("/")).toBeDefined();
  });

  it("keeps no page of content not read from the database yet", () => {
    const cache = new PageCache();
    keepPage(cache, new Request("http://site/"), page(), { generation: 0, known: false, changesAt: null });
    expect(cache.get("/")).toBeUndefined();
  });
});

describe("the middleware over real HTTP", () => {
  const cache = new PageCache();
  const middleware = pageCacheMiddleware(cache);
  let server: Server;
  let url: string;
  let passedOn: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) =>
      middleware(request, response, () => {
        passedOn.push(`${request.method} ${request.url}`);
        response.writeHead(599).end();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    cache.set("/about", page(7));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (method: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const req = httpRequest(`${url}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });

  it("answers a kept page itself, encoded as asked, with 304 and HEAD", async () => {
    passedOn = [];
    const br = await send("GET", "/about", { "Accept-Encoding": "gzip, deflate, br" });
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.body.equals(cache.get("/about")!.representation("br").body)).toBe(true);
    const again = await send("GET", "/about", { "Accept-Encoding": "br", "If-None-Match": br.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await send("HEAD", "/about", { "Accept-Encoding": "br" });
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(br.body.length));
    expect(head.body.length).toBe(0);
    expect(passedOn).toEqual([]);
  });

  it("passes on what it does not hold: other paths, query strings, other methods", async () => {
    passedOn = [];
    for (const [method, path] of [
      ["GET", "/"],
      ["GET", "/about?x=1"],
      ["POST", "/about"],
      ["OPTIONS", "/about"],
    ] as const) {
      expect((await send(method, path)).status).toBe(599);
    }
    expect(passedOn).toEqual(["GET /", "GET /about?x=1", "POST /about", "OPTIONS /about"]);
  });
});
