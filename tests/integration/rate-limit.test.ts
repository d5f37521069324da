import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enquiryMessages } from "~/content/site";
import { RateLimiter } from "~/enquiry/rate-limit.server";
import { formatErrors } from "~/enquiry/status";
import { startFakeUpstream } from "../support/fake-upstream.mjs";
import { startSite, type SiteServer } from "../support/site-server";
import { enquiry } from "../support/enquiry";

/**
 * The enquiry rate limits: the limiter on its own with a hand-moved clock, then the real built server, where an
 * enquiry over a limit is a 429 with an `Error:` status line, keeps the visitor's words, and is neither forwarded nor
 * stored.
 */

describe("RateLimiter", () => {
  const clock = () => {
    let now = 1_000_000;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it("admits so many per minute for the site, then refuses until the oldest leaves the window", () => {
    const time = clock();
    const limiter = new RateLimiter({ sitePerMinute: 3, clientPerHour: 0 }, time.now);
    for (let i = 0; i < 3; i++) {
      expect(limiter.take(undefined)).toBeNull();
      time.advance(10_000);
    }
    const refused = limiter.take(undefined);
    expect(refused?.error).toEqual({
      title: enquiryMessages.rateLimitedTitle,
      detail: enquiryMessages.rateLimitedSite,
    });
    expect(refused?.retryAfterSeconds).toBe(30);
    time.advance(30_001);
    expect(limiter.take(undefined)).toBeNull();
    expect(limiter.take(undefined)).not.toBeNull();
  });

  it("admits so many per hour per client, each client on its own, and counts no refused attempt", () => {
    const time = clock();
    const limiter = new RateLimiter({ sitePerMinute: 0, clientPerHour: 2 }, time.now);
    expect(limiter.take("203.0.113.1")).toBeNull();
    expect(limiter.take("203.0.113.1")).toBeNull();
    for (let i = 0; i < 5; i++)
      expect(limiter.take("203.0.113.1")?.error.detail).toBe(enquiryMessages.rateLimitedClient);
    expect(limiter.take("203.0.113.2")).toBeNull();
    // An unknown client (no trusted proxy) is not limited per client.
    for (let i = 0; i < 5; i++) expect(limiter.take(undefined)).toBeNull();
    time.advance(60 * 60_000 + 1);
    expect(limiter.take("203.0.113.1")).toBeNull();
  });

  it("a client refused by the site limit keeps its own allowance", () => {
    const limiter = new RateLimiter({ sitePerMinute: 1, clientPerHour: 1 }, () => 0);
    expect(limiter.take("a")).toBeNull();
    expect(limiter.take("b")?.error.detail).toBe(enquiryMessages.rateLimitedSite);
    const later = new RateLimiter({ sitePerMinute: 1, clientPerHour: 1 }, () => 0);
    expect(later.take("b")).toBeNull();
  });

  it("0 turns both limits off", () => {
    const limiter = new RateLimiter({ sitePerMinute: 0, clientPerHour: 0 }, () => 0);
    for (let i = 0; i < 1_000; i++) expect(limiter.take("a")).toBeNull();
  });
});

type Upstream = Awaited<ReturnType<typeof startFakeUpstream>>;
let upstream: Upstream;
beforeAll(async () => {
  upstream = await startFakeUpstream({ port: 0 });
});
const sites: SiteServer[] = [];
afterAll(async () => {
  await Promise.all(sites.map((site) => site.stop()));
  await upstream?.close();
});
async function site(env: Record<string, string>) {
  const started = await startSite(env);
  sites.push(started);
  return started;
}

async function postForm(base: string, values: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/contact`, {
    method: "POST",
    body: new URLSearchParams(values),
    headers,
    redirect: "manual",
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), text: await response.text() };
}

const statusArea = (html: string) =>
  (/<div[^>]*role="status"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? "")
    .replace(/<!--.*?-->/g, "")
    .replace(/&#x27;/g, "'")
    .trim();

describe("the built server's rate limits", () => {
  it("RATE_LIMIT_SITE_PER_MINUTE=3: the 4th enquiry is a 429 that keeps the fields; typos before do not count", async () => {
    const limited = await site({
      API_HOST: upstream.origin,
      RATE_LIMIT_SITE_PER_MINUTE: "3",
      RATE_LIMIT_CLIENT_PER_HOUR: "0",
    });
    const token = randomUUID();
    for (let i = 0; i < 3; i++)
      expect((await postForm(limited.url, { ...enquiry(token), email: "typo" })).status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await postForm(limited.url, enquiry(token))).status).toBe(303);

    const refused = await postForm(limited.url, enquiry(token));
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    const status = statusArea(refused.text);
    expect(status).toBe(
      formatErrors([{ title: enquiryMessages.rateLimitedTitle, detail: enquiryMessages.rateLimitedSite }]),
    );
    expect(status).toMatch(/^Error: .*try again later/);
    expect(refused.text).toContain(enquiry(token).message);
    expect(upstream.receivedFor(token)).toHaveLength(3);
  });

  it("POST /api/site/save-contact has the same limit: a 429 with an errors list, nothing stored; a wrong captcha does not count", async () => {
    const embedded = await site({ API_HOST: "", RATE_LIMIT_SITE_PER_MINUTE: "2", RATE_LIMIT_CLIENT_PER_HOUR: "0" });
    const post = () =>
      fetch(`${embedded.url}${"/api/site/save-contact"}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(enquiry(randomUUID())),
      });
    // A wrong captcha answer through the form is refused without being counted or stored.
    expect((await postForm(embedded.url, { ...enquiry(randomUUID()), security: "Jason" })).status).toBe(400);
    expect((await post()).status).toBe(204);
    expect((await post()).status).toBe(204);
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      errors: [{ title: enquiryMessages.rateLimitedTitle, detail: enquiryMessages.rateLimitedSite }],
    });
    // The form shares the allowance, and stores nothing past it either.
    expect((await postForm(embedded.url, enquiry(randomUUID()))).status).toBe(429);
    expect(await embedded.stored()).toHaveLength(2);
  });

  it("RATE_LIMIT_CLIENT_PER_HOUR=2 with TRUST_PROXY=1 limits each X-Forwarded-For client on its own", async () => {
    const limited = await site({
      API_HOST: upstream.origin,
      TRUST_PROXY: "1",
      RATE_LIMIT_SITE_PER_MINUTE: "0",
      RATE_LIMIT_CLIENT_PER_HOUR: "2",
    });
    const token = randomUUID();
    // The proxy appends the address it saw; what the client claimed before it is not believed.
    const from = (client: string) => ({ "X-Forwarded-For": `198.51.100.99, ${client}` });
    expect((await postForm(limited.url, enquiry(token), from("203.0.113.1"))).status).toBe(303);
    expect((await postForm(limited.url, enquiry(token), from("203.0.113.1"))).status).toBe(303);
    const refused = await postForm(limited.url, enquiry(token), from("203.0.113.1"));
    expect(refused.status).toBe(429);
    expect(statusArea(refused.text)).toContain(enquiryMessages.rateLimitedClient);
    expect((await postForm(limited.url, enquiry(token), from("203.0.113.2"))).status).toBe(303);
    expect(upstream.receivedFor(token)).toHaveLength(3);
  });

  it("without a trusted proxy, X-Forwarded-For is ignored and the per-client limit does not apply", async () => {
    const open = await site({
      API_HOST: upstream.origin,
      RATE_LIMIT_SITE_PER_MINUTE: "0",
      RATE_LIMIT_CLIENT_PER_HOUR: "2",
    });
    const token = randomUUID();
    for (let i = 0; i < 4; i++) {
      expect((await postForm(open.url, enquiry(token), { "X-Forwarded-For": "203.0.113.1" })).status).toBe(303);
    }
    expect(upstream.receivedFor(token)).toHaveLength(4);
  });
});
