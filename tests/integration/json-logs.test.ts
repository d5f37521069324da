import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { enquiry } from "../support/enquiry";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";

/**
 * LOG_FORMAT=json through the real built server, its database (SQLite, and PostgreSQL when installed) and a real SMTP
 * server: every line on stdout is one JSON object with level, time and msg; one request id runs from the access line
 * through the enquiry's line to the outbox's lines about its notification, sent later from the background (a retry
 * included); a trusted proxy's X-Request-Id is that id, an untrusted one never is; and no line holds the visitor's
 * address, their words or a query string.
 */

type LogRecord = Record<string, unknown>;

let sink: SmtpSink;
let postgres: TestDatabases | undefined;
const sites: SiteServer[] = [];
/** What the tests posted that no line may show: the visitors' addresses, their words, the query strings. */
const secrets: string[] = [];

beforeAll(async () => {
  await ensureBuilt();
  sink = await startSmtpSink();
  if (postgresAvailable) postgres = await sharedPostgres();
});
afterAll(async () => {
  await sink.stop();
  await postgres?.stop();
});
afterEach(async () => {
  // Checked on every server's whole output (stderr too), after it has stopped and said all it will.
  const stopped = sites.splice(0);
  await Promise.all(stopped.map((site) => site.stop()));
  sink.setMode("accept");
  for (const site of stopped) {
    const output = site.output();
    for (const secret of secrets) expect(output, `the log holds ${secret}`).not.toContain(secret);
  }
  secrets.length = 0;
});

async function site(env: Record<string, string>): Promise<SiteServer> {
  const started = await startSite({
    LOG_FORMAT: "json",
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example",
    NOTIFY_EMAIL_FROM: "site@grimforge.example",
    PUBLIC_URL: "http://localhost:3000",
    ...env,
  });
  sites.push(started);
  return started;
}

/** Every line on stdout, each parsed as JSON: a line that is not one fails the test. */
function records(target: SiteServer): LogRecord[] {
  return target
    .stdout()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as LogRecord;
      } catch {
        throw new Error(`a log line that is not JSON: ${line}`);
      }
    });
}

const of = (target: SiteServer, reqId: string) => records(target).filter((record) => record.reqId === reqId);

/** Posts one enquiry to the JSON API, with a query string the log must leave out; resolves with the answer's id. */
async function post(target: SiteServer, headers: Record<string, string> = {}): Promise<string> {
  const token = crypto.randomUUID();
  const sent = enquiry(token);
  const query = `utm_source=query-${token}`;
  secrets.push(sent.email, sent.message, token, query);
  const response = await fetch(`${target.url}/api/site/save-contact?${query}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(sent),
  });
  expect(response.status).toBe(204);
  const reqId = response.headers.get("x-request-id");
  expect(reqId).toBeTruthy();
  return reqId!;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The access line, the enquiry's line and (once sent) the notification's "sent" line all carry `reqId`. */
async function expectOneIdThroughout(target: SiteServer, reqId: string): Promise<void> {
  const sentLine = () => of(target, reqId).find((r) => r.event === "notification" && r.outcome === "sent");
  await waitFor(() => sentLine() !== undefined, `the outbox's sent line for request ${reqId}`, 30_000);
  const lines = of(target, reqId);
  expect(lines.find((r) => r.method === "POST")).toMatchObject({
    path: "/api/site/save-contact",
    status: 204,
    msg: expect.stringMatching(/^POST \/api\/site\/save-contact 204 /),
  });
  expect(lines.find((r) => r.event === "enquiry")).toMatchObject({ outcome: "sent", upstream: "embedded" });
  expect(sentLine()).toMatchObject({ level: "info", channel: "email", enquiryId: expect.any(String) });
}

/** Every line has the three fields a collector needs. */
function expectWellFormed(target: SiteServer): void {
  const all = records(target);
  expect(all.length).toBeGreaterThan(3);
  for (const record of all)
    expect(record).toMatchObject({ level: expect.any(String), time: expect.any(String), msg: expect.any(String) });
  expect(all.some((record) => record.msg === `[server] http://127.0.0.1:${target.port}`)).toBe(true);
}

describe("JSON logs (LOG_FORMAT=json)", () => {
  it("behind a trusted proxy: its X-Request-Id runs from the access line to the outbox's sent line", async () => {
    const target = await site({ TRUST_PROXY: "1" });
    const reqId = await post(target, { "X-Request-Id": "edge-01:trusted.4711" });
    expect(reqId).toBe("edge-01:trusted.4711");
    await expectOneIdThroughout(target, reqId);
    expectWellFormed(target);
  }, 60_000);

  it("without a request id: one is made, echoed, and carried the same way", async () => {
    const target = await site({ TRUST_PROXY: "1" });
    const reqId = await post(target);
    expect(reqId).toMatch(uuid);
    await expectOneIdThroughout(target, reqId);
    // A second request gets its own id.
    expect(await post(target)).not.toBe(reqId);
  }, 60_000);

  it("a trusted proxy's id that is not an id (a forged line) is replaced by one made here", async () => {
    const target = await site({ TRUST_PROXY: "1" });
    const forged = 'x"} {"level":"error","msg":"forged';
    secrets.push("forged");
    const reqId = await post(target, { "X-Request-Id": forged });
    expect(reqId).toMatch(uuid);
    await expectOneIdThroughout(target, reqId);
  }, 60_000);

  it("without a trusted proxy (TRUST_PROXY=0) the client's X-Request-Id is never used", async () => {
    const target = await site({ TRUST_PROXY: "0" });
    secrets.push("client-chosen-id");
    const reqId = await post(target, { "X-Request-Id": "client-chosen-id" });
    expect(reqId).toMatch(uuid);
    await expectOneIdThroughout(target, reqId);
  }, 60_000);

  it("an SMTP server that refuses once: the retry line and the later sent line carry the post's id", async () => {
    const target = await site({ TRUST_PROXY: "1" });
    sink.setMode({ reject: 451 });
    const reqId = await post(target, { "X-Request-Id": "retry-me-1" });
    const retry = () => of(target, reqId).find((r) => r.event === "notification" && r.outcome === "retry");
    await waitFor(() => retry() !== undefined, "the outbox's retry line", 30_000);
    expect(retry()).toMatchObject({
      channel: "email",
      attempts: 1,
      error: expect.any(String),
      retryAt: expect.any(String),
    });
    sink.setMode("accept");
    await expectOneIdThroughout(target, reqId);
    expect(of(target, reqId).find((r) => r.event === "notification" && r.outcome === "sent")).toMatchObject({
      attempts: 2,
    });
  }, 60_000);

  it.skipIf(!postgresAvailable)(
    "on PostgreSQL too, the id is kept with the notification",
    async () => {
      const target = await site({ TRUST_PROXY: "1", DATABASE_URL: await postgres!.createDatabase() });
      const reqId = await post(target, { "X-Request-Id": "pg-request-1" });
      await expectOneIdThroughout(target, reqId);
    },
    60_000,
  );

  it("an owner's search in the query string stays out of the access line", async () => {
    const target = await site({});
    secrets.push("needle-in-the-query");
    const response = await fetch(`${target.url}/about?q=needle-in-the-query`);
    expect(response.status).toBe(200);
    const reqId = response.headers.get("x-request-id")!;
    await waitFor(() => of(target, reqId).some((r) => r.method === "GET"), "the access line");
    expect(of(target, reqId).find((r) => r.method === "GET")).toMatchObject({ path: "/about", status: 200 });
  }, 60_000);
});
