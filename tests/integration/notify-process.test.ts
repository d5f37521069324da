import { DatabaseSync } from "node:sqlite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ListedEnquiry } from "~/store/records";
import {
  ensureBuilt,
  readInbox,
  runSiteExpectingExit,
  startSite,
  waitFor,
  type SiteServer,
} from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { enquiry } from "../support/enquiry";

/**
 * Notifications through the real built server (`npm start`), its SQLite database in a temp dir, a real SMTP
 * server and a real webhook receiver: crashes, restarts, two processes on one file, shutdown.
 */

const temp = useTempDir("haunt-notify-site-");
let sink: SmtpSink;
let receiver: WebhookReceiver;
const sites: SiteServer[] = [];

beforeAll(async () => {
  await ensureBuilt();
  sink = await startSmtpSink();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await sink.stop();
  await receiver.stop();
});
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
  sink.setMode("accept");
  receiver.setMode("accept");
  await sink.start();
  await receiver.start();
});

function notifyEnv(database: string): Record<string, string> {
  return {
    DATABASE_URL: `file:${database}`,
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example, workshop@grimforge.example",
    NOTIFY_EMAIL_FROM: "site@grimforge.example",
    NOTIFY_WEBHOOK_URL: receiver.url,
  };
}

async function site(env: Record<string, string>): Promise<SiteServer> {
  const started = await startSite(env);
  sites.push(started);
  return started;
}

let posted = 0;
async function postEnquiry(
  target: SiteServer,
  email = `visitor${posted + 1}-${Date.now()}@example.com`,
): Promise<string> {
  posted += 1;
  const response = await fetch(`${target.url}/api/site/save-contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(enquiry(String(posted), { email })),
  });
  expect(response.status).toBe(204);
  return email;
}

const stored = (database: string) => readInbox(`file:${database}`);

const allSent = (items: ListedEnquiry[]) =>
  items.every((e) => e.notifications.length === 2 && e.notifications.every((n) => n.state === "sent"));

describe("notifications from the built server", () => {
  it(
    "kill -9 while sends are in flight, then a restart: every notification delivered once",
    { timeout: 60_000 },
    async () => {
      const database = `${temp.dir()}/enquiries.db`;
      // Both far ends stall: the server claims the notifications and is stuck sending them when it dies.
      sink.setMode("stall");
      receiver.setMode("stall");
      const first = await site(notifyEnv(database));
      const emails = [await postEnquiry(first), await postEnquiry(first), await postEnquiry(first)];
      // Two per destination at most (the outbox's limit): the third waits its turn, unclaimed.
      await waitFor(() => sink.connections() >= 2 && receiver.attempts() >= 2, "sends in flight", 10_000);
      await first.kill("SIGKILL");

      const pending = await stored(database);
      expect(pending.map((e) => e.email).sort()).toEqual([...emails].sort());
      expect(pending.every((e) => e.notifications.every((n) => n.state === "pending"))).toBe(true);

      // The dead process's claims hold for their 30 s lease (outbox.test.ts: taken over then, not before); here it is moved
      // into the past, so the restart finds them expired without the test sitting through it.
      const claims = new DatabaseSync(database, { timeout: 5_000 });
      try {
        const moved = claims
          .prepare("UPDATE notifications SET claim_until = ? WHERE state = 'pending' AND claim_until IS NOT NULL")
          .run(Date.now() - 1);
        expect(Number(moved.changes)).toBeGreaterThanOrEqual(4);
      } finally {
        claims.close();
      }
      sink.setMode("accept");
      receiver.setMode("accept");
      const second = await site(notifyEnv(database));
      await waitFor(async () => allSent(await stored(database)), "every notification sent after the restart", 30_000);
      await new Promise((r) => setTimeout(r, 1_000));
      const items = await stored(database);
      for (const item of items) {
        expect(sink.forEnquiry(item.id)).toHaveLength(1);
        expect(receiver.forEnquiry(item.id)).toHaveLength(1);
      }
      expect(second.output()).toContain('"outcome":"sent"');
    },
  );

  it(
    "two server processes on one SQLite file, concurrent posts: every enquiry stored once and notified once",
    { timeout: 60_000 },
    async () => {
      const database = `${temp.dir()}/enquiries.db`;
      const [a, b] = await Promise.all([site(notifyEnv(database)), site(notifyEnv(database))]);
      const emails = await Promise.all(Array.from({ length: 40 }, (_, i) => postEnquiry(i % 2 ? a : b)));
      await waitFor(async () => allSent(await stored(database)), "every notification sent", 30_000);
      await new Promise((r) => setTimeout(r, 2_500)); // a few polls more: nothing is sent again
      const items = await stored(database);
      expect(items.map((e) => e.email).sort()).toEqual([...emails].sort());
      for (const item of items) {
        expect(sink.forEnquiry(item.id)).toHaveLength(1);
        expect(receiver.forEnquiry(item.id)).toHaveLength(1);
      }
      // Both processes did part of the work.
      expect(a.output()).toContain('"outcome":"sent"');
      expect(b.output()).toContain('"outcome":"sent"');
    },
  );

  it("a double submit is thanked twice, stored once and announced once", { timeout: 30_000 }, async () => {
    const database = `${temp.dir()}/enquiries.db`;
    const running = await site(notifyEnv(database));
    const email = `double-${Date.now()}@example.com`;
    const body = JSON.stringify(enquiry(undefined, { email }));
    const post = () =>
      fetch(`${running.url}/api/site/save-contact`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
      });
    expect((await Promise.all([post(), post()])).map((r) => r.status)).toEqual([204, 204]);
    await waitFor(async () => allSent(await stored(database)), "the notifications sent");
    await new Promise((r) => setTimeout(r, 1_000));
    const items = await stored(database);
    expect(items).toHaveLength(1);
    expect(sink.forEnquiry(items[0]!.id)).toHaveLength(1);
    expect(receiver.forEnquiry(items[0]!.id)).toHaveLength(1);
  });

  it(
    "exits within 10 s of SIGTERM while a send stalls; the notification stays pending",
    { timeout: 40_000 },
    async () => {
      const database = `${temp.dir()}/enquiries.db`;
      sink.setMode("stall");
      const running = await site(notifyEnv(database));
      await postEnquiry(running);
      await waitFor(() => sink.connections() > 0, "a send in flight", 10_000);
      const started = Date.now();
      await running.kill("SIGTERM");
      expect(Date.now() - started).toBeLessThan(10_000);
      const [item] = await stored(database);
      expect(item?.notifications.find((n) => n.channel === "email")?.state).toBe("pending");
    },
  );

  it("says at start where notifications go, without secrets", async () => {
    const database = `${temp.dir()}/enquiries.db`;
    const env = { ...notifyEnv(database), SMTP_URL: sink.url.replace("smtp://", "smtp://user:hunter2@") };
    const running = await site(env);
    await waitFor(() => running.output().includes("notify: "), "the notify start line");
    expect(running.output()).toContain(`e-mail to 2 address(es) through smtp://127.0.0.1:${sink.port}`);
    expect(running.output()).toContain(`webhook at 127.0.0.1:${receiver.port}`);
    expect(running.output()).not.toContain("hunter2");
    expect(running.output()).not.toContain("secret-token");
  });

  it("with no channel configured stores enquiries and says at start that nobody will be notified", async () => {
    const database = `${temp.dir()}/enquiries.db`;
    const running = await site({ DATABASE_URL: `file:${database}` });
    await waitFor(() => running.output().includes("nobody will be notified"), "the warning");
    const email = await postEnquiry(running);
    const [item] = await stored(database);
    expect(item).toMatchObject({ email, notifications: [] });
  });

  it.each([
    [{ SMTP_URL: "not a url", NOTIFY_EMAIL_TO: "o@example.com", NOTIFY_EMAIL_FROM: "s@example.com" }, "SMTP_URL"],
    [
      { SMTP_URL: "smtp://127.0.0.1:25", NOTIFY_EMAIL_TO: "nobody", NOTIFY_EMAIL_FROM: "s@example.com" },
      "NOTIFY_EMAIL_TO",
    ],
    [{ SMTP_URL: "smtp://127.0.0.1:25" }, "NOTIFY_EMAIL_FROM"],
  ])("refuses to start with %j, naming %s", async (env, name) => {
    const result = await runSiteExpectingExit({ DATABASE_URL: `file:${temp.dir()}/enquiries.db`, ...env });
    expect(result.code).toBe(1);
    expect(result.output).toContain(name);
  });
});
