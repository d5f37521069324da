import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { honeypotField } from "~/enquiry/fields";
import { enquiry } from "../support/enquiry";
import { freePort } from "../support/free-port.mjs";
import { postgresAvailable, startPostgres, type TestPostgres } from "../support/postgres";
import { postForm, sendAs } from "../support/site-http";
import { startSite, waitFor, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * /metrics on its own listener (METRICS_PORT), scraped from the real built server while enquiries come in and while
 * the webhook the outbox delivers to is down: the counts are what was posted, the stuck notifications show with their
 * age, and the site's own port never serves the metrics.
 */

interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** Prometheus' text format, parsed: every sample by metric name. */
function parse(text: string): Map<string, Sample[]> {
  const samples = new Map<string, Sample[]>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[name!] = value!;
    const list = samples.get(match[1]!) ?? [];
    list.push({ labels, value: Number(match[3]) });
    samples.set(match[1]!, list);
  }
  return samples;
}

class Scrape {
  constructor(readonly samples: Map<string, Sample[]>) {}
  /** The sample with exactly these labels (undefined: absent). */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    const wanted = JSON.stringify(Object.entries(labels).sort());
    return this.samples.get(name)?.find((s) => JSON.stringify(Object.entries(s.labels).sort()) === wanted)?.value;
  }
  /** A counter's value (0 when it has not been counted yet). */
  count(name: string, labels: Record<string, string> = {}): number {
    return this.value(name, labels) ?? 0;
  }
}

async function scrape(url: string): Promise<Scrape> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return new Scrape(parse(await response.text()));
}

/** An enquiry posted as a program would, as JSON to the API route. */
async function postJson(site: SiteServer, values: Record<string, string>): Promise<number> {
  const response = await fetch(`${site.url}/api/site/save-contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(values),
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return response.status;
}

const publicUrl = "http://haunt.example";
/** The backup gauges' backup folders. */
const temp = useTempDir("haunt-metrics-");

describe("the metrics of a site with a webhook channel", () => {
  let receiver: WebhookReceiver;
  let site: SiteServer;
  let metricsUrl: string;
  let metricsPort: number;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    site = await startSite({
      NOTIFY_WEBHOOK_URL: receiver.url,
      NOTIFY_WEBHOOK_FORMAT: "json",
      METRICS_PORT: String(metricsPort),
      // On: a form posted without its token is kept aside as spam.
      SPAM_FILTER: "on",
      PUBLIC_URL: publicUrl,
    });
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
    await receiver?.stop();
  });

  it("are served only on METRICS_HOST:METRICS_PORT (127.0.0.1), never on the site's port", async () => {
    const onSite = await fetch(`${site.url}/metrics`);
    expect(onSite.status).toBe(404);
    expect(await onSite.text()).not.toContain("haunt_");
    const metrics = await scrape(metricsUrl);
    // prom-client's process metrics: event-loop lag, heap, RSS.
    expect(metrics.value("haunt_nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(metrics.value("haunt_process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(metrics.samples.get("haunt_nodejs_heap_size_used_bytes")?.[0]?.value).toBeGreaterThan(0);
    expect(metrics.value("haunt_inbox_database_up")).toBe(1);
    expect(metrics.value("haunt_photo_encoder_queue")).toBe(0);
    // No backups configured here: their gauges say nothing rather than "failed".
    expect(metrics.samples.get("haunt_backup_last_result")).toBeUndefined();
    expect(metrics.samples.get("haunt_backup_last_success_timestamp_seconds")).toBeUndefined();
    // Only /metrics on the metrics listener, and only on its address: 127.0.0.2 is loopback too, but not it.
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
    await expect(fetch(`http://127.0.0.2:${metricsPort}/metrics`)).rejects.toThrow();
  });

  it("count a burst of enquiries by outcome while being scraped, as many as were posted", async () => {
    const before = await scrape(metricsUrl);
    const storedBefore = (await site.stored()).length;
    const accepted = Array.from({ length: 12 }, () => enquiry());
    const spam = Array.from({ length: 4 }, () => ({ ...enquiry(), [honeypotField]: "https://seo.example" }));
    const wrongAnswer = Array.from({ length: 3 }, () => enquiry(undefined, { security: "Jason" }));
    const invalid = Array.from({ length: 2 }, () => enquiry(undefined, { email: "not an address" }));
    const scrapes: Promise<Scrape>[] = [];
    const statuses = await Promise.all([
      ...accepted.map((values, i) => {
        if (i % 3 === 0) scrapes.push(scrape(metricsUrl)); // scraped while the enquiries come in
        return postJson(site, values);
      }),
      ...spam.map(async (values) => (await postForm(site.url, values)).status),
      ...wrongAnswer.map((values) => postJson(site, values)),
      ...invalid.map((values) => postJson(site, values)),
      fetch(`${site.url}/contact`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "hello" }).then(
        (response) => response.status,
      ),
    ]);
    await Promise.all(scrapes);
    expect(statuses.slice(0, 12)).toEqual(accepted.map(() => 204));
    expect(statuses.slice(12, 16)).toEqual([303, 303, 303, 303]); // the usual thank-you: a bot learns nothing
    expect(statuses.at(-1)).toBe(415);

    const after = await scrape(metricsUrl);
    const counted = (labels: Record<string, string>) =>
      after.count("haunt_enquiries_total", labels) - before.count("haunt_enquiries_total", labels);
    expect(counted({ outcome: "accepted" })).toBe(12);
    expect(counted({ outcome: "spam" })).toBe(4);
    expect(counted({ outcome: "forwarded" })).toBe(0);
    expect(counted({ outcome: "refused", reason: "wrong-answer" })).toBe(3);
    expect(counted({ outcome: "refused", reason: "invalid" })).toBe(2);
    expect(counted({ outcome: "refused", reason: "unsupported-media-type" })).toBe(1);
    // What the database holds agrees: the accepted and the spam kept aside.
    expect((await site.stored()).length - storedBefore).toBe(12 + 4);

    // The requests by route and status, with their latency.
    const requests = (labels: Record<string, string>) =>
      after.count("haunt_http_requests_total", labels) - before.count("haunt_http_requests_total", labels);
    const api = { method: "POST", route: "routes/api.site.save-contact" };
    expect(requests({ ...api, status: "204" })).toBe(12);
    expect(requests({ method: "POST", route: "routes/contact", status: "303" })).toBe(4);
    expect(requests({ method: "POST", route: "routes/contact", status: "415" })).toBe(1);
    const latency = (name: string, labels: Record<string, string>) =>
      after.count(`haunt_http_request_duration_seconds_${name}`, labels) -
      before.count(`haunt_http_request_duration_seconds_${name}`, labels);
    expect(latency("count", { method: "POST", route: "routes/contact" })).toBe(5);
    expect(latency("sum", { method: "POST", route: "routes/contact" })).toBeGreaterThan(0);
  }, 60_000);

  it("label requests by route, never by path: static files, a page, a 404", async () => {
    const before = await scrape(metricsUrl);
    const home = await fetch(`${site.url}/`);
    const css = /href="(\/build\/[^"]+\.css)"/.exec(await home.text())![1]!;
    await (await fetch(`${site.url}${css}`)).arrayBuffer();
    await (await fetch(`${site.url}/no-such-page-${Date.now()}`)).arrayBuffer();
    await (await fetch(`${site.url}/metrics`)).arrayBuffer();
    const after = await scrape(metricsUrl);
    const requests = (labels: Record<string, string>) =>
      after.count("haunt_http_requests_total", labels) - before.count("haunt_http_requests_total", labels);
    expect(requests({ method: "GET", route: "routes/_index", status: "200" })).toBe(1);
    expect(requests({ method: "GET", route: "static", status: "200" })).toBe(1);
    expect(requests({ method: "GET", route: "not_found", status: "404" })).toBe(2);
    const routes = new Set(after.samples.get("haunt_http_requests_total")!.map((s) => s.labels.route));
    for (const route of routes) expect(route).toMatch(/^(root|routes\/[^/]+|static|photos|not_found)$/);
  });

  it("count wrong passwords and the throttle that follows them", async () => {
    const before = await scrape(metricsUrl);
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) {
      const answer = await sendAs(publicUrl, site.url, "/inbox/login", {
        method: "POST",
        body: { email: "someone@example.com", password: `guess ${n}`, next: "/inbox" },
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const after = await scrape(metricsUrl);
    const counted = (name: string, labels: Record<string, string>) =>
      after.count(name, labels) - before.count(name, labels);
    expect(counted("haunt_login_failures_total", { step: "password" })).toBe(5);
    expect(counted("haunt_login_throttled_total", { step: "password", reason: "throttled" })).toBe(1);
    expect(counted("haunt_login_failures_total", { step: "code" })).toBe(0);
  }, 60_000);

  it("show the notifications stuck while the webhook is down, their age growing, and drained once it is back", async () => {
    const pending = async () => (await scrape(metricsUrl)).value("haunt_notifications_pending", { channel: "webhook" });
    const age = async () =>
      (await scrape(metricsUrl)).value("haunt_notifications_oldest_pending_age_seconds", { channel: "webhook" })!;
    await waitFor(async () => (await pending()) === 0, "the earlier notifications delivered", 30_000);

    await receiver.stop();
    const stuck = Array.from({ length: 3 }, () => enquiry());
    for (const values of stuck) expect(await postJson(site, values)).toBe(204);
    await waitFor(async () => (await pending()) === 3, "three pending webhook notifications", 10_000);
    const first = await age();
    expect(first).toBeGreaterThan(0);
    await waitFor(async () => (await age()) > first + 0.5, "the oldest pending notification's age to grow", 10_000);
    expect((await scrape(metricsUrl)).value("haunt_notifications_failed", { channel: "webhook" })).toBe(0);

    await receiver.start();
    // Each notification is retried after its backoff (5 s, then 10 s at most here): drained within that.
    await waitFor(async () => (await pending()) === 0, "the pending notifications drained", 45_000);
    const drained = await scrape(metricsUrl);
    expect(drained.value("haunt_notifications_oldest_pending_age_seconds", { channel: "webhook" })).toBe(0);
    expect(drained.value("haunt_notifications_failed", { channel: "webhook" })).toBe(0);
    for (const values of stuck)
      expect(
        receiver.posts.some((post) => post.body.includes(values.email)),
        values.email,
      ).toBe(true);
  }, 60_000);

  it("close with the site at the shutdown signal, a scraper's kept-alive connection included", async () => {
    await scrape(metricsUrl); // fetch keeps this connection open for the next scrape
    await site.stop();
    expect(await site.exited).toBe(0);
    expect(site.output()).toContain("every request answered; stopped");
    await expect(fetch(metricsUrl)).rejects.toThrow();
  }, 30_000);
});

describe("the backup gauges", () => {
  const sites: SiteServer[] = [];
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()));
  });

  async function siteWithBackups(backupDir: string) {
    const metricsPort = await freePort();
    const site = await startSite({ BACKUP_INTERVAL: "1h", BACKUP_DIR: backupDir, METRICS_PORT: String(metricsPort) });
    sites.push(site);
    return `http://127.0.0.1:${metricsPort}/metrics`;
  }

  it("show the start's backup as a success, with its time", async () => {
    const dir = temp.dir();
    const url = await siteWithBackups(join(dir, "backups"));
    let metrics = await scrape(url);
    await waitFor(
      async () => (metrics = await scrape(url)).value("haunt_backup_last_result") !== undefined,
      "the start's backup to be tried",
      30_000,
    );
    expect(metrics.value("haunt_backup_last_result")).toBe(1);
    const takenAt = metrics.value("haunt_backup_last_success_timestamp_seconds")!;
    expect(Math.abs(takenAt - Date.now() / 1000)).toBeLessThan(300);
    expect(readdirSync(join(dir, "backups")).some((name) => name.endsWith(".db"))).toBe(true);
  }, 60_000);

  it("show a backup that failed as 0, and no last success when there is none", async () => {
    const dir = temp.dir();
    // A file where the directory should be: the backup cannot be written.
    writeFileSync(join(dir, "not-a-directory"), "");
    const url = await siteWithBackups(join(dir, "not-a-directory", "backups"));
    let metrics = await scrape(url);
    await waitFor(
      async () => (metrics = await scrape(url)).value("haunt_backup_last_result") !== undefined,
      "the start's backup to be tried",
      30_000,
    );
    expect(metrics.value("haunt_backup_last_result")).toBe(0);
    expect(metrics.samples.get("haunt_backup_last_success_timestamp_seconds")).toBeUndefined();
  }, 60_000);
});

describe.skipIf(!postgresAvailable)("the metrics of a site on PostgreSQL", () => {
  let postgres: TestPostgres;
  let receiver: WebhookReceiver;
  let site: SiteServer;
  let metricsUrl: string;
  beforeAll(async () => {
    postgres = await startPostgres();
    receiver = await startWebhookReceiver();
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    site = await startSite({
      DATABASE_URL: await postgres.createDatabase(),
      STORE_TIMEOUT_MS: "1000",
      NOTIFY_WEBHOOK_URL: receiver.url,
      NOTIFY_WEBHOOK_FORMAT: "json",
      METRICS_PORT: String(metricsPort),
    });
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
    await receiver?.stop();
    await postgres?.stop();
  });

  it("read the outbox there, and leave its gauges out, not the scrape, while the database is down", async () => {
    await receiver.stop();
    expect(await postJson(site, enquiry())).toBe(204);
    await waitFor(
      async () => (await scrape(metricsUrl)).value("haunt_notifications_pending", { channel: "webhook" }) === 1,
      "one pending webhook notification",
      10_000,
    );

    postgres.stopServer();
    const down = await scrape(metricsUrl);
    expect(down.value("haunt_inbox_database_up")).toBe(0);
    expect(down.samples.get("haunt_notifications_pending")).toBeUndefined();
    expect(down.samples.get("haunt_notifications_oldest_pending_age_seconds")).toBeUndefined();
    expect(down.samples.get("haunt_photo_encoder_queue")).toBeUndefined();
    expect(down.value("haunt_process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(site.output()).toContain("[metrics] the outbox and photo queue gauges are left out");

    postgres.startServer();
    await receiver.start();
    await waitFor(
      async () => (await scrape(metricsUrl)).value("haunt_notifications_pending", { channel: "webhook" }) === 0,
      "the notification delivered once the database and the webhook are back",
      45_000,
    );
    expect((await scrape(metricsUrl)).value("haunt_inbox_database_up")).toBe(1);
  }, 60_000);
});
