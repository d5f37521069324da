import { writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enquiryMessages } from "~/wording";
import { sentLocation } from "~/enquiry/answers.server";
import { postgresAvailable, startPostgres, type TestPostgres } from "../support/postgres";
import { postForm, statusArea } from "../support/site-http";
import { readInbox, startSite, waitFor, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";
import { enquiry } from "../support/enquiry";

/** The embedded inbox through the real built server: several processes, restarts, a stuck or missing database. */

const temp = useTempDir("haunt-embedded-server-");

describe("two server processes on one SQLite file", () => {
  let a: SiteServer;
  let b: SiteServer;
  const databaseUrl = `file:${join(temp.dir(), "shared.db")}`;
  beforeAll(async () => {
    [a, b] = await Promise.all([
      startSite({ API_HOST: "", DATABASE_URL: databaseUrl }),
      startSite({ API_HOST: "", DATABASE_URL: databaseUrl }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("stores every one of 120 concurrent enquiries once, and a double click once", async () => {
    const sent = Array.from({ length: 120 }, () => enquiry());
    const replies = await Promise.all(sent.map((values, i) => postForm((i % 2 ? a : b).url, values)));
    expect(replies.map((reply) => reply.status)).toEqual(sent.map(() => 303));
    // The same enquiry posted to both processes at once: thanked twice, stored once.
    const twice = enquiry();
    const doubles = await Promise.all([postForm(a.url, twice), postForm(b.url, twice), postForm(a.url, twice)]);
    expect(doubles.map((reply) => [reply.status, reply.location])).toEqual(doubles.map(() => [303, sentLocation]));

    const stored = await readInbox(databaseUrl);
    const emails = stored.map((item) => item.email);
    expect(new Set(emails).size).toBe(emails.length);
    expect(emails.sort()).toEqual([...sent, twice].map((values) => values.email).sort());
  }, 60_000);
});

describe("the v1 JSON-lines inbox", () => {
  it("is imported at the first start only: later starts do not read it again", async () => {
    const dir = temp.dir();
    const inboxFile = join(dir, "enquiries.jsonl");
    const lines = [
      {
        receivedAt: "2025-10-01T10:00:00.000Z",
        name: "Old One",
        email: "old1@example.com",
        message: "From last season",
      },
      {
        receivedAt: "2025-10-02T10:00:00.000Z",
        name: "Old Two",
        email: "old2@example.com",
        message: "Line one\nLine two",
      },
    ];
    writeFileSync(inboxFile, `${lines.map((line) => JSON.stringify(line)).join("\n")}\nnot json\n`);
    // Last season's enquiries are past the default RETENTION_DAYS (365) by now: kept here, this test is about the import.
    const env = {
      API_HOST: "",
      DATABASE_URL: `file:${join(dir, "enquiries.db")}`,
      INBOX_FILE: inboxFile,
      RETENTION_DAYS: "3650",
    };
    for (let start = 1; start <= 2; start++) {
      const site = await startSite(env);
      await site.stop();
      if (start === 1) {
        expect(site.output()).toContain(":3: not imported: not JSON");
        expect(site.output()).toContain(`imported 2 enquiries from ${inboxFile}`);
      } else {
        expect(site.output()).not.toContain("not imported");
        expect(site.output()).not.toMatch(/imported \d+ enquiries/);
      }
    }
    const stored = await readInbox(env.DATABASE_URL);
    expect(
      stored.map(({ receivedAt, name, email, message }) => ({
        receivedAt: receivedAt.toISOString(),
        name,
        email,
        message,
      })),
    ).toEqual([...lines].reverse());
  }, 60_000);
});

describe("a database that is stuck", () => {
  it("answers the visitor within the bounded wait with a clear 503 and their words, then takes enquiries again", async () => {
    const file = join(temp.dir(), "stuck.db");
    const site = await startSite({ API_HOST: "", DATABASE_URL: `file:${file}`, STORE_TIMEOUT_MS: "1000" });
    try {
      // Another process holds the write lock and does not let go: to the site, the database has stopped answering.
      const blocker = new DatabaseSync(file);
      blocker.exec("BEGIN EXCLUSIVE");
      const values = enquiry();
      const started = Date.now();
      const reply = await postForm(site.url, values);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(reply.status).toBe(503);
      expect(statusArea(reply.text)).toMatch(
        new RegExp(`^${enquiryMessages.errorPrefix} Server: .*send it again`, "i"),
      );
      expect(reply.text).toContain(values.message); // the form keeps what was typed
      const ready = await fetch(`${site.url}/readyz`);
      expect(ready.status).toBe(503);
      blocker.exec("ROLLBACK");
      blocker.close();
      expect((await postForm(site.url, values)).status).toBe(303);
      expect((await fetch(`${site.url}/readyz`)).status).toBe(200);
      expect((await site.stored()).map((item) => item.email)).toEqual([values.email]);
    } finally {
      await site.stop();
    }
  }, 30_000);
});

describe.skipIf(!postgresAvailable)("the embedded inbox on PostgreSQL", () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());

  it("starts while the database is down, says so, is not ready, and takes enquiries once it is up", async () => {
    const databaseUrl = await postgres.createDatabase();
    postgres.stopServer();
    const site = await startSite(
      { API_HOST: "", DATABASE_URL: databaseUrl, STORE_TIMEOUT_MS: "1000" },
      { startTimeoutMs: 30_000 },
    );
    try {
      expect(site.output()).toMatch(/inbox: cannot open PostgreSQL 127\.0\.0\.1:\d+\/\w+ \(attempt 1\).*retrying/);
      expect(site.output()).not.toContain("postgres@"); // never the credentials
      expect((await fetch(`${site.url}/readyz`)).status).toBe(503);
      expect((await fetch(`${site.url}/`)).status).toBe(200); // the pages do not need the database
      const values = enquiry();
      expect((await postForm(site.url, values)).status).toBe(503);

      postgres.startServer();
      await waitFor(
        async () => (await fetch(`${site.url}/readyz`)).status === 200,
        "/readyz after the database came up",
        20_000,
      );
      expect((await postForm(site.url, values)).status).toBe(303);
      expect((await site.stored()).map((item) => item.email)).toEqual([values.email]);
    } finally {
      await site.stop();
    }
  }, 60_000);

  it("recovers without a restart of its own when the database restarts under it", async () => {
    const databaseUrl = await postgres.createDatabase();
    const site = await startSite({ API_HOST: "", DATABASE_URL: databaseUrl, STORE_TIMEOUT_MS: "1000" });
    try {
      const before = enquiry();
      expect((await postForm(site.url, before)).status).toBe(303);
      postgres.restart();
      const after = enquiry();
      // The first use of a pooled connection the restart killed may fail; the visitor is told to try again.
      await waitFor(
        async () => (await postForm(site.url, after)).status === 303,
        "an enquiry after the restart",
        15_000,
      );
      expect((await site.stored()).map((item) => item.email).sort()).toEqual([before.email, after.email].sort());
      expect((await fetch(`${site.url}/readyz`)).status).toBe(200);
    } finally {
      await site.stop();
    }
  }, 60_000);
});
