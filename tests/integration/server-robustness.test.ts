import { randomUUID } from "node:crypto";
import { Agent, request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enquiryMessages } from "~/wording";
import { sentLocation } from "~/enquiry/answers.server";
import { enquiryFields, honeypotField, maxBodyBytes } from "~/enquiry/fields";
import { saveContactPath } from "~/enquiry/forward.server";
import { noStore, pageCacheControl } from "~/pages/headers.server";
import { startFakeUpstream } from "../support/fake-upstream.mjs";
import { runSiteExpectingExit, startSite, waitFor, type SiteServer } from "../support/site-server";
import { postForm, statusArea, type Reply } from "../support/site-http";
import { useTempDir } from "../support/temp-dir";
import { enquiry as newEnquiry } from "../support/enquiry";

/**
 * The real built server (`npm start`) over plain HTTP: hostile and heavy input must never crash it,
 * produce a 5xx, or reach the upstream API; good input reaches it exactly once.
 */

const temp = useTempDir("haunt-robustness-");

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;

/** Every message and e-mail address posted in this file: none of them may ever appear in the server's output. */
const privateValues = new Set<string>();

function enquiry(token = randomUUID()) {
  const values = newEnquiry(token);
  privateValues.add(values.email);
  privateValues.add(values.message);
  return { token, values };
}

/** The posted messages and e-mail addresses that appear in a server's output (there should be none). */
const leakedValues = (output: string) => [...privateValues].filter((value) => output.includes(value));

/**
 * A POST with node:http, with a Content-Length or chunked, writing `total` bytes in 64 KB pieces, through `agent`
 * (keep-alive, one socket), so a follow-up request on the same agent reuses the connection if the server kept it.
 */
function rawPost(
  agent: Agent,
  base: string,
  path: string,
  { total, chunked, contentType }: { total: number; chunked: boolean; contentType: string },
): Promise<{ status: number; text: string } | { error: string }> {
  return new Promise((resolve) => {
    const url = new URL(path, base);
    const headers: Record<string, string> = { "Content-Type": contentType };
    if (!chunked) headers["Content-Length"] = String(total);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers, agent, timeout: 5_000 },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        res.on("error", (error) => resolve({ error: String(error) }));
      },
    );
    req.on("error", (error) => resolve({ error: String(error) }));
    req.on("timeout", () => req.destroy(new Error("client timeout")));
    const piece = Buffer.alloc(64 * 1024, "a");
    piece.write("message=");
    let sent = 0;
    const writeMore = () => {
      while (sent < total) {
        const part = piece.subarray(0, Math.min(piece.length, total - sent));
        sent += part.length;
        if (!req.write(part)) return void req.once("drain", writeMore);
      }
      req.end();
    };
    writeMore();
  });
}

/** A GET through the same agent, bounded: a stalled keep-alive connection fails it instead of hanging. */
function rawGet(agent: Agent, base: string, path: string): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const url = new URL(path, base);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, agent, timeout: 3_000 },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.on("error", (error) => resolve({ error: String(error) }));
    req.on("timeout", () => req.destroy(new Error("client timeout: the connection stalled")));
    req.end();
  });
}

const timeoutMs = 1_500;

// Starting the built server is most of this file's time, so both start together.
let upstream: Upstream;
let apiSite: SiteServer;
let embeddedSite: SiteServer;
const embeddedDatabase = `file:${join(temp.dir(), "nested", "enquiries.db")}`;

beforeAll(async () => {
  upstream = await startFakeUpstream({ port: 0 });
  [apiSite, embeddedSite] = await Promise.all([
    startSite({ API_HOST: upstream.origin, API_TIMEOUT_MS: String(timeoutMs) }),
    startSite({ API_HOST: "", DATABASE_URL: embeddedDatabase }),
  ]);
});
afterAll(async () => {
  await Promise.all([apiSite?.stop(), embeddedSite?.stop()]);
  await upstream?.close();
});

describe("the built server with an upstream API", () => {
  let site: SiteServer;

  beforeAll(() => {
    site = apiSite;
  });

  it("forwards a good enquiry once and redirects to the thank-you (post/redirect/get)", async () => {
    const { token, values } = enquiry();
    const reply = await postForm(site.url, values);
    expect(reply.status).toBe(303);
    expect(reply.location).toBe(sentLocation);
    expect(upstream.receivedFor(token)).toHaveLength(1);
    const [received] = upstream.receivedFor(token);
    expect(received).toMatchObject({ method: "POST", path: saveContactPath, body: values });
    expect(received!.contentType).toMatch(/^application\/json\b/);

    const page = await fetch(`${site.url}${sentLocation}`);
    expect(page.status).toBe(200);
    expect(statusArea(await page.text())).toBe(enquiryMessages.success);
  });

  const twoMegabytes = 2 * 1024 * 1024;
  const form = "application/x-www-form-urlencoded";
  it.each([
    { what: "form body with a Content-Length", chunked: false, contentType: form, status: 413 },
    { what: "chunked form body", chunked: true, contentType: form, status: 413 },
    { what: "JSON body with a Content-Length", chunked: false, contentType: "application/json", status: 415 },
    { what: "chunked JSON body", chunked: true, contentType: "application/json", status: 415 },
  ])(
    "refuses a 2 MB $what quickly with $status, and the connection keeps serving",
    async ({ chunked, contentType, status }) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const started = Date.now();
        const reply = await rawPost(agent, site.url, "/contact", { total: twoMegabytes, chunked, contentType });
        expect(Date.now() - started).toBeLessThan(3_000);
        expect(reply).toMatchObject({ status });
        expect(await rawGet(agent, site.url, "/")).toEqual({ status: 200 });
        expect(await rawGet(agent, site.url, "/about")).toEqual({ status: 200 });
      } finally {
        agent.destroy();
      }
    },
  );

  it("answers missing fields with a 400 listing each, and forwards nothing", async () => {
    const { token } = enquiry();
    const reply = await postForm(site.url, { name: `  ${token}  `, email: "", security: " " });
    expect(reply.status).toBe(400);
    const status = statusArea(reply.text);
    expect(status.startsWith(`${enquiryMessages.errorPrefix} `)).toBe(true);
    for (const field of ["email", "message", "security"] as const)
      expect(status).toContain(`${enquiryFields[field].title}: `);
    expect(status).not.toContain(`${enquiryFields.name.title}: `);
    expect(upstream.receivedFor(token)).toEqual([]);
  });

  it("answers a 100,000-character message without a 5xx and forwards nothing", async () => {
    const { token, values } = enquiry();
    const reply = await postForm(site.url, { ...values, message: `${token} ${"x".repeat(100_000)}` });
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(100_000).toBeGreaterThan(maxBodyBytes); // so this is the size cap, not the length rule
    expect(reply.status).toBe(413);
    expect(upstream.receivedFor(token)).toEqual([]);
  });

  it("answers a message just over the length limit with a 400 naming the field, and forwards nothing", async () => {
    const { token, values } = enquiry();
    const message = `${token} `.padEnd(enquiryFields.message.maxLength + 1, "x");
    const reply = await postForm(site.url, { ...values, message });
    expect(reply.status).toBe(400);
    expect(statusArea(reply.text)).toContain(`${enquiryFields.message.title}: `);
    expect(upstream.receivedFor(token)).toEqual([]);
  });

  it("answers a JSON body posted to /contact with a 415, and forwards nothing", async () => {
    const { token, values } = enquiry();
    const response = await fetch(`${site.url}/contact`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(values),
      redirect: "manual",
    });
    expect(response.status).toBe(415);
    await response.body?.cancel();
    expect(upstream.receivedFor(token)).toEqual([]);
  });

  it("treats a filled honeypot as sent (303 to the thank-you) and forwards nothing", async () => {
    const { token, values } = enquiry();
    const reply = await postForm(site.url, { ...values, [honeypotField]: "https://spam.example" });
    expect(reply.status).toBe(303);
    expect(reply.location).toBe(sentLocation);
    expect(upstream.receivedFor(token)).toEqual([]);
  });

  it("shows the upstream's errors list in the status area without a 5xx", async () => {
    const { token, values } = enquiry();
    upstream.script(token, {
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({
        errors: [
          { title: "Security", detail: "Wrong answer" },
          { title: "Email", detail: "Invalid" },
        ],
      }),
    });
    const reply = await postForm(site.url, values);
    expect(reply.status).toBe(400);
    expect(statusArea(reply.text)).toBe("Error: Security: Wrong answer Email: Invalid");
  });

  it("maps an upstream that hangs to the timeout text with a 504, within a bound", async () => {
    const { token, values } = enquiry();
    upstream.script(token, { action: "hang" });
    const started = Date.now();
    const reply = await postForm(site.url, values);
    expect(Date.now() - started).toBeLessThan(timeoutMs + 3_000);
    expect(reply.status).toBe(504);
    expect(statusArea(reply.text)).toBe(enquiryMessages.timeout);
  });

  it("handles 200 posts, 20 at a time: all 303, and the upstream receives exactly those 200", async () => {
    const batch = randomUUID();
    const posts = Array.from({ length: 200 }, (_, i) => enquiry(`${batch}-n${String(i).padStart(3, "0")}`));
    const replies: Reply[] = [];
    for (let i = 0; i < posts.length; i += 20) {
      replies.push(...(await Promise.all(posts.slice(i, i + 20).map((post) => postForm(site.url, post.values)))));
    }
    expect(replies.map((r) => `${r.status} ${r.location}`)).toEqual(replies.map(() => `303 ${sentLocation}`));

    const messages = upstream.receivedFor(batch).map((r) => r.body?.message as string);
    expect(messages).toHaveLength(200);
    expect(new Set(messages).size).toBe(200);
    expect([...messages].sort()).toEqual(posts.map((p) => p.values.message).sort());
  });

  // The CSP hashes, ETags and the page cache: tests/integration/cdn-pages.test.ts.
  it("lets pages be cached but never a response to a post", async () => {
    const page = await fetch(`${site.url}/`);
    expect(page.headers.get("cache-control")).toBe(pageCacheControl);
    await page.body?.cancel();
    const refused = await fetch(`${site.url}/contact`, { method: "POST", body: new URLSearchParams({ name: "x" }) });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("cache-control")).toBe(`${noStore}, no-transform`);
    await refused.body?.cancel();
  });

  it("answers 404 for the embedded endpoint when an upstream API is configured", async () => {
    const { values } = enquiry();
    const post = await fetch(`${site.url}${saveContactPath}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(values),
    });
    expect(post.status).toBe(404);
    await post.body?.cancel();
    const get = await fetch(`${site.url}${saveContactPath}`);
    expect(get.status).toBe(404);
    await get.body?.cancel();

    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = await rawPost(agent, site.url, saveContactPath, {
        total: twoMegabytes,
        chunked: false,
        contentType: "application/json",
      });
      expect(big).toMatchObject({ status: 404 });
      expect(await rawGet(agent, site.url, "/healthz")).toEqual({ status: 200 });
    } finally {
      agent.destroy();
    }
  });

  it("logs one JSON line per attempt with outcome and duration, and never the message or e-mail", async () => {
    const before = site.logEvents("enquiry").length;
    const sent = enquiry();
    const reset = enquiry();
    upstream.script(reset.token, { action: "reset" });
    expect((await postForm(site.url, sent.values)).status).toBe(303);
    expect((await postForm(site.url, reset.values)).status).toBe(502);
    expect((await postForm(site.url, { ...sent.values, email: "not-an-address" })).status).toBe(400);
    await waitFor(() => site.logEvents("enquiry").length >= before + 3, "three enquiry log lines");

    const lines = site.logEvents("enquiry").slice(before);
    expect(lines.map((line) => line.outcome)).toEqual(["sent", "unreachable", "invalid"]);
    for (const line of lines) {
      expect(typeof line.durationMs).toBe("number");
      expect(line.upstream).toBe("api");
    }
    expect(lines[0]).toMatchObject({ upstreamStatus: 201 });
    expect(lines[1]!.error).toEqual(expect.any(String));

    // Across everything this server printed: no visitor message or e-mail address.
    expect(leakedValues(site.output())).toEqual([]);
  });
});

describe("the built server with the embedded back-end", () => {
  let site: SiteServer;
  const storedFrom = async (email: string) => (await site.stored()).filter((item) => item.email === email);

  beforeAll(() => {
    site = embeddedSite;
  });

  it("stores nothing for a wrong captcha and shows Error: ... in the status area", async () => {
    const { values } = enquiry();
    const reply = await postForm(site.url, { ...values, security: "Jason" });
    expect(reply.status).toBe(400);
    expect(statusArea(reply.text)).toMatch(
      new RegExp(`^${enquiryMessages.errorPrefix} ${enquiryFields.security.title}: \\S`),
    );
    expect(await storedFrom(values.email)).toEqual([]);
  });

  it("stores exactly one enquiry for the right captcha (any case, padded) and redirects to the thank-you", async () => {
    const { values } = enquiry();
    const reply = await postForm(site.url, { ...values, security: "  fReDdY " });
    expect(reply.status).toBe(303);
    expect(reply.location).toBe(sentLocation);
    const stored = await storedFrom(values.email);
    expect(stored).toMatchObject([{ name: values.name, email: values.email, message: values.message }]);
    expect(Number.isNaN(stored[0]!.receivedAt.getTime())).toBe(false);
    await waitFor(() => site.logEvents("enquiry").some((e) => e.outcome === "sent"), "the sent log line");
    const events = site.logEvents("enquiry");
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.upstream === "embedded")).toBe(true);
    expect(leakedValues(site.output())).toEqual([]);
  });

  it("serves the embedded endpoint with the upstream's contract", async () => {
    const { values } = enquiry();
    const response = await fetch(`${site.url}${saveContactPath}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...values, security: "nope" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: [{ title: enquiryFields.security.title, detail: expect.any(String) }],
    });
  });
});

describe("the built server's start-up checks", () => {
  it("refuses to start with API_HOST=ftp://x or example.com: exits non-zero naming API_HOST", async () => {
    const values = ["ftp://x", "example.com"];
    const results = await Promise.all(values.map((value) => runSiteExpectingExit({ API_HOST: value })));
    results.forEach((result, i) => {
      expect(result.code, values[i]).not.toBe(0);
      expect(result.code, values[i]).not.toBeNull();
      expect(result.output, values[i]).toContain("API_HOST");
      expect(result.output, values[i]).not.toMatch(/^\s+at /m); // a message for the operator, not a stack trace
    });
  });
});
