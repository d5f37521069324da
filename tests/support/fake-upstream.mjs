// A fake of the enquiry API for tests and the benchmark: a real HTTP server on 127.0.0.1 that records every
// enquiry it receives and answers as a test scripted it. Tests run in parallel, so a script is keyed by a token
// that the test puts in the enquiry's message (or name); enquiries without a scripted token get 201.
//
//   node tests/support/fake-upstream.mjs --port 4010
//
// Control endpoints (used by tests through fetch):
//   POST /__control/script   {"token": "...", "status": 400, "body": "...", "contentType": "...", "delayMs": 0}
//                            or {"token": "...", "action": "reset" | "hang" | "redirect"}
//   GET  /__control/received?token=...   the enquiries whose message or name contains the token
//   GET  /__control/count                 how many enquiries arrived in all
//   POST /__control/clear                 forget scripts and received enquiries
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

export const saveContactPath = "/api/site/save-contact";

/** @typedef {{ status?: number, body?: string, contentType?: string, delayMs?: number, action?: "reset" | "hang" | "redirect" }} Script */
/** @typedef {{ method: string, path: string, contentType: string, raw: string, body: any, receivedAt: number }} Received */

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res, status, value) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(value));
}

/**
 * Starts the fake upstream.
 * @param {{ port?: number, host?: string }} [options]
 */
export async function startFakeUpstream({ port = 0, host = "127.0.0.1" } = {}) {
  /** @type {Map<string, Script>} */
  const scripts = new Map();
  /** @type {Received[]} */
  const received = [];
  const hanging = new Set();

  // A test marks its enquiries with a token in the message or the name; scripts and queries find them by it.
  const carries = (body, token) => `${body?.message ?? ""}\n${body?.name ?? ""}`.includes(token);
  const scriptFor = (body) => {
    for (const [token, script] of scripts) if (carries(body, token)) return script;
    return undefined;
  };
  /** @param {string} token */
  const receivedFor = (token) => received.filter((r) => carries(r.body, token));
  const clear = () => {
    scripts.clear();
    received.length = 0;
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    try {
      if (url.pathname === "/__control/script" && req.method === "POST") {
        const { token, ...script } = JSON.parse(await readBody(req));
        scripts.set(String(token), script);
        return sendJson(res, 200, { ok: true });
      }
      if (url.pathname === "/__control/received") {
        return sendJson(res, 200, receivedFor(url.searchParams.get("token") ?? ""));
      }
      if (url.pathname === "/__control/count") return sendJson(res, 200, { count: received.length });
      if (url.pathname === "/__control/clear" && req.method === "POST") {
        clear();
        return sendJson(res, 200, { ok: true });
      }
      if (url.pathname !== saveContactPath)
        return sendJson(res, 404, { errors: [{ title: "Not found", detail: url.pathname }] });

      const raw = await readBody(req);
      let body = null;
      try {
        body = JSON.parse(raw);
      } catch {
        // recorded as raw text; a test decides whether that is a failure
      }
      received.push({
        method: req.method ?? "",
        path: url.pathname,
        contentType: req.headers["content-type"] ?? "",
        raw,
        body,
        receivedAt: Date.now(),
      });

      const script = scriptFor(body) ?? {};
      if (script.action === "reset") return req.socket.destroy();
      if (script.action === "hang") {
        hanging.add(res);
        return;
      }
      if (script.action === "redirect") {
        res.writeHead(302, { Location: "/elsewhere" });
        return res.end();
      }
      if (script.delayMs) await new Promise((resolve) => setTimeout(resolve, script.delayMs));
      const status = script.status ?? 201;
      const headers = script.contentType ? { "Content-Type": script.contentType } : {};
      res.writeHead(status, headers);
      res.end(script.body ?? "");
    } catch (error) {
      sendJson(res, 500, { errors: [{ title: "Fake upstream", detail: String(error) }] });
    }
  });
  server.keepAliveTimeout = 5000;

  await new Promise((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  const origin = `http://${host}:${typeof address === "object" && address ? address.port : port}`;

  return {
    origin,
    received,
    /** @param {string} token @param {Script} script */
    script(token, script) {
      scripts.set(token, script);
    },
    /** The enquiries whose message or name carries the token. */
    receivedFor,
    clear,
    close() {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}

// Run directly: a standalone fake for Playwright's webServer and for manual testing.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const portArg = process.argv.indexOf("--port");
  const port = Number(portArg > -1 ? process.argv[portArg + 1] : (process.env.PORT ?? 4010));
  const upstream = await startFakeUpstream({ port });
  console.log(`[fake-upstream] listening on ${upstream.origin}`);
  const stop = () => upstream.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
