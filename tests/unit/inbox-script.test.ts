import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendEnquiry, type StoredEnquiry } from "~/enquiry/inbox.server";
import { projectRoot } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/** `npm run inbox` (scripts/inbox.mjs) as a child process on temp files written by the app's own appendEnquiry. */

const script = join(projectRoot, "scripts/inbox.mjs");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], { cwd = projectRoot, inboxFile }: { cwd?: string; inboxFile?: string } = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.INBOX_FILE;
  if (inboxFile !== undefined) env.INBOX_FILE = inboxFile;
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd, env, timeout: 10_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const tempDir = useTempDir("haunt-inbox-script-").dir;

const ann: StoredEnquiry = {
  receivedAt: "2025-09-01T09:30:00.000Z",
  name: "Ann Example",
  email: "ann@example.com",
  message: "Hello,\nI would like a \"talking\" skull.\n\nThanks",
};
const bob: StoredEnquiry = { receivedAt: "2025-10-02T18:05:00.000Z", name: "Bob", email: "bob@example.com", message: "A fog machine, please." };
const cat: StoredEnquiry = { receivedAt: "2025-09-15T12:00:00.000Z", name: "Cat", email: "cat@example.com", message: "Pneumatic, please." };

/** An inbox file written by the app in the order ann, bob, cat (not date order). */
async function sampleInbox(): Promise<string> {
  const file = join(tempDir(), "enquiries.jsonl");
  for (const record of [ann, bob, cat]) await appendEnquiry(file, record);
  return file;
}

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
  it("says there are no enquiries yet when the file is missing, and exits 0", async () => {
    const result = await run([], { inboxFile: join(tempDir(), "none.jsonl") });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(/^No enquiries yet\b.*\n$/);
  });

  it("keeps --json and --csv output valid when the file is missing", async () => {
    const inboxFile = join(tempDir(), "none.jsonl");
    const json = await run(["--json"], { inboxFile });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
    const csv = await run(["--csv"], { inboxFile });
    expect(csv.code).toBe(0);
    expect(parseCsv(csv.stdout)).toEqual([["receivedAt", "name", "email", "message"]]);
  });

  it("prints the enquiries newest first: date, name <email>, then the message indented", async () => {
    const result = await run([], { inboxFile: await sampleInbox() });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const headers = result.stdout.split("\n").filter((line) => /^\d{4}-\d\d-\d\d /.test(line));
    expect(headers).toEqual([
      "2025-10-02 18:05 UTC  Bob <bob@example.com>",
      "2025-09-15 12:00 UTC  Cat <cat@example.com>",
      "2025-09-01 09:30 UTC  Ann Example <ann@example.com>",
    ]);
    expect(result.stdout).toContain(
      "2025-09-01 09:30 UTC  Ann Example <ann@example.com>\n    Hello,\n    I would like a \"talking\" skull.\n\n    Thanks\n",
    );
    expect(result.stdout).toMatch(/^3 enquiries in /);
  });

  it("prints a JSON array newest first with --json", async () => {
    const result = await run(["--json"], { inboxFile: await sampleInbox() });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual([bob, cat, ann]);
  });

  it("prints RFC 4180 CSV with a header row with --csv, quoting what needs it", async () => {
    const result = await run(["--csv"], { inboxFile: await sampleInbox() });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout.startsWith("receivedAt,name,email,message\r\n")).toBe(true);
    expect(result.stdout).toContain('"Hello,\nI would like a ""talking"" skull.\n\nThanks"');
    const rows = parseCsv(result.stdout);
    expect(rows).toEqual([
      ["receivedAt", "name", "email", "message"],
      ...[bob, cat, ann].map((e) => [e.receivedAt, e.name, e.email, e.message]),
    ]);
  });

  it("neutralises spreadsheet formulas in CSV cells starting with =, +, - or @", async () => {
    const file = join(tempDir(), "enquiries.jsonl");
    const hostile: StoredEnquiry = {
      receivedAt: "2025-10-03T00:00:00.000Z",
      name: '=HYPERLINK("http://evil.example","Click")',
      email: "@evil.example",
      message: "+1+cmd|' /C calc'!A0",
    };
    await appendEnquiry(file, hostile);
    await appendEnquiry(file, { receivedAt: "2025-10-02T00:00:00.000Z", name: "-2", email: "a@example.com", message: "=1, \"two\"\nthree" });
    const rows = parseCsv((await run(["--csv"], { inboxFile: file })).stdout);
    expect(rows.slice(1)).toEqual([
      [hostile.receivedAt, `'${hostile.name}`, `'${hostile.email}`, `'${hostile.message}`],
      ["2025-10-02T00:00:00.000Z", "'-2", "a@example.com", "'=1, \"two\"\nthree"],
    ]);
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@]/);
  });

  it("reports a corrupt line on stderr with its number, skips it, and shows the rest", async () => {
    const file = join(tempDir(), "enquiries.jsonl");
    const good = (e: StoredEnquiry) => JSON.stringify(e);
    writeFileSync(file, [good(ann), '{"receivedAt": "2025-', good(bob), "[1, 2]", '{"name": "No date"}', ""].join("\n"));
    const result = await run(["--json"], { inboxFile: file });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([bob, ann]);
    const reports = result.stderr.trim().split("\n");
    expect(reports).toHaveLength(3);
    expect(reports[0]).toMatch(/:2\b.*skipped/);
    expect(reports[1]).toMatch(/:4\b.*skipped/);
    expect(reports[2]).toMatch(/:5\b.*skipped/);
  });

  it("reads data/enquiries.jsonl relative to the working directory by default", async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, "data"));
    writeFileSync(join(cwd, "data", "enquiries.jsonl"), `${JSON.stringify(bob)}\n`);
    const result = await run(["--json"], { cwd });
    expect(JSON.parse(result.stdout)).toEqual([bob]);
  });

  it("keeps a visitor's control characters off the operator's terminal", async () => {
    const file = join(tempDir(), "enquiries.jsonl");
    await appendEnquiry(file, { ...bob, name: "Bob\u001b[2J\u001b]0;pwned\u0007", message: "line\u001b[31m red\r\nnext\u009b6n" });
    const result = await run([], { inboxFile: file });
    // eslint-disable-next-line no-control-regex
    expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(result.stdout).toContain("    next");
  });

  it("explains itself with --help and refuses unknown options", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    for (const word of ["--json", "--csv", "INBOX_FILE", "newest first"]) expect(help.stdout).toContain(word);
    const bad = await run(["--xml"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--xml");
  });

  it("is wired up as `npm run inbox`", async () => {
    const inboxFile = await sampleInbox();
    const result = await new Promise<Run>((resolve) => {
      execFile(
        "npm",
        ["run", "--silent", "inbox", "--", "--json"],
        { cwd: projectRoot, env: { ...process.env, INBOX_FILE: inboxFile }, timeout: 20_000 },
        (error, stdout, stderr) => resolve({ code: error ? -1 : 0, stdout, stderr }),
      );
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([bob, cat, ann]);
  });
});
