import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { inlineScriptHashes, moveTrailingIntoBody } from "~/pages/document.server";
import { etagMatches, Page, pageResponse, preferredEncoding, replyFor } from "~/pages/page.server";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

describe("moveTrailingIntoBody", () => {
  it("puts what React wrote after </html> just before </body>, in order", () => {
    const html = "<!DOCTYPE html><html><body><main>x</main></body></html><!--$--><script>a()</script><!--/$-->";
    expect(moveTrailingIntoBody(html)).toBe(
      "<!DOCTYPE html><html><body><main>x</main><!--$--><script>a()</script><!--/$--></body></html>",
    );
  });

  it("leaves a document with nothing after </html>, or without that end, as it is", () => {
    const whole = "<!DOCTYPE html><html><body></body></html>";
    expect(moveTrailingIntoBody(whole)).toBe(whole);
    expect(moveTrailingIntoBody("<p>fragment</p>")).toBe("<p>fragment</p>");
  });
});

describe("inlineScriptHashes", () => {
  it("hashes every inline script's text, in order, once each, and no external or empty one", () => {
    const html = [
      "<script>one()</script>",
      '<script type="module" async="">two("é")</script>',
      '<script src="/build/x.js"></script>',
      "<script></script>",
      "<script>one()</script>",
    ].join("");
    expect(inlineScriptHashes(html)).toEqual([sha256("one()"), sha256('two("é")')]);
  });

  it("hashes the text as the browser's parser sees it, line breaks as LF", () => {
    expect(inlineScriptHashes("<script>a;\r\nb;\rc;</script>")).toEqual([sha256("a;\nb;\nc;")]);
  });
});

describe("preferredEncoding", () => {
  it.each([
    [undefined, "identity"],
    ["", "identity"],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["deflate", "identity"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip;q=0", "identity"],
    ["BR", "br"],
    ["*", "br"],
    ["*;q=0.1, gzip;q=0.5", "gzip"],
    ["identity", "identity"],
    ["br;q=nonsense, gzip", "gzip"],
  ] as const)("%j -> %s", (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe("etagMatches", () => {
  it("compares weakly, in lists, and takes *", () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(etagMatches("*", '"abc"')).toBe(true);
    expect(etagMatches('"abcd"', '"abc"')).toBe(false);
    expect(etagMatches("abc", '"abc"')).toBe(false);
    expect(etagMatches(undefined, '"abc"')).toBe(false);
  });
});

describe("Page and replyFor", () => {
  const html = `<!DOCTYPE html><html><body>${"<p>haunt props</p>".repeat(200)}</body></html>`;
  const page = (status = 200) =>
    new Page(status, new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public" }), html);

  it("sends the negotiated encoding with its own strong ETag and Vary, and the bytes decode to the page", () => {
    const p = page();
    const br = replyFor(p, { method: "GET", acceptEncoding: "gzip, br" });
    const gzip = replyFor(p, { method: "GET", acceptEncoding: "gzip" });
    const plain = replyFor(p, { method: "GET" });
    expect(brotliDecompressSync(br.body!).toString()).toBe(html);
    expect(gunzipSync(gzip.body!).toString()).toBe(html);
    expect(plain.body!.toString()).toBe(html);
    expect([
      br.headers["content-encoding"],
      gzip.headers["content-encoding"],
      plain.headers["content-encoding"],
    ]).toEqual(["br", "gzip", undefined]);
    const tags = [br, gzip, plain].map((r) => r.headers.etag as string);
    for (const tag of tags) expect(tag).toMatch(/^"[\w-]{20,}"$/);
    expect(new Set(tags).size).toBe(3);
    for (const reply of [br, gzip, plain]) {
      expect(reply.headers.vary).toBe("Accept-Encoding");
      expect(reply.headers["content-length"]).toBe(String(reply.body!.length));
      expect(reply.headers["cache-control"]).toBe("public");
    }
  });

  it("is byte-identical from one page to the next, so the ETag of one copy holds for every copy", () => {
    const [a, b] = [page(), page()].map((p) => replyFor(p, { method: "GET", acceptEncoding: "br" }));
    expect(a!.body!.equals(b!.body!)).toBe(true);
    expect(a!.headers.etag).toBe(b!.headers.etag);
  });

  it("answers 304 without a body when If-None-Match holds the representation's ETag, weak or not", () => {
    const p = page();
    const { etag } = replyFor(p, { method: "GET", acceptEncoding: "br" }).headers;
    for (const ifNoneMatch of [etag as string, `W/${etag}`, `"other", ${etag}`]) {
      const reply = replyFor(p, { method: "GET", acceptEncoding: "br", ifNoneMatch });
      expect(reply.status).toBe(304);
      expect(reply.body).toBeNull();
      expect(reply.headers.etag).toBe(etag);
      expect(reply.headers["content-length"]).toBeUndefined();
    }
    // Another representation's ETag is not this one.
    expect(replyFor(p, { method: "GET", acceptEncoding: "gzip", ifNoneMatch: etag as string }).status).toBe(200);
  });

  it("never turns an error page into 304", () => {
    const p = page(404);
    const { etag } = replyFor(p, { method: "GET" }).headers;
    expect(replyFor(p, { method: "GET", ifNoneMatch: etag as string }).status).toBe(404);
  });

  it("answers HEAD with the headers of GET and no body", () => {
    const p = page();
    const get = replyFor(p, { method: "GET", acceptEncoding: "br" });
    const head = replyFor(p, { method: "HEAD", acceptEncoding: "br" });
    expect(head.headers).toEqual(get.headers);
    expect(head.body).toBeNull();
  });

  it("encodes brotli at its best for a page that is kept, and counts every body it holds", () => {
    const fast = page();
    const kept = page().encodeForKeeping();
    const fastBr = fast.representation("br").body;
    const keptBr = kept.representation("br").body;
    expect(keptBr.length).toBeLessThanOrEqual(fastBr.length);
    expect(kept.byteLength).toBe(Buffer.byteLength(html) + keptBr.length + kept.representation("gzip").body.length);
  });

  it("becomes a fetch Response with the same status, headers and bytes", async () => {
    const p = page();
    const request = new Request("http://site/", { headers: { "Accept-Encoding": "gzip" } });
    const response = pageResponse(p, request);
    const expected = replyFor(p, { method: "GET", acceptEncoding: "gzip" });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe(expected.headers.etag);
    expect(Buffer.from(await response.arrayBuffer()).equals(expected.body!)).toBe(true);
  });
});
