// Page weight: what a first visit to a page downloads, as the server actually sends it (wire bytes with
// Accept-Encoding: gzip, so "gzipped" means what remix-serve's compression produced), plus the decoded size.
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

/** GET with node:http so the body stays exactly as sent (fetch would decompress it). */
export function getRaw(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, timeout: 10_000 }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`${url}: timed out`)));
    req.on("error", reject);
    req.end();
  });
}

export function decode(body, contentEncoding = "") {
  switch (contentEncoding) {
    case "br":
      return brotliDecompressSync(body);
    case "gzip":
      return gunzipSync(body);
    case "deflate":
      return inflateSync(body);
    default:
      return body;
  }
}

function attributes(tag) {
  const attrs = {};
  for (const match of tag.matchAll(/([^\s"'<>/=]+)(?:\s*=\s*"([^"]*)")?/g))
    attrs[match[1].toLowerCase()] = match[2] ?? "";
  return attrs;
}

/** The same-origin CSS, JS and image URLs a document asks for on first load. */
function resourcesOf(html) {
  const css = new Set();
  const js = new Set();
  const images = new Map(); // url -> "eager" | "lazy"
  for (const [tag, name] of html.matchAll(/<(link|script|img)\b[^>]*>/gi)) {
    const attrs = attributes(tag);
    const kind = name.toLowerCase();
    const rel = (attrs.rel ?? "").toLowerCase();
    if (kind === "link" && rel === "stylesheet") css.add(attrs.href);
    // The site defers its modulepreloads until the page has loaded (app/http/defer-hydration.server.ts: they wait as
    // dns-prefetch links to same-origin script files): still sent.
    else if (kind === "link" && rel === "modulepreload") js.add(attrs.href);
    else if (kind === "link" && rel === "dns-prefetch" && /^\/[^/].*\.js$/.test(attrs.href ?? "")) js.add(attrs.href);
    else if (kind === "link" && rel === "preload" && attrs.as === "script") js.add(attrs.href);
    else if (kind === "link" && rel.split(/\s+/).includes("icon")) images.set(attrs.href, "eager");
    else if (kind === "script" && attrs.src) js.add(attrs.src);
    else if (kind === "img" && attrs.src) images.set(attrs.src, attrs.loading === "lazy" ? "lazy" : "eager");
  }
  // Module scripts written inline import the entry and route modules by URL.
  for (const [, url] of html.matchAll(/(?:import\s*\(|from)\s*"([^"]+\.m?js)"/g)) js.add(url);
  const local = (url) => url && !/^[a-z]+:\/\//i.test(url) && !url.startsWith("//") && !url.startsWith("data:");
  return {
    css: [...css].filter(local),
    js: [...js].filter(local),
    images: [...images].filter(([url]) => local(url)).map(([url, loading]) => ({ url, loading })),
  };
}

async function sizeOf(origin, path) {
  const { status, headers, body } = await getRaw(new URL(path, origin), { "Accept-Encoding": "gzip" });
  const encoding = String(headers["content-encoding"] ?? "");
  const decoded = decode(body, encoding);
  return {
    url: path,
    status,
    encoding: encoding || "identity",
    wireBytes: body.length,
    bytes: decoded.length,
    decoded,
  };
}

/** Static imports of a (minified) module: `import{a as b}from"/x.js"`, `import"/x.js"`, `export*from"/x.js"`. */
const staticImports = (code) => [...code.matchAll(/(?:\bimport|\bfrom)\s*"(\/[^"]+\.m?js)"/g)].map((match) => match[1]);

/** The scripts a page loads: those its HTML names, and everything they import statically, transitively. */
async function scriptsOf(origin, urls) {
  const seen = new Map();
  let next = urls;
  while (next.length > 0) {
    const fetched = await Promise.all(next.filter((url) => !seen.has(url)).map((url) => sizeOf(origin, url)));
    for (const file of fetched) seen.set(file.url, file);
    next = fetched.flatMap((file) => staticImports(file.decoded.toString("utf8"))).filter((url) => !seen.has(url));
    next = [...new Set(next)];
  }
  return [...seen.values()];
}

const total = (items, key) => items.reduce((sum, item) => sum + item[key], 0);
const withoutBody = ({ decoded: _decoded, ...file }) => file;

/** Bytes of HTML, CSS, JavaScript and images for one page, each as sent with Accept-Encoding: gzip. */
export async function pageWeight(origin, path) {
  const html = await sizeOf(origin, path);
  const found = resourcesOf(html.decoded.toString("utf8"));
  const css = await Promise.all(found.css.map((url) => sizeOf(origin, url)));
  const js = await scriptsOf(origin, found.js);
  const images = await Promise.all(
    found.images.map(async ({ url, loading }) => ({ ...(await sizeOf(origin, url)), loading })),
  );
  const eager = images.filter((image) => image.loading !== "lazy");
  return {
    path,
    html: { wireBytes: html.wireBytes, bytes: html.bytes, encoding: html.encoding },
    css: { wireBytes: total(css, "wireBytes"), bytes: total(css, "bytes"), files: css.map(withoutBody) },
    js: { wireBytes: total(js, "wireBytes"), bytes: total(js, "bytes"), files: js.map(withoutBody) },
    images: {
      wireBytes: total(images, "wireBytes"),
      bytes: total(images, "bytes"),
      eagerWireBytes: total(eager, "wireBytes"),
      files: images.map(withoutBody),
    },
    failed: [html, ...css, ...js, ...images]
      .filter((item) => item.status !== 200)
      .map((item) => `${item.url} ${item.status}`),
  };
}
