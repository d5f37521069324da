import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ListedEnquiry } from "~/store/records";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { ensureBuilt, readInbox, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { enquiry } from "../support/enquiry";

/**
 * Several instances of the built server on one PostgreSQL database with a real SMTP server, as behind a load
 * balancer: enquiries split between them are stored once and e-mailed once, and one instance killed with kill -9 while
 * the mail server is down leaves nothing behind: the other delivers every pending notification once it is back.
 */

let postgres: TestDatabases;
let sink: SmtpSink;
const sites: SiteServer[] = [];

beforeAll(async () => {
  if (!postgresAvailable) return;
  await ensureBuilt();
  [postgres, sink] = await Promise.all([sharedPostgres(), startSmtpSink()]);
}, 60_000);
afterAll(async () => {
  await sink?.stop();
  await postgres?.stop();
});
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
  sink.setMode("accept");
  await sink.start();
});

async function twoInstances(databaseUrl: string): Promise<[SiteServer, SiteServer]> {
  const env = {
    API_HOST: "",
    DATABASE_URL: databaseUrl,
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example",
    NOTIFY_EMAIL_FROM: "site@grimforge.example",
  };
  const started = await Promise.all([startSite(env), startSite(env)]);
  sites.push(...started);
  return started as [SiteServer, SiteServer];
}

async function post(target: SiteServer, run: string, n: number): Promise<string> {
  const values = enquiry(`${run}-${n}`);
  const response = await fetch(`${target.url}/api/site/save-contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(values),
  });
  expect(response.status).toBe(204);
  return values.email;
}

const allSent = (items: ListedEnquiry[]) => items.every((item) => item.notifications.every((n) => n.state === "sent"));

describe.skipIf(!postgresAvailable)("two instances on one PostgreSQL database", () => {
  it("200 concurrent enquiries split between them: 200 rows, 200 e-mails, each once", { timeout: 60_000 }, async () => {
    const databaseUrl = await postgres.createDatabase();
    const [a, b] = await twoInstances(databaseUrl);
    const run = randomUUID();
    const emails = await Promise.all(Array.from({ length: 200 }, (_, n) => post(n % 2 ? a : b, run, n)));

    await waitFor(async () => allSent(await readInbox(databaseUrl)), "every notification sent", 60_000);
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // a few polls more: nothing is sent again
    const stored = await readInbox(databaseUrl);
    expect(stored.map((item) => item.email).sort()).toEqual([...emails].sort());
    for (const item of stored) expect(sink.forEnquiry(item.id), item.email).toHaveLength(1);
    // The work was shared: both instances sent some.
    expect(a.output()).toContain('"outcome":"sent"');
    expect(b.output()).toContain('"outcome":"sent"');
  });

  it(
    "mail server down, one instance killed with kill -9, mail server back: the other delivers everything once",
    { timeout: 60_000 },
    async () => {
      const databaseUrl = await postgres.createDatabase();
      await sink.stop(); // down: connections refused
      const [doomed, survivor] = await twoInstances(databaseUrl);
      const run = randomUUID();
      const emails = await Promise.all(Array.from({ length: 20 }, (_, n) => post(n % 2 ? doomed : survivor, run, n)));
      // Both instances have tried and failed at least once, so the notifications carry retries and (some) claims.
      await waitFor(
        async () => (await readInbox(databaseUrl)).every((item) => item.notifications.every((n) => n.attempts > 0)),
        "a first failed attempt for every notification",
        20_000,
      );
      await doomed.kill("SIGKILL");
      await sink.start();

      await waitFor(
        async () => allSent(await readInbox(databaseUrl)),
        "every notification sent by the survivor",
        45_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const stored = await readInbox(databaseUrl);
      expect(stored.map((item) => item.email).sort()).toEqual([...emails].sort());
      for (const item of stored) expect(sink.forEnquiry(item.id), item.email).toHaveLength(1);
      expect(survivor.output()).toContain('"outcome":"sent"');
    },
  );
});
