import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enquiryMessages } from "~/wording";
import { formatErrors } from "~/enquiry/api-answer";
import { startFakeUpstream } from "../support/fake-upstream.mjs";
import { postgresAvailable } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { startSite, type SiteServer } from "../support/site-server";
import { enquiry } from "../support/enquiry";

/**
 * The enquiry rate limits on the real built server (the limiter alone: app/enquiry/rate-limit.server.test.ts), where an
 * enquiry over a limit is a 429 with an `Error:` status line, keeps the visitor's words, and is neither forwarded nor
 * stored.
 */

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

describe.skipIf(!postgresAvailable)("two built servers on one PostgreSQL database", () => {
  it("share the limits: per client (by /64) and per site, counted in the database", async () => {
    const postgres = await sharedPostgres();
    try {
      const env = {
        API_HOST: "",
        DATABASE_URL: await postgres.createDatabase(),
        TRUST_PROXY: "1",
        RATE_LIMIT_SITE_PER_MINUTE: "5",
        RATE_LIMIT_CLIENT_PER_HOUR: "2",
      };
      const [first, second] = await Promise.all([site(env), site(env)]);
      const token = randomUUID();
      const from = (client: string) => ({ "X-Forwarded-For": client });
      const message = (i: number) => ({ ...enquiry(token), message: `Hello ${token} ${i}` });
      expect((await postForm(first.url, message(1), from("2001:db8:5:6::1"))).status).toBe(303);
      expect((await postForm(second.url, message(2), from("2001:db8:5:6::2"))).status).toBe(303);
      const refused = await postForm(first.url, message(3), from("2001:db8:5:6:7::3"));
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBeGreaterThan(60 * 59);
      expect(statusArea(refused.text)).toContain(enquiryMessages.rateLimitedClient);
      expect(refused.text).toContain(`Hello ${token} 3`);
      expect((await postForm(second.url, message(4), from("2001:db8:5:6::4"))).status).toBe(429);
      // The site's allowance (5 a minute) is shared too: 2 used above, 3 more from other clients, then none.
      expect((await postForm(second.url, message(5), from("198.51.100.1"))).status).toBe(303);
      expect((await postForm(first.url, message(6), from("198.51.100.2"))).status).toBe(303);
      expect((await postForm(second.url, message(7), from("::ffff:198.51.100.3"))).status).toBe(303);
      const siteRefused = await postForm(first.url, message(8), from("198.51.100.4"));
      expect(siteRefused.status).toBe(429);
      expect(statusArea(siteRefused.text)).toContain(enquiryMessages.rateLimitedSite);
      expect((await first.stored()).map((row) => row.message).sort()).toEqual(
        [1, 2, 5, 6, 7].map((i) => `Hello ${token} ${i}`),
      );
    } finally {
      await Promise.all(sites.splice(0).map((one) => one.stop()));
      await postgres.stop();
    }
  }, 60_000);
});
