// The benchmark's baseline: plain node:http sending, from memory, the very bytes the site sent for `/` (captured by
// bench/run.mjs once per Content-Encoding). What remix-serve does beyond this is the cost of framework and app.
//
//   node bench/baseline-server.mjs <variants.json>     (PORT and HOST from the environment)
//
// variants.json: [{ "acceptEncoding": "...", "contentEncoding": "br" | "gzip" | "", "headers": {...}, "body": "<base64>" }]
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const variants = JSON.parse(readFileSync(process.argv[2], "utf8")).map((variant) => {
  const body = Buffer.from(variant.body, "base64");
  const headers = { ...variant.headers, "content-length": String(body.length) };
  if (variant.contentEncoding) headers["content-encoding"] = variant.contentEncoding;
  else delete headers["content-encoding"];
  return { ...variant, body, headers };
});
const byAcceptEncoding = new Map(variants.map((variant) => [variant.acceptEncoding, variant]));
const byEncoding = new Map(variants.map((variant) => [variant.contentEncoding, variant]));

/** Same choice as remix-serve's `compression` for the headers we send: br, then gzip, then none. */
function pick(acceptEncoding = "") {
  const exact = byAcceptEncoding.get(acceptEncoding);
  if (exact) return exact;
  const accepted = new Set(acceptEncoding.split(",").map((part) => part.split(";")[0].trim().toLowerCase()));
  for (const encoding of ["br", "gzip"])
    if (accepted.has(encoding) && byEncoding.has(encoding)) return byEncoding.get(encoding);
  return byEncoding.get("") ?? variants[0];
}

const server = createServer((req, res) => {
  const variant = pick(req.headers["accept-encoding"]);
  res.writeHead(200, variant.headers);
  res.end(req.method === "HEAD" ? undefined : variant.body);
});

const port = Number(process.env.PORT ?? 0);
server.listen(port, process.env.HOST ?? "127.0.0.1", () => {
  console.log(`[baseline] listening on ${JSON.stringify(server.address())}`);
});
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
