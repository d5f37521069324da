import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { createHash } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSiteContent } from "~/site-content/schema.server";
import { openSqlite } from "~/store/sqlite.server";
import { openInboxStore } from "~/store/store.server";
import { securityCopy } from "~/wording/security";
import { waitlistOwnerCopy } from "~/wording/waitlist-owner";
import { runInbox } from "../support/inbox-command";
import { sendAs, type Answer } from "../support/site-http";
import { publishSite } from "../support/site-page";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";
import { confirmedAddresses, putWaitlistRows } from "../support/waitlist-rows";

/**
 * The owner's Waitlist page through the built server on SQLite, as a browser without JavaScript posts (issue 35): the
 * counts and the list, Download CSV behind step-up and safe for a spreadsheet, the announcement offered only once a
 * publish opened orders (prefilled from the season, previewed with its unsubscribe line, refused in words with the
 * words kept, Send behind step-up, once per season, its progress), erase one address behind its confirmation and
 * step-up; cross-site and oversize posts change nothing; the activity log names no address.
 */

const publicUrl = "http://list.example";
const temp = useTempDir("haunt-waitlist-owner-");
const owner = "ann@grimforge.example";
const password = "a coffin full of moonlit bats";
const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
const copy = waitlistOwnerCopy;

let site: SiteServer;
let sink: SmtpSink;
let databasePath: string;
let cookie: string;

const send = (path: string, options: { method?: string; body?: Record<string, string> } = {}) =>
  sendAs(publicUrl, site.url, path, { cookie, ...options });

/** Each code once: the next 30 s step not used yet (now's or the next, both accepted). */
let lastStep = 0;
function nextCode(): string {
  const step = Math.max(lastStep + 1, Math.floor(Date.now() / 30_000));
  lastStep = step;
  return totp.generate({ timestamp: step * 30_000 });
}
const cookieOf = (answer: Answer) => answer.headers["set-cookie"]![0]!.split(";")[0]!;
const sessionHash = (value: string) => createHash("sha256").update(value.split("=")[1]!).digest("hex");
const stepUpTo = (next: string) => `/inbox/verify?next=${encodeURIComponent(next)}&again=1`;
const decoded = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
/** The page's text without tags, spaces squeezed: what a reader sees. */
const seen = (html: string) =>
  decoded(html.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");

function sql<T>(work: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(databasePath, { timeout: 5_000 });
  try {
    return work(db);
  } finally {
    db.close();
  }
}
const count = (query: string) => Number(sql((db) => db.prepare(query).get()!.n));

/** The session's last second factor, eleven minutes ago. */
const ageFactor = () =>
  sql((db) =>
    expect(
      db
        .prepare("UPDATE sessions SET factor_at = ? WHERE id_hash = ?")
        .run(Date.now() - 11 * 60_000, sessionHash(cookie)).changes,
    ).toBe(1),
  );

/**
 * The code passed again, as the code page does on success: only two codes are typed here (a TOTP step is taken once
 * and only now's and the next are accepted); the code page's own round trip is tested with the CSV.
 */
const freshen = () =>
  sql((db) =>
    expect(
      db.prepare("UPDATE sessions SET factor_at = ? WHERE id_hash = ?").run(Date.now(), sessionHash(cookie)).changes,
    ).toBe(1),
  );

async function verify(next: string): Promise<void> {
  const answer = await send("/inbox/verify", { method: "POST", body: { code: nextCode(), next } });
  expect(answer.status, answer.text.slice(0, 300)).toBe(302);
  expect(answer.headers.location).toBe(next);
  if (answer.headers["set-cookie"]) cookie = cookieOf(answer);
}

const closed = { ...defaultSiteContent, season: { ...defaultSiteContent.season, year: 2026, ordersOpen: false } };
const opened = {
  ...defaultSiteContent,
  season: { ...defaultSiteContent.season, year: 2027, ordersOpen: true, closesOn: "2027-09-30" },
};

beforeAll(async () => {
  await ensureBuilt();
  sink = await startSmtpSink();
  databasePath = join(temp.dir(), "inbox.db");
  const databaseUrl = `file:${databasePath}`;
  const added = await runInbox(["operator", "add", owner], {
    env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
    input: `${password}\n`,
  });
  expect(added.status, added.stderr).toBe(0);
  const store = await openInboxStore({ kind: "sqlite", path: databasePath }, { timeoutMs: 5_000 });
  try {
    const id = (await store.findOperator(owner))!.id;
    expect(await store.startTotp(id, secret)).toBe(true);
    expect(await store.takeTotpStep(id, 1, { confirm: true })).toBe(true);
  } finally {
    await store.close();
  }
  const db = openSqlite(databasePath, { timeoutMs: 5_000 });
  await putWaitlistRows(db, [
    { email: "=HYPERLINK(1)@fans.example", state: "confirmed", createdAt: new Date("2026-10-01T09:00:00Z") },
    { email: "bea@fans.example", state: "confirmed", createdAt: new Date("2026-10-02T09:00:00Z") },
    // Asked an hour ago: its link still works, so the daily purge of links that ended keeps it.
    { email: "cal@fans.example", state: "pending", createdAt: new Date(Date.now() - 3_600_000) },
    { email: "dee@fans.example", state: "unsubscribed", createdAt: new Date("2026-10-04T09:00:00Z") },
  ]);
  await db.close();
  await publishSite(databaseUrl, closed);
  site = await startSite({
    API_HOST: "",
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: publicUrl,
    INBOX_REQUIRE_2FA: "on",
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example",
    NOTIFY_EMAIL_FROM: "Haunt website <site@grimforge.example>",
  });
  const login = await sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email: owner, password, next: "/inbox" },
  });
  expect(login.status).toBe(302);
  cookie = cookieOf(login);
  await verify("/inbox");
}, 60_000);
afterAll(async () => {
  await site?.stop();
  await sink?.stop();
});

describe("the Waitlist page", () => {
  it("is in the owner's navigation, with the counts and the addresses with their dates; nothing to announce while closed", async () => {
    const page = await send("/inbox/waitlist");
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toContain("no-store");
    const text = seen(page.text);
    expect(page.text).toMatch(/<a[^>]*href="\/inbox\/waitlist"[^>]*>Waitlist<\/a>/);
    expect(text).toContain("Pending 1");
    expect(text).toContain("Confirmed 2");
    expect(text).toContain("Unsubscribed 1");
    expect(text).toContain("=hyperlink(1)@fans.example");
    expect(text).toContain(
      "Unsubscribed · Asked 4 Oct 2026, 09:00 UTC · Confirmed 4 Oct 2026, 09:01 UTC · Unsubscribed 4 Oct 2026, 09:02 UTC",
    );
    expect(text).toContain(copy.announce.closed);
    expect(text).not.toContain("Announce to");
    // Every page of the inbox has the link.
    expect((await send("/inbox")).text).toContain('href="/inbox/waitlist"');
  });

  it("Download CSV: at once after the code; ten minutes later the code page first; every cell safe", async () => {
    const csv = await send("/inbox/waitlist.csv");
    expect(csv.status).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toMatch(/^attachment; filename="waitlist-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.text.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe("email,state,askedAt,confirmedAt,unsubscribedAt");
    expect(lines).toContain(
      "dee@fans.example,unsubscribed,2026-10-04T09:00:00.000Z,2026-10-04T09:01:00.000Z,2026-10-04T09:02:00.000Z",
    );
    expect(lines.find((line) => line.includes("hyperlink"))).toMatch(/^'=hyperlink\(1\)@fans\.example,confirmed,/);

    ageFactor();
    const asked = await send("/inbox/waitlist.csv");
    expect(asked.status).toBe(302);
    expect(asked.headers.location).toBe(stepUpTo("/inbox/waitlist"));
    expect(decoded((await send(asked.headers.location!)).text)).toContain(
      securityCopy.verify.againWhy["waitlist-export"],
    );
    await verify("/inbox/waitlist");
    expect((await send("/inbox/waitlist.csv")).status).toBe(200);
    expect((await send("/inbox/waitlist.csv", { method: "POST", body: {} })).status).toBe(405);
  });

  it("offers the announcement once a publish opened orders, prefilled from the season, behind step-up", async () => {
    await publishSite(`file:${databasePath}`, opened);
    await waitFor(
      async () => seen((await send("/inbox/waitlist")).text).includes("Announce to 2 people"),
      "the offer",
      10_000,
    );
    const page = await send("/inbox/waitlist");
    expect(page.text).toContain('href="/inbox/waitlist?announce=1#announce"');

    ageFactor();
    const asked = await send("/inbox/waitlist?announce=1");
    expect(asked.headers.location).toBe(stepUpTo("/inbox/waitlist?announce=1#announce"));
    expect(decoded((await send(asked.headers.location!)).text)).toContain(securityCopy.verify.againWhy.announce);
    freshen();
    const form = decoded((await send("/inbox/waitlist?announce=1")).text);
    expect(form).toContain('value="Orders for the 2027 haunt season are open"');
    expect(form).toContain("We take orders until September 30, 2027.");
    expect(form).toContain(`${publicUrl}/contact`);
    expect(form).toContain(">Preview</button>");
    expect(form).toContain(">Send announcement</button>");
  });

  it("previews the mail with its unsubscribe line; refuses empty or oversize words in words, keeping what was typed", async () => {
    const words = { subject: "Orders are open!", message: "Dear fan,\nthe workshop is taking orders." };
    const preview = await send("/inbox/waitlist?announce=1", { method: "POST", body: { intent: "preview", ...words } });
    expect(preview.status).toBe(200);
    const shown = decoded(preview.text);
    expect(shown).toContain("This is the e-mail 2 people get");
    // The owner's words, the business's signature (as published), then why it came: the mail as it goes.
    expect(shown).toContain("Dear fan,\nthe workshop is taking orders.\n\n-- \n" + defaultSiteContent.business.name);
    expect(shown.indexOf(copy.mail.why)).toBeGreaterThan(shown.indexOf(defaultSiteContent.business.name));
    expect(shown).toContain(copy.mail.unsubscribe(copy.mail.previewLink));

    const empty = await send("/inbox/waitlist?announce=1", {
      method: "POST",
      body: { intent: "send", subject: "  ", message: "Kept words" },
    });
    expect(empty.status).toBe(422);
    expect(seen(empty.text)).toContain(copy.announce.subjectMissing);
    expect(decoded(empty.text)).toContain(">Kept words</textarea>");

    const long = await send("/inbox/waitlist?announce=1", {
      method: "POST",
      body: { intent: "preview", subject: "x".repeat(151), message: "y".repeat(4001) },
    });
    expect(long.status).toBe(422);
    expect(seen(long.text)).toContain(copy.announce.subjectTooLong(151));
    expect(seen(long.text)).toContain(copy.announce.messageTooLong(4001));

    // Past the body cap: refused before it is read, nothing stored.
    const huge = await send("/inbox/waitlist?announce=1", {
      method: "POST",
      body: { intent: "send", subject: "big", message: "z".repeat(70 * 1024) },
    });
    expect(huge.status).toBe(413);
    // Another site's post with the owner's cookie: refused, nothing stored.
    const crossSite = await sendAs(publicUrl, site.url, "/inbox/waitlist?announce=1", {
      method: "POST",
      cookie,
      body: { intent: "send", ...words },
      headers: { Origin: "http://evil.example" },
    });
    expect(crossSite.status).toBe(403);
    expect(count("SELECT COUNT(*) AS n FROM announcements")).toBe(0);
  });

  it("sends once per season, behind step-up; the page shows its progress in words", async () => {
    const words = { intent: "send", subject: "Orders for the 2027 haunt season are open", message: "Come and see." };
    ageFactor();
    const asked = await send("/inbox/waitlist?announce=1", { method: "POST", body: words });
    expect(asked.status).toBe(302);
    expect(asked.headers.location).toBe(stepUpTo("/inbox/waitlist?announce=1#announce"));
    expect(count("SELECT COUNT(*) AS n FROM announcements")).toBe(0);
    freshen();
    // The list's sender wakes at Send: the mail server answers "try later" meanwhile, so what Send stored stays pending
    // for this test to count (it counted 1 of 2 when the sender was quicker than the test).
    sink.setMode({ reject: 451 });

    // Pressed twice at once (a double click without JavaScript, or two tabs): one is stored, the other refused.
    const both = await Promise.all([
      send("/inbox/waitlist?announce=1", { method: "POST", body: words }),
      send("/inbox/waitlist?announce=1", { method: "POST", body: words }),
    ]);
    expect(both.map((answer) => answer.status).sort()).toEqual([303, 409]);
    const sent = both.find((answer) => answer.status === 303)!;
    expect(sent.headers.location).toBe("/inbox/waitlist?done=announced");
    expect(seen(both.find((answer) => answer.status === 409)!.text)).toContain(copy.announce.already("2027"));
    expect(count("SELECT COUNT(*) AS n FROM announcements")).toBe(1);
    expect(count("SELECT COUNT(*) AS n FROM list_mail WHERE kind = 'announcement' AND state = 'pending'")).toBe(2);
    const page = seen((await send("/inbox/waitlist?done=announced")).text);
    expect(page).toContain(copy.announce.done);
    expect(page).toContain("0 of 2 sent");
    expect(page).not.toContain("Announce to");
    // It refreshes itself without JavaScript while mail is waiting.
    expect((await send("/inbox/waitlist")).text).toContain('http-equiv="refresh" content="10; url=/inbox/waitlist"');

    const again = await send("/inbox/waitlist?announce=1", { method: "POST", body: words });
    expect(again.status).toBe(409);
    expect(seen(again.text)).toContain(copy.announce.already("2027"));
    expect(decoded(again.text)).toContain(">Come and see.</textarea>");
    expect(count("SELECT COUNT(*) AS n FROM list_mail")).toBe(2);

    // What the list's sender settles shows as progress.
    sql((db) => {
      const ids = db
        .prepare("SELECT id FROM list_mail ORDER BY id")
        .all()
        .map((row) => String(row.id));
      db.prepare("UPDATE list_mail SET state = 'sent', sent_at = ? WHERE id = ?").run(Date.now(), ids[0]!);
      db.prepare("UPDATE list_mail SET state = 'failed', last_error = '550' WHERE id = ?").run(ids[1]!);
    });
    const done = await send("/inbox/waitlist");
    expect(seen(done.text)).toContain("1 of 2 sent");
    expect(seen(done.text)).toContain("1 could not be delivered");
    expect(done.text).not.toContain('http-equiv="refresh"');
    sink.setMode("accept");
  });

  it("erases one address after its confirmation page and step-up: gone from the list with its mail", async () => {
    const id = String(sql((db) => db.prepare("SELECT id FROM waitlist WHERE email = 'bea@fans.example'").get()!.id));
    const erasePage = `/inbox/waitlist/${id}/erase`;
    expect((await send("/inbox/waitlist")).text).toContain(`action="${erasePage}"`);
    const confirm = seen((await send(erasePage)).text);
    expect(confirm).toContain(copy.erase.intro);
    expect(confirm).toContain("bea@fans.example");

    ageFactor();
    const asked = await send(erasePage, { method: "POST" });
    expect(asked.headers.location).toBe(stepUpTo(erasePage));
    expect(decoded((await send(asked.headers.location!)).text)).toContain(
      securityCopy.verify.againWhy["waitlist-erase"],
    );
    expect(count("SELECT COUNT(*) AS n FROM waitlist")).toBe(4);
    freshen();

    const onDisk = () =>
      ["", "-wal", "-shm"].some((suffix) => {
        const file = `${databasePath}${suffix}`;
        return existsSync(file) && readFileSync(file).includes("bea@fans.example");
      });
    expect(onDisk()).toBe(true);
    const erased = await send(erasePage, { method: "POST" });
    expect(erased.status).toBe(303);
    expect(erased.headers.location).toBe("/inbox/waitlist?erased=1");
    const after = seen((await send("/inbox/waitlist?erased=1")).text);
    // Its announcement mail went with it: the progress says so rather than waiting for it.
    expect(after).toMatch(/[01] of 2 sent/);
    expect(after).toContain(copy.announce.dropped(1));
    expect(after).toContain(copy.erased);
    expect(after).not.toContain("bea@fans.example");
    expect(after).toContain("Confirmed 1");
    expect(count("SELECT COUNT(*) AS n FROM waitlist WHERE email = 'bea@fans.example'")).toBe(0);
    expect(count("SELECT COUNT(*) AS n FROM list_mail")).toBe(1);
    // No copy left in the database's files, as for an enquiry's erase (secure_delete, the WAL checkpointed).
    await waitFor(() => !onDisk(), "the erased address gone from the database's files", 5_000);
    // Pressed again (another tab, another operator): nothing there, and the list says so.
    expect((await send(erasePage, { method: "POST" })).headers.location).toBe("/inbox/waitlist?erased=0");
    expect((await send(erasePage)).status).toBe(404);
  });

  it("logs the announcement, the export and the erase, naming no address", () => {
    const rows = sql((db) =>
      db.prepare("SELECT action, detail FROM activity WHERE actor = ? ORDER BY at").all(owner),
    ).map((row) => `${String(row.action)}: ${String(row.detail)}`);
    expect(rows).toContain("announced: season 2027, to 2 addresses");
    expect(rows).toContain("exported CSV: the waitlist");
    expect(rows).toContain("erased: one address of the waitlist");
    expect(rows.join("\n")).not.toContain("fans.example");
  });
});

describe("the Waitlist page on a server that sends no e-mail", () => {
  let quiet: SiteServer;
  let quietCookie: string;
  beforeAll(async () => {
    const path = join(temp.dir(), "quiet.db");
    const databaseUrl = `file:${path}`;
    const added = await runInbox(["operator", "add", owner], {
      env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
      input: `${password}\n`,
    });
    expect(added.status, added.stderr).toBe(0);
    const db = openSqlite(path, { timeoutMs: 5_000 });
    await putWaitlistRows(db, [{ email: "fan@fans.example", state: "confirmed" }]);
    await db.close();
    await publishSite(databaseUrl, opened);
    quiet = await startSite({
      API_HOST: "",
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: publicUrl,
      INBOX_REQUIRE_2FA: "off",
    });
    const login = await sendAs(publicUrl, quiet.url, "/inbox/login", {
      method: "POST",
      body: { email: owner, password, next: "/inbox" },
    });
    expect(login.status).toBe(302);
    quietCookie = cookieOf(login);
  }, 60_000);
  afterAll(() => quiet?.stop());

  it("offers no announcement and says why; a forged Send is refused in words, nothing stored", async () => {
    const page = await sendAs(publicUrl, quiet.url, "/inbox/waitlist", { cookie: quietCookie });
    expect(seen(page.text)).toContain(copy.announce.cannotSend(2027));
    expect(page.text).not.toContain("Announce to");
    const sent = await sendAs(publicUrl, quiet.url, "/inbox/waitlist?announce=1", {
      method: "POST",
      cookie: quietCookie,
      body: { intent: "send", subject: "Open", message: "Orders are open." },
    });
    expect(sent.status).toBe(409);
    expect(seen(sent.text)).toContain(copy.announce.notSetUp);
    expect(decoded(sent.text)).toContain(">Orders are open.</textarea>");
  });
});

describe("the Waitlist page with a season's worth of addresses", () => {
  let long: SiteServer;
  let longCookie: string;
  let longPath: string;
  const get = (path: string, options: { method?: string; body?: Record<string, string> } = {}) =>
    sendAs(publicUrl, long.url, path, { cookie: longCookie, ...options });
  /** The addresses a page lists, in order (each has its Erase button). */
  const listed = (html: string) => [...decoded(html).matchAll(/aria-label="Erase ([^"]+)"/g)].map((match) => match[1]!);
  /** The href of the page's `rel` link (Previous / Next), as a browser without JavaScript follows it. */
  const linkOf = (html: string, rel: "prev" | "next") => {
    const tag = html.match(new RegExp(`<a[^>]*rel="${rel}"[^>]*>`))?.[0];
    return tag ? decoded(tag.match(/href="([^"]*)"/)![1]!) : null;
  };
  const base = Date.parse("2026-09-01T09:00:00Z");
  beforeAll(async () => {
    longPath = join(temp.dir(), "long.db");
    const databaseUrl = `file:${longPath}`;
    const added = await runInbox(["operator", "add", owner], {
      env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
      input: `${password}\n`,
    });
    expect(added.status, added.stderr).toBe(0);
    const db = openSqlite(longPath, { timeoutMs: 5_000 });
    // 3 pending (the newest), 250 confirmed (fan250 the newest of them), 2 unsubscribed older than all of them.
    await putWaitlistRows(db, [
      ...confirmedAddresses(250, "crowd.example").map((row, n) => ({
        ...row,
        createdAt: new Date(base + (n + 1) * 60_000),
      })),
      ...[1, 2, 3].map((n) => ({
        email: `pending${n}@crowd.example`,
        state: "pending" as const,
        // Asked hours ago: their links still work, so the daily purge keeps them.
        createdAt: new Date(Date.now() - n * 3_600_000),
      })),
      ...[1, 2].map((n) => ({
        email: `left${n}@crowd.example`,
        state: "unsubscribed" as const,
        createdAt: new Date(base - n * 86_400_000),
      })),
    ]);
    await db.close();
    await publishSite(databaseUrl, closed);
    long = await startSite({
      API_HOST: "",
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: publicUrl,
      INBOX_REQUIRE_2FA: "off",
    });
    const login = await sendAs(publicUrl, long.url, "/inbox/login", {
      method: "POST",
      body: { email: owner, password, next: "/inbox" },
    });
    expect(login.status).toBe(302);
    longCookie = cookieOf(login);
  }, 60_000);
  afterAll(() => long?.stop());

  it("shows 100 addresses a page, newest first, the totals for the whole list, Next as a plain link", async () => {
    const page = await get("/inbox/waitlist");
    expect(page.status).toBe(200);
    const text = seen(page.text);
    expect(text).toContain("Pending 3");
    expect(text).toContain("Confirmed 250");
    expect(text).toContain("Unsubscribed 2");
    const shown = listed(page.text);
    expect(shown).toHaveLength(100);
    expect(shown.slice(0, 4)).toEqual([
      "pending1@crowd.example",
      "pending2@crowd.example",
      "pending3@crowd.example",
      "fan250@crowd.example",
    ]);
    expect(shown[99]).toBe("fan154@crowd.example");
    expect(text).toContain("1–100 of 255");
    expect(linkOf(page.text, "prev")).toBeNull();
    expect(linkOf(page.text, "next")).toBe("/inbox/waitlist?page=2#addresses");
    // A page, not the list: the HTML stays the size of 100 addresses whatever the season brings.
    expect(page.text.length).toBeLessThan(150_000);
  });

  it("Next and Previous walk the whole list once, each address on one page", async () => {
    const seenAddresses: string[] = [];
    let next: string | null = "/inbox/waitlist";
    const visited: string[] = [];
    while (next) {
      const page = await get(next.replace(/#.*$/, ""));
      expect(page.status).toBe(200);
      visited.push(next);
      seenAddresses.push(...listed(page.text));
      // Previous goes back where Next came from (the first page's address has no ?page=).
      if (visited.length > 1)
        expect(linkOf(page.text, "prev")).toBe(`${visited.at(-2)!.replace("#addresses", "")}#addresses`);
      next = linkOf(page.text, "next");
    }
    expect(visited).toEqual([
      "/inbox/waitlist",
      "/inbox/waitlist?page=2#addresses",
      "/inbox/waitlist?page=3#addresses",
    ]);
    expect(seenAddresses).toHaveLength(255);
    expect(new Set(seenAddresses).size).toBe(255);
    expect(seenAddresses.slice(-2)).toEqual(["left1@crowd.example", "left2@crowd.example"]);
    const last = seen((await get("/inbox/waitlist?page=3")).text);
    expect(last).toContain("201–255 of 255");
    // The totals are the whole list's on every page.
    expect(last).toContain("Confirmed 250");
  });

  it("one state at a time, as plain links; its pages keep it", async () => {
    const page = await get("/inbox/waitlist?state=confirmed&page=3");
    expect(page.status).toBe(200);
    const shown = listed(page.text);
    expect(shown).toHaveLength(50);
    expect(shown[49]).toBe("fan1@crowd.example");
    expect(seen(page.text)).toContain("201–250 of 250");
    expect(linkOf(page.text, "prev")).toBe("/inbox/waitlist?state=confirmed&page=2#addresses");
    expect(linkOf(page.text, "next")).toBeNull();
    const current = page.text.match(/<a[^>]*aria-current="page"[^>]*>/g)?.filter((tag) => tag.includes("#addresses"));
    expect(current).toEqual([expect.stringContaining('href="/inbox/waitlist?state=confirmed#addresses"')]);
    expect(listed((await get("/inbox/waitlist?state=pending")).text)).toEqual([
      "pending1@crowd.example",
      "pending2@crowd.example",
      "pending3@crowd.example",
    ]);
    // Still the whole list's totals.
    expect(seen(page.text)).toContain("Pending 3");
  });

  it("a page past the end is a 404 that says so with the way back; a malformed one is the first page; never a 5xx", async () => {
    const past = await get("/inbox/waitlist?page=4");
    expect(past.status).toBe(404);
    expect(seen(past.text)).toContain(copy.list.pastEnd(4, 3));
    expect(past.text).toContain('href="/inbox/waitlist?page=3#addresses"');
    expect(listed(past.text)).toEqual([]);
    // Only the way back: no Previous / Next leading to other pages that are not there.
    expect([linkOf(past.text, "prev"), linkOf(past.text, "next")]).toEqual([null, null]);
    expect(seen(past.text)).toContain("Confirmed 250");
    const pastState = await get("/inbox/waitlist?state=unsubscribed&page=2");
    expect(pastState.status).toBe(404);
    expect(seen(pastState.text)).toContain(copy.list.pastEnd(2, 1));
    for (const query of [
      "?page=0",
      "?page=-3",
      "?page=two",
      "?page=99999999999999999999",
      "?page=2.5x",
      "?state=gone",
    ]) {
      const page = await get(`/inbox/waitlist${query}`);
      expect(page.status, query).toBe(200);
      // "2.5x" reads as 2, as the inbox reads it; anything else is the first page.
      expect(listed(page.text)[0], query).toBe(
        query === "?page=2.5x" ? "fan153@crowd.example" : "pending1@crowd.example",
      );
    }
    expect((await get("/inbox/waitlist?page=100000")).status).toBe(404);
  });

  it("Erase on page 2 comes back to page 2; Download CSV is still the whole list", async () => {
    const page = decoded((await get("/inbox/waitlist?page=2")).text);
    const target = "fan120@crowd.example";
    const db = new DatabaseSync(longPath, { timeout: 5_000 });
    const id = String(db.prepare("SELECT id FROM waitlist WHERE email = ?").get(target)!.id);
    db.close();
    // The GET form carries the page (a GET form sends its fields, not its action's query).
    expect(page).toMatch(
      new RegExp(`action="/inbox/waitlist/${id}/erase"[^>]*>(?:(?!</form>)[\\s\\S])*name="page" value="2"`),
    );
    const confirm = await get(`/inbox/waitlist/${id}/erase?page=2`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(`action="/inbox/waitlist/${id}/erase?page=2"`);
    expect(confirm.text).toMatch(/<a[^>]*href="\/inbox\/waitlist\?page=2"[^>]*>Keep it<\/a>/);
    const erased = await get(`/inbox/waitlist/${id}/erase?page=2`, { method: "POST" });
    expect(erased.status).toBe(303);
    expect(erased.headers.location).toBe("/inbox/waitlist?page=2&erased=1");
    const after = await get(erased.headers.location!);
    expect(seen(after.text)).toContain(copy.erased);
    expect(seen(after.text)).toContain("Confirmed 249");
    expect(listed(after.text)).not.toContain(target);
    expect(listed(after.text)).toHaveLength(100);
    // Pressed again on a page that is no longer there: back to the last page there is, which says it was not there.
    expect((await get(`/inbox/waitlist/${id}/erase?page=9`, { method: "POST" })).headers.location).toBe(
      "/inbox/waitlist?page=3&erased=0",
    );

    const csv = await get("/inbox/waitlist.csv");
    expect(csv.status).toBe(200);
    const lines = csv.text
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(1 + 254);
  });
});
