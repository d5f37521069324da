import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyCapOf, defaultBodyCap } from "~/http/body-cap";
import { photoUploadBodyCap } from "~/photos/limits";
import { runInbox } from "../support/inbox-command";
import { projectRoot, startSite, type SiteServer } from "../support/site-server";

/**
 * The owner area attacked from outside: every route that takes a post reads its body under a cap, with or
 * without a Content-Length, and answers 413 with a plain message (the route table of the build is walked, so a new route cannot
 * forget it); a 100 MB post leaves the server's memory alone; and the cross-site check believes what the browser says
 * about the request, not PUBLIC_URL: the login works at the address the server prints, a cross-site post is refused
 * with a plain message, with JavaScript's data request too.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A request with exactly these headers; `body` is sent in 64 KiB writes, chunked unless a Content-Length is given. */
function send(
  site: SiteServer,
  path: string,
  { method = "POST", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: site.port, path, method, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject);
    let at = 0;
    const write = () => {
      while (body && at < body.length) {
        const chunk = body.subarray(at, at + 64 * 1024);
        at += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

/** 100 MB of form data as a stream of writes, without holding it in this process either. */
function sendHuge(site: SiteServer, path: string, headers: Record<string, string>): Promise<Answer> {
  const size = 100 * 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, "a");
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port: site.port, path, method: "POST", headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (part: string) => (text += part));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject);
    let sent = 0;
    const write = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

const peakMiB = (pid: number) =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

const password = "moonlit crypt of the thirteen bats";
/** The words of a 413: the owner area's and the login's, or the contact page's and the JSON API's own. */
const tooLargeWords = new RegExp(
  `larger than the \\d+ KiB this form takes|Your enquiry is too long to send|The enquiry is too large`,
);
const crossSiteWords = "Refused: this form was sent from another site";

/** The default PUBLIC_URL (http://localhost:PORT) while the owner opens the address the server prints. */
let site: SiteServer;
let own: string;
let cookie: string;
/** Headers of a post from a page at PUBLIC_URL's own address, which every version accepts. */
let atPublicUrl: Record<string, string>;

async function logIn(headers: Record<string, string>): Promise<Answer> {
  const body = Buffer.from(new URLSearchParams({ email: "owner@example.com", password, next: "/inbox" }).toString());
  return send(site, "/inbox/login", {
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": String(body.length), ...headers },
    body,
  });
}

beforeAll(async () => {
  site = await startSite({ API_HOST: "" });
  own = `http://127.0.0.1:${site.port}`;
  const add = await runInbox(["operator", "add", "owner@example.com"], {
    env: { DATABASE_URL: site.databaseUrl, API_HOST: "" },
    input: `${password}\n`,
  });
  expect(add.status, add.stderr).toBe(0);
  atPublicUrl = { Host: `localhost:${site.port}`, Origin: `http://localhost:${site.port}` };
  const login = await logIn(atPublicUrl);
  expect(login.status).toBe(302);
  cookie = String(login.headers["set-cookie"]).split(";")[0]!;
}, 60_000);
afterAll(() => site?.stop());

/** Every route of the built app that has an action, with a path to post to (parameters filled in). */
async function actionRoutes(): Promise<{ id: string; path: string; cap: ReturnType<typeof bodyCapOf> }[]> {
  const build = (await import(pathToFileURL(join(projectRoot, "build/index.js")).href)) as ServerBuild;
  const pathOf = (id: string): string => {
    const route = build.routes[id]!;
    const own = (route.path ?? "").replace(/:[^/]+/g, "x").replace(/\*/g, "x");
    const parent = route.parentId ? pathOf(route.parentId) : "";
    return [parent, own].filter(Boolean).join("/");
  };
  return Object.keys(build.routes)
    .filter((id) => typeof build.routes[id]!.module.action === "function")
    .map((id) => ({ id, path: `/${pathOf(id)}`, cap: bodyCapOf(build.routes[id]!.module) }));
}

describe("every post is read under a cap", () => {
  it("the route table's every action answers 413 with a plain message, with a Content-Length and chunked", async () => {
    const routes = await actionRoutes();
    // The walk found the routes it must: the forms, the JSON API and the owner's.
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(["/contact", "/api/site/save-contact", "/inbox/login", "/inbox/logout", "/inbox/x"]),
    );
    // The caps the routes declare beside their actions, as the server reads them from the same table.
    const caps = Object.fromEntries(routes.map(({ id, cap }) => [id, cap]));
    expect(caps).toMatchObject({
      "routes/contact": { maxBytes: defaultBodyCap, readsOwnBody: true, json: false },
      "routes/api.site.save-contact": { maxBytes: defaultBodyCap, readsOwnBody: true, json: false },
      "routes/inbox.login": { maxBytes: defaultBodyCap, readsOwnBody: true, json: false },
      "routes/inbox.passkey": { maxBytes: defaultBodyCap, readsOwnBody: false, json: true },
      "routes/inbox.site": { maxBytes: 256 * 1024, readsOwnBody: false, json: false },
      "routes/inbox.site_.photos": { ...photoUploadBodyCap, json: false },
      "routes/inbox.logout": { maxBytes: defaultBodyCap, readsOwnBody: false, json: false },
    });
    for (const { id, path, cap } of routes) {
      const body = Buffer.alloc(cap.maxBytes + 1, "a");
      // The JSON API refuses another media type first (415), as it should; a JSON body reaches its cap.
      const type = path.startsWith("/api/") ? "application/json" : "application/x-www-form-urlencoded";
      // Logged in for the owner's forms; not for the login, whose page sends a logged-in owner on to the inbox.
      const session: Record<string, string> = path === "/inbox/login" ? {} : { Cookie: cookie };
      const headers = { ...atPublicUrl, ...session, "Content-Type": type };
      const declared = await send(site, path, { headers: { ...headers, "Content-Length": String(body.length) }, body });
      expect([id, declared.status]).toEqual([id, 413]);
      expect(declared.text, id).toMatch(tooLargeWords);
      const chunked = await send(site, path, { headers: { ...headers, "Transfer-Encoding": "chunked" }, body });
      expect([id, chunked.status]).toEqual([id, 413]);
      expect(chunked.text, id).toMatch(tooLargeWords);
    }
  });

  it("a body at the cap still goes through (the contact form)", async () => {
    const fields = new URLSearchParams({
      name: "Ann",
      email: "ann@example.com",
      message: "A bat.",
      security: "Freddy",
    });
    const text = fields.toString();
    const body = Buffer.from(`${text}&pad=${"a".repeat(defaultBodyCap - text.length - 5)}`);
    expect(body.length).toBe(defaultBodyCap);
    const answer = await send(site, "/contact", {
      headers: { Origin: own, "Content-Type": "application/x-www-form-urlencoded", "Transfer-Encoding": "chunked" },
      body,
    });
    expect(answer.status).toBe(303);
  });

  it("100 MB posted to the login, chunked, then with a Content-Length: 413, and the server's peak RSS barely moves", async () => {
    const before = peakMiB(site.pid);
    const headers = { ...atPublicUrl, "Content-Type": "application/x-www-form-urlencoded" };
    const chunked = await sendHuge(site, "/inbox/login", { ...headers, "Transfer-Encoding": "chunked" });
    expect(chunked.status).toBe(413);
    expect(chunked.text).toMatch(tooLargeWords);
    // The login page again, its form and the reason beside it (not the error page).
    expect(chunked.text).toMatch(/<input[^>]*name="password"/);
    const declared = await sendHuge(site, "/inbox/login", { ...headers, "Content-Length": String(100 * 1024 * 1024) });
    expect(declared.status).toBe(413);
    // Read whole, one such body took the peak from 181 to 445 MiB; under the cap it costs a few MiB of buffers.
    expect(peakMiB(site.pid) - before).toBeLessThan(48);
    // The server still serves.
    expect((await send(site, "/healthz", { method: "GET" })).status).toBe(200);
  }, 60_000);
});

describe("cross-site posts: what the browser says about the request, not PUBLIC_URL", () => {
  it("the login works at 127.0.0.1 while PUBLIC_URL is localhost, and at localhost too", async () => {
    expect((await logIn({ Origin: own, "Sec-Fetch-Site": "same-origin" })).status).toBe(302);
    expect((await logIn({ Origin: own })).status).toBe(302);
    expect((await logIn({ "Sec-Fetch-Site": "same-origin" })).status).toBe(302);
    const localhost = `localhost:${site.port}`;
    expect(
      (await logIn({ Host: localhost, Origin: `http://${localhost}`, "Sec-Fetch-Site": "same-origin" })).status,
    ).toBe(302);
  });

  it.each<[string, Record<string, string>]>([
    ["another site's Origin", { Origin: "http://evil.example" }],
    [
      "another site's Origin, Sec-Fetch-Site cross-site",
      { Origin: "http://evil.example", "Sec-Fetch-Site": "cross-site" },
    ],
    ["Sec-Fetch-Site cross-site alone", { "Sec-Fetch-Site": "cross-site" }],
    [
      "Sec-Fetch-Site same-site (a sibling sub-domain)",
      { Origin: "http://www.evil.example", "Sec-Fetch-Site": "same-site" },
    ],
    ["Origin null (a sandboxed frame)", { Origin: "null" }],
    ["the right Origin but the browser says cross-site", { Origin: "OWN", "Sec-Fetch-Site": "cross-site" }],
  ])("%s: 403, a page with a plain message", async (_what, given) => {
    const headers = Object.fromEntries(Object.entries(given).map(([k, v]) => [k, v === "OWN" ? own : v]));
    const answer = await logIn(headers);
    expect(answer.status).toBe(403);
    expect(answer.headers["content-type"]).toMatch(/^text\/html/);
    expect(answer.text).toContain(crossSiteWords);
    expect(answer.text).not.toContain("Something went wrong");
    expect(answer.headers["set-cookie"]).toBeUndefined();
  });

  it("with the session cookie, a cross-site post to an owner form changes nothing", async () => {
    const answer = await send(site, "/inbox/logout", {
      headers: { Origin: "http://evil.example", Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: Buffer.from("x=1"),
    });
    expect(answer.status).toBe(403);
    expect((await send(site, "/inbox", { method: "GET", headers: { Cookie: cookie } })).status).toBe(200);
  });

  it("Remix's data request (JavaScript on) gets the refusal's words too, which the page then shows", async () => {
    const answer = await send(site, "/inbox/login.data", {
      headers: { Origin: "http://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: Buffer.from("email=a"),
    });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain("ErrorResponse");
    expect(answer.text).toContain(crossSiteWords);
  });
});
