import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openSqlite } from "~/store/sqlite.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import type { V1Record } from "~/store/v1.types";
import { ensureBuilt, projectRoot } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";
import { putWaitlistRows } from "../support/waitlist-rows";

/** What `--json` says of an enquiry stored without the spam filter's judgement (saved directly, or imported from v1). */
const notJudged = { spamVerdict: "none", spamScore: null, spamReasons: [], spamDecision: null };
/** A new enquiry's place in the pipeline (ADR 0043), as --json prints it. */
const atNew = {
  stage: "new",
  lostReason: null,
  quoteAmount: null,
  quoteValidUntil: null,
  depositAmount: null,
  currency: "USD",
  neededBy: null,
  service: null,
};
const pipelineColumns = [
  "stage",
  "lostReason",
  "quoteAmount",
  "quoteValidUntil",
  "depositAmount",
  "neededBy",
  "service",
];

/**
 * `npm run inbox` (build/server/cli.js, bundled from server/cli/) as a child process, on SQLite files in
 * temp dirs filled through the app's own store.
 */

const script = join(projectRoot, "build/server/cli.js");
const temp = useTempDir("haunt-inbox-cli-");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], database: string, { cwd = projectRoot } = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: `file:${database}`, NODE_ENV: "production" };
  delete env.API_HOST;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd, env, timeout: 20_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const ann: V1Record = {
  receivedAt: "2025-09-01T09:30:00.000Z",
  name: "Ann Example",
  email: "ann@example.com",
  message: 'Hello,\nI would like a "talking" skull; soon.\n\nThanks',
};
const bob: V1Record = {
  receivedAt: "2025-10-02T18:05:00.000Z",
  name: "Bob",
  email: "bob@example.com",
  message: "A fog machine, please.",
};
const cat: V1Record = {
  receivedAt: "2025-09-15T12:00:00.000Z",
  name: "Cat",
  email: "cat@example.com",
  message: "Pneumatic, please.",
};

/** A fresh database holding `records` (stored in that order), and the store to arrange more. */
async function inboxWith(records: V1Record[]): Promise<{ database: string; store: InboxStore }> {
  const database = temp.file("enquiries.db");
  const store = await openInboxStore({ kind: "sqlite", path: database }, { timeoutMs: 5_000 });
  await store.importV1(records);
  return { database, store };
}

const withoutId = ({ id: _id, ...rest }: Record<string, unknown>) => rest;

beforeAll(() => ensureBuilt());

/** A strict RFC 4180 parser: quoted fields may hold commas, doubled quotes and line breaks; records end in CRLF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted field");
        if (text[i] === '"' && text[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else cell += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") {
        if (text[i] === '"') throw new Error(`bare quote in an unquoted field at ${i}`);
        cell += text[i++];
      }
    }
    row.push(cell);
    if (text[i] === ",") i++;
    else if (text.startsWith("\r\n", i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else throw new Error(`expected , or CRLF at ${i}, found ${JSON.stringify(text.slice(i, i + 5))}`);
  }
  if (row.length) throw new Error("last record does not end in CRLF");
  return rows;
}

describe("npm run inbox", () => {
  it("says there are no enquiries yet, and keeps --json and --csv valid", async () => {
    const { database, store } = await inboxWith([]);
    await store.close();
    const text = await run([], database);
    expect(text).toMatchObject({ code: 0, stderr: "" });
    expect(text.stdout).toBe("No enquiries yet.\n");
    expect(JSON.parse((await run(["--json"], database)).stdout)).toEqual([]);
    expect(parseCsv((await run(["--csv"], database)).stdout)).toEqual([
      ["id", "receivedAt", "name", "email", "message", "notifications", ...pipelineColumns],
    ]);
  });

  it("prints the enquiries newest first: date, name <email>, id, the message indented, then the notifications", async () => {
    const { database, store } = await inboxWith([ann, bob, cat]);
    await store.save({ name: "Dee", email: "dee@example.com", message: "Now!" }, ["email", "webhook"]);
    await store.close();
    const result = await run([], database);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const headers = result.stdout.split("\n").filter((line) => /^\d{4}-\d\d-\d\d /.test(line));
    expect(headers.map((line) => line.replace(/ {2}\[[^\]]+\]$/, ""))).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC {2}Dee <dee@example.com>$/),
      "2025-10-02 18:05 UTC  Bob <bob@example.com>",
      "2025-09-15 12:00 UTC  Cat <cat@example.com>",
      "2025-09-01 09:30 UTC  Ann Example <ann@example.com>",
    ]);
    expect(result.stdout).toContain("    -- email pending, webhook pending\n");
    expect(result.stdout).toContain("<ann@example.com>  [v1-");
    expect(result.stdout).toContain(
      '\n    Hello,\n    I would like a "talking" skull; soon.\n\n    Thanks\n    -- not notified\n',
    );
    expect(result.stdout.endsWith("\n4 enquiries, newest first.\n")).toBe(true);
  });

  it("prints a JSON array newest first with ids, ISO times and notification states", async () => {
    const { database, store } = await inboxWith([ann, bob, cat]);
    await store.save({ name: "Dee", email: "dee@example.com", message: "Now!" }, ["email"]);
    const [claim] = await store.claimDue("test", 1);
    await store.markFailed(claim!, "SMTP 550 mailbox unavailable");
    await store.close();
    const result = await run(["--json"], database);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const items = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(items.map(withoutId)).toEqual([
      {
        receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        name: "Dee",
        email: "dee@example.com",
        message: "Now!",
        status: "new",
        ...notJudged,
        ...atNew,
        notifications: [
          {
            channel: "email",
            state: "failed",
            attempts: 1,
            lastError: "SMTP 550 mailbox unavailable",
            nextAttemptAt: null,
          },
        ],
      },
      ...[bob, cat, ann].map((record) => ({ ...record, status: "new", ...notJudged, ...atNew, notifications: [] })),
    ]);
    for (const item of items) expect(item.id).toEqual(expect.any(String));
  });

  it("prints RFC 4180 CSV with a header row, quoting cells with , ; quotes or line breaks", async () => {
    const { database, store } = await inboxWith([ann, bob, cat]);
    await store.close();
    const result = await run(["--csv"], database);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toContain('"Hello,\nI would like a ""talking"" skull; soon.\n\nThanks"');
    expect(result.stdout).toContain(',"A fog machine, please.",');
    const rows = parseCsv(result.stdout);
    expect(rows.map((row) => row.slice(1))).toEqual([
      ["receivedAt", "name", "email", "message", "notifications", ...pipelineColumns],
      ...[bob, cat, ann].map((e) => [
        e.receivedAt,
        e.name,
        e.email,
        e.message,
        "not notified",
        "new",
        "",
        "",
        "",
        "",
        "",
        "",
      ]),
    ]);
  });

  it("says when a pending notification's next try is: nextAttemptAt in --json, the time in the text", async () => {
    const { database, store } = await inboxWith([]);
    await store.save({ name: "Dee", email: "dee@example.com", message: "Now!" }, ["webhook"]);
    const [claim] = await store.claimDue("test", 1);
    const next = new Date("2030-01-02T03:04:05.000Z");
    await store.markRetry(claim!, "webhook at hooks.slack.com answered HTTP 503", next);
    await store.close();
    const [item] = JSON.parse((await run(["--json"], database)).stdout) as { notifications: unknown[] }[];
    expect(item!.notifications).toEqual([
      {
        channel: "webhook",
        state: "pending",
        attempts: 1,
        lastError: "webhook at hooks.slack.com answered HTTP 503",
        nextAttemptAt: "2030-01-02T03:04:05.000Z",
      },
    ]);
    expect((await run([], database)).stdout).toContain(
      "-- webhook pending after 1 attempt (webhook at hooks.slack.com answered HTTP 503), next try 2030-01-02 03:04:05 UTC\n",
    );
  });

  it("quotes a CSV cell holding a tab", async () => {
    const { database, store } = await inboxWith([{ ...bob, name: "Bob\tBuilder", message: "one\ttwo" }]);
    await store.close();
    const csv = (await run(["--csv"], database)).stdout;
    expect(csv).toContain(',"Bob\tBuilder",bob@example.com,"one\ttwo",');
    expect(parseCsv(csv)[1]!.slice(2, 5)).toEqual(["Bob\tBuilder", "bob@example.com", "one\ttwo"]);
  });

  it("neutralises spreadsheet formulas in CSV cells starting with =, +, - or @", async () => {
    const hostile = {
      receivedAt: "2025-10-03T00:00:00.000Z",
      name: '=HYPERLINK("http://evil.example","Click")',
      email: "@evil.example",
      message: "+1+cmd|' /C calc'!A0",
    };
    const { database, store } = await inboxWith([
      hostile,
      { receivedAt: "2025-10-02T00:00:00.000Z", name: "-2", email: "a@example.com", message: '=1; "two"\nthree' },
    ]);
    await store.close();
    const rows = parseCsv((await run(["--csv"], database)).stdout);
    expect(rows.slice(1).map((row) => row.slice(1, 5))).toEqual([
      [hostile.receivedAt, `'${hostile.name}`, `'${hostile.email}`, `'${hostile.message}`],
      ["2025-10-02T00:00:00.000Z", "'-2", "a@example.com", '\'=1; "two"\nthree'],
    ]);
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@]/);
  });

  it("keeps a visitor's control characters and bidi overrides out of every format", async () => {
    const nasty = {
      ...bob,
      name: "Bob\u001b[2J\u001b]0;pwned\u0007\u202egnp.exe",
      message: "line\u001b[31m red\r\nnext\u009b6n\u2066",
    };
    const { database, store } = await inboxWith([nasty]);
    await store.close();
    // eslint-disable-next-line no-control-regex
    const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    const text = await run([], database);
    expect(text.stdout).not.toMatch(unsafe);
    expect(text.stdout).toContain("    next");
    const csv = await run(["--csv"], database);
    expect(csv.stdout.replace(/\r\n/g, "\n")).not.toMatch(unsafe);
    const json = await run(["--json"], database);
    expect(json.stdout).not.toMatch(unsafe);
    // JSON keeps the exact text, escaped.
    expect((JSON.parse(json.stdout) as { name: string }[])[0]!.name).toBe(nasty.name);
  });

  it("lists from a date on with --since, and refuses a date it cannot read", async () => {
    const { database, store } = await inboxWith([ann, bob, cat]);
    await store.close();
    const recent = JSON.parse((await run(["--json", "--since", "2025-09-10"], database)).stdout) as { name: string }[];
    expect(recent.map((item) => item.name)).toEqual(["Bob", "Cat"]);
    const bad = await run(["--since", "last halloween"], database);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--since");
  });

  it("retry puts failed notifications back to pending", async () => {
    const { database, store } = await inboxWith([]);
    await store.save({ name: "Dee", email: "dee@example.com", message: "Now!" }, ["email", "webhook"]);
    for (const claim of await store.claimDue("test", 10)) await store.markFailed(claim, "down");
    await store.close();
    const result = await run(["retry"], database);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^2 failed notifications put back to pending/);
    const [item] = JSON.parse((await run(["--json"], database)).stdout) as { notifications: { state: string }[] }[];
    expect(item!.notifications.map((n) => n.state)).toEqual(["pending", "pending"]);
    expect((await run(["retry"], database)).stdout).toMatch(/^0 failed notifications/);
  });

  it("erase deletes every enquiry from an address, any case, and says how many", async () => {
    const { database, store } = await inboxWith([
      ann,
      bob,
      { ...ann, receivedAt: "2025-10-05T00:00:00.000Z", message: "Again" },
    ]);
    await store.close();
    const result = await run(["erase", "ANN@example.com"], database);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toBe("Erased 2 enquiries from ANN@example.com with their notifications.\n");
    const left = JSON.parse((await run(["--json"], database)).stdout) as { email: string }[];
    expect(left.map((item) => item.email)).toEqual(["bob@example.com"]);
    expect((await run(["erase"], database)).code).toBe(2);
  });

  it("erase reaches the waitlist too, and says so", async () => {
    const { database, store } = await inboxWith([ann]);
    await store.close();
    const db = openSqlite(database, { timeoutMs: 5_000 });
    await putWaitlistRows(db, [
      { email: "ann@example.com", state: "confirmed" },
      { email: "fan@example.com", state: "pending" },
    ]);
    await db.close();
    const result = await run(["erase", "Ann@Example.com"], database);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toBe(
      "Erased 1 enquiry from Ann@Example.com with their notifications.\n" +
        "Erased Ann@Example.com from the waitlist too, with its list mail.\n",
    );
    const after = await openInboxStore({ kind: "sqlite", path: database }, { timeoutMs: 5_000 });
    expect((await after.waitlistEntries()).map((entry) => entry.email)).toEqual(["fan@example.com"]);
    await after.close();
    // Only on the list: the enquiries' line says none, the list's says it went.
    expect((await run(["erase", "fan@example.com"], database)).stdout).toBe(
      "Erased 0 enquiries from fan@example.com with their notifications.\n" +
        "Erased fan@example.com from the waitlist too, with its list mail.\n",
    );
  });

  it("streams a large inbox", async () => {
    const base = Date.parse("2026-01-01T00:00:00Z");
    const many = Array.from({ length: 2_500 }, (_, i) => ({
      receivedAt: new Date(base + i * 1000).toISOString(),
      name: `V${i}`,
      email: `v${i}@example.com`,
      message: "x".repeat(200),
    }));
    const { database, store } = await inboxWith(many);
    await store.close();
    const items = JSON.parse((await run(["--json"], database)).stdout) as { name: string }[];
    expect(items).toHaveLength(2_500);
    expect(items[0]!.name).toBe("V2499");
    expect(parseCsv((await run(["--csv"], database)).stdout)).toHaveLength(2_501);
  });

  it("explains itself with --help and refuses unknown options and commands", async () => {
    const database = temp.file("enquiries.db");
    const help = await run(["--help"], database);
    expect(help.code).toBe(0);
    for (const word of ["--json", "--csv", "--since", "retry", "erase", "DATABASE_URL", "newest first"])
      expect(help.stdout).toContain(word);
    const bad = await run(["--xml"], database);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--xml");
    expect((await run(["delete-all"], database)).code).toBe(2);
  });

  it("loads neither React nor Remix: its bundle imports only what the store and the commands need", () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(join(dirname(script), file), "utf8");
      for (const [, target] of code.matchAll(/(?:from|import\()\s*"([^"]+)"/g)) {
        if (target!.startsWith("./")) visit(target!.slice(2));
        else if (!target!.startsWith("node:")) packages.add(target!);
      }
    };
    visit("cli.js");
    expect([...packages].filter((name) => /^(react|react-dom|@remix-run\/.*)$/.test(name))).toEqual([]);
    expect(packages).toContain("pg");
  });

  it("is wired up as `npm run inbox`", async () => {
    const { database, store } = await inboxWith([ann, bob, cat]);
    await store.close();
    const result = await new Promise<Run>((resolve) => {
      execFile(
        "npm",
        ["run", "--silent", "inbox", "--", "--json"],
        { cwd: projectRoot, env: { ...process.env, DATABASE_URL: `file:${database}` }, timeout: 20_000 },
        (error, stdout, stderr) => resolve({ code: error ? -1 : 0, stdout, stderr }),
      );
    });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Record<string, unknown>[]).map(withoutId)).toEqual(
      [bob, cat, ann].map((r) => ({ ...r, status: "new", ...notJudged, ...atNew, notifications: [] })),
    );
  });
});
