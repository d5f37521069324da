import { randomBytes, randomInt } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSqlite } from "~/store/sqlite.server";
import { openInboxStore } from "~/store/store.server";
import { runInbox } from "../support/inbox-command";
import { sendAs } from "../support/site-http";
import { ensureBuilt, readInbox, startSite, waitFor, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";
import { putWaitlistRows } from "../support/waitlist-rows";

/**
 * An erase leaves no copy anywhere the site writes: the built server on SQLite, an operator who
 * searches for the address, opens the enquiry, exports the search and erases; a failed login typed with the address;
 * then the database's files (.db, -wal, -shm) and everything the server printed are read as bytes for the visitor's
 * name, address, message and phone number: none within 5 s while the server runs, none after it stops. The same for
 * `npm run inbox -- erase` while the server runs. Both say that the v1 file still holds the address. And a database
 * written before secure_delete was on: its first erase leaves no old copy in free space.
 */

const temp = useTempDir("haunt-erase-");
const publicUrl = "http://inbox.example";
const operator = { email: "owner@example.com", password: "violet lantern over a mossy gravestone" };

const cli = (env: Record<string, string>, args: string[], input = "") =>
  runInbox(args, { env: { PUBLIC_URL: publicUrl, API_HOST: "", ...env }, input });

const send = (
  site: SiteServer,
  path: string,
  options: { method?: string; cookie?: string; body?: Record<string, string> } = {},
) => sendAs(publicUrl, site.url, path, options);

/** A visitor's words, each unique to this run, so finding one anywhere is finding a copy of this enquiry. */
function visitor() {
  const token = randomBytes(6).toString("hex");
  const phone = `07700 ${randomInt(100_000, 999_999)}${randomInt(100, 999)}`;
  const name = `Morwenna Quill${token.slice(0, 4)}`;
  const email = `morwenna.${token}@example.com`;
  const message = `Hexed-${token}: a coffin lid that creaks open by itself. Please ring me on ${phone}.`;
  // The token alone too: it is in the address however a URL or a log encodes it (%40 for @).
  return { name, email, message, phone, words: [name, email, `Hexed-${token}`, phone, token] };
}

/** The words of `words` found in any file of `dir` (the database and its -wal and -shm), read as bytes. */
function copiesIn(dir: string, words: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of readdirSync(dir)) {
    const bytes = readFileSync(join(dir, file));
    for (const word of words) if (bytes.includes(word)) found.push(`${word} in ${file}`);
  }
  return found;
}

/** The words found in `text`, as they are and as a URL carries them. */
const inText = (text: string, words: readonly string[]) =>
  words.filter((word) =>
    [word, encodeURIComponent(word), new URLSearchParams({ word }).toString().slice(5)].some((form) =>
      text.includes(form),
    ),
  );

describe("an erase leaves no copy (SQLite, the built server)", () => {
  let databaseDir: string;
  let env: Record<string, string>;
  let site: SiteServer;
  let cookie: string;
  beforeAll(async () => {
    await ensureBuilt();
    databaseDir = temp.dir();
    env = { DATABASE_URL: `file:${join(databaseDir, "inbox.db")}`, INBOX_FILE: join(temp.dir(), "enquiries.jsonl") };
    expect((await cli(env, ["operator", "add", operator.email], `${operator.password}\n`)).status).toBe(0);
  });
  afterAll(() => site?.stop());

  const start = async () => {
    site = await startSite({ API_HOST: "", PUBLIC_URL: publicUrl, ...env });
    const login = await send(site, "/inbox/login", { method: "POST", body: { ...operator, next: "/inbox" } });
    expect(login.status).toBe(302);
    cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
  };

  /** Posts the visitor's enquiry through the form and finds its id through the owner's search. */
  const storeEnquiry = async (person: ReturnType<typeof visitor>) => {
    const posted = await send(site, "/contact", {
      method: "POST",
      body: { name: person.name, email: person.email, message: person.message, security: "Freddy" },
    });
    expect(posted.status).toBe(303);
    const search = await send(site, `/inbox?folder=all&q=${encodeURIComponent(person.email)}`, { cookie });
    const id = /action="\/inbox\/([0-9a-f-]{36})"/.exec(search.text)?.[1];
    expect(id).toBeDefined();
    return id!;
  };

  it("the web Erase, after a search, an opened enquiry, an export and a failed login with the address", async () => {
    await start();
    const person = visitor();
    // The v1 file the site imported once still holds the address (the operator's file: never rewritten).
    writeFileSync(
      env.INBOX_FILE!,
      `${JSON.stringify({ receivedAt: "2026-10-01T12:00:00.000Z", name: person.name, email: person.email, message: "An old one." })}\n`,
    );
    const id = await storeEnquiry(person);
    const opened = await send(site, `/inbox/${id}`, { method: "POST", cookie, body: { intent: "open" } });
    expect(opened.status).toBe(303); // opened from the list: marked read
    expect((await send(site, `/inbox/${id}`, { cookie })).text).toContain(person.phone);
    // The pipeline's rows quote the customer too: a note with their number, a stage with a quote.
    const noted = await send(site, `/inbox/${id}`, {
      method: "POST",
      cookie,
      body: { intent: "note", note: `Rang ${person.name} on ${person.phone}.` },
    });
    expect(noted.status).toBe(303);
    const revision = /name="revision" value="(\d+)"/.exec((await send(site, `/inbox/${id}`, { cookie })).text)![1]!;
    const quoted = await send(site, `/inbox/${id}`, {
      method: "POST",
      cookie,
      body: { intent: "stage", stage: "quoted", quoteAmount: "900", revision },
    });
    expect(quoted.status).toBe(303);
    const exported = await send(site, `/inbox/export.csv?folder=all&q=${encodeURIComponent(person.name)}`, { cookie });
    expect(exported.text).toContain(person.email);
    const failed = await send(site, "/inbox/login", {
      method: "POST",
      body: { email: person.email, password: "not the password at all", next: "/inbox" },
    });
    expect(failed.status).toBe(401);
    // The same person asked to hear when orders open: the erase takes them off the waitlist too.
    const db = openSqlite(join(databaseDir, "inbox.db"), { timeoutMs: 5_000 });
    await putWaitlistRows(db, [{ email: person.email, state: "confirmed" }]);
    await db.close();
    expect(copiesIn(databaseDir, person.words).length).toBeGreaterThan(0); // the scan finds what is there

    const confirmPage = await send(site, `/inbox/${id}/erase`, { cookie });
    expect(confirmPage.text).toContain(person.email);
    expect(confirmPage.text).toContain("If the address is on the waitlist, it is erased from it too");
    const erased = await send(site, `/inbox/${id}/erase`, { method: "POST", cookie });
    expect(erased.status).toBe(302);
    expect(erased.headers.location).toBe("/inbox?erased=1&waitlist=1&v1=1");
    const after = await send(site, erased.headers.location!, { cookie });
    expect(after.text).toContain("Erased 1 enquiry, and the address from the waitlist.");
    expect(after.text).toContain(`The old v1 inbox file ${env.INBOX_FILE} on the server still holds`);
    expect(site.output()).toContain(`The old v1 inbox file ${env.INBOX_FILE} on the server still holds`);
    const activity = await send(site, "/inbox/activity", { cookie });
    expect(activity.text).toContain("exported CSV");
    expect(activity.text).toContain("folder all, with a search");

    // Within 5 s, with the server running: no copy in the database's files, none in what the server printed.
    await waitFor(() => copiesIn(databaseDir, person.words).length === 0, "no copy in the database files", 5_000).catch(
      () => expect(copiesIn(databaseDir, person.words)).toEqual([]),
    );
    expect(inText(site.output(), person.words)).toEqual([]);
    expect(site.output()).toMatch(/GET \/inbox 200/); // the access log names the path only
    await site.stop();
    expect(copiesIn(databaseDir, person.words)).toEqual([]);
    expect(inText(site.output(), person.words)).toEqual([]);
  }, 60_000);

  it("`npm run inbox -- erase` while the server runs", async () => {
    await start();
    const person = visitor();
    writeFileSync(env.INBOX_FILE!, ""); // an empty v1 file holds nobody: nothing is said about it
    const id = await storeEnquiry(person);
    expect((await send(site, `/inbox/${id}`, { cookie })).text).toContain(person.phone);

    const erased = await cli(env, ["erase", person.email.toUpperCase()]);
    expect(erased.stdout).toMatch(/^Erased 1 enquiry from /);
    expect(erased.stdout).not.toContain("v1 inbox file");
    await waitFor(() => copiesIn(databaseDir, person.words).length === 0, "no copy in the database files", 5_000).catch(
      () => expect(copiesIn(databaseDir, person.words)).toEqual([]),
    );
    expect(inText(site.output(), person.words)).toEqual([]);
    await site.stop();
    expect(copiesIn(databaseDir, person.words)).toEqual([]);

    // The file still holding the address: the command says so.
    writeFileSync(env.INBOX_FILE!, `{"email": "${person.email}"}\n`);
    expect((await cli(env, ["erase", person.email])).stdout).toContain(
      `Erased 0 enquiries from ${person.email} with their notifications.\nThe old v1 inbox file ${env.INBOX_FILE} on the server still holds this person's address.`,
    );
  }, 60_000);
});

describe("a SQLite database written before secure_delete was on", () => {
  it("its first erase rebuilds it: no old copy left in free space either", async () => {
    const file = join(temp.dir(), "old.db");
    const person = visitor();
    // The schema as the store makes it; then rows written and changed the old way (deleted bytes left in place).
    await (await openInboxStore({ kind: "sqlite", path: file }, { timeoutMs: 10_000 })).close();
    const old = new DatabaseSync(file);
    old.exec("PRAGMA journal_mode = WAL; PRAGMA secure_delete = OFF;");
    const insert = old.prepare(
      "INSERT INTO enquiries (id, received_at, name, email, email_key, message, source) VALUES (?, ?, ?, ?, ?, ?, 'form')",
    );
    insert.run("e-1", Date.now(), person.name, person.email, person.email, person.message);
    insert.run("e-2", Date.now(), "Someone Else", "else@example.com", "else@example.com", "Another enquiry.");
    // A change that moves the row: its earlier bytes stay in the page's free space.
    old.prepare("UPDATE enquiries SET message = ? WHERE id = 'e-1'").run(`${person.message} ${"and more ".repeat(40)}`);
    old.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    old.close();

    const store = await openInboxStore({ kind: "sqlite", path: file }, { timeoutMs: 10_000 });
    try {
      expect(await store.erase(person.email)).toBe(1);
      expect(copiesIn(dirname(file), person.words)).toEqual([]);
      expect((await readInbox(`file:${file}`)).map((e) => e.email)).toEqual(["else@example.com"]);
    } finally {
      await store.close();
    }
  });
});
