import { simpleParser, type ParsedMail } from "mailparser";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSiteContent, type SiteContent } from "~/site-content/schema.server";
import { openSqlite } from "~/store/sqlite.server";
import type { SqlClient } from "~/store/sql.server";
import { openInboxStore } from "~/store/store.server";
import { waitlistForm, waitlistPage } from "~/wording/waitlist";
import { freePort } from "../support/free-port.mjs";
import { getPage, publishSite } from "../support/site-page";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";

/**
 * "Tell me when orders open" through the built server, with a real SMTP server read by mailparser (docs/waitlist.md):
 * the form while orders are closed and e-mail is set up (not otherwise); a join sends one confirmation; a GET of its
 * link confirms nothing, the POST does; a second join of a confirmed address sends nothing and reads the same; an
 * ended link says so and offers the form; the announcement carries the unsubscribe link and RFC 8058's headers, whose
 * one-click POST without cookies unsubscribes while a GET does not; bots store nothing and are told the same words.
 */

const temp = useTempDir("haunt-waitlist-");
let sink: SmtpSink;
let site: SiteServer;
let publicUrl: string;
let db: SqlClient;
let published = 0;
let dir: string;

const closedSeason = (open: boolean): SiteContent => ({
  ...defaultSiteContent,
  business: { ...defaultSiteContent.business, name: "Hollow Hill Haunts" },
  season: { ...defaultSiteContent.season, year: 2027 + published, ordersOpen: open },
});

async function publish(databaseUrl: string, open: boolean) {
  await publishSite(databaseUrl, closedSeason(open));
  published += 1;
}

beforeAll(async () => {
  await ensureBuilt();
  sink = await startSmtpSink();
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  dir = temp.dir();
  const databaseUrl = `file:${join(dir, "inbox.db")}`;
  site = await startSite({
    API_HOST: "",
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: publicUrl,
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example",
    NOTIFY_EMAIL_FROM: "Haunt website <site@grimforge.example>",
    MAIL_PER_MINUTE: "600",
    SPAM_FILTER: "on",
  });
  await publish(databaseUrl, false);
  await waitFor(async () => (await getPage(site.url)).html.includes("data-waitlist"), "the form on /", 10_000);
  db = openSqlite(join(dir, "inbox.db"), { timeoutMs: 5_000 });
}, 60_000);
afterAll(async () => {
  await db?.close();
  await site?.stop();
  await sink?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unescape = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The form's token on the page at `path`. */
async function formToken(path = "/"): Promise<string> {
  const page = await getPage(site.url, path);
  const token = /name="form_token" value="([^"]+)"/.exec(
    /<section[^>]*data-waitlist[\s\S]*?<\/section>/.exec(page.html)![0],
  );
  return token![1]!;
}

async function post(path: string, fields: Record<string, string>, headers: Record<string, string> = { Origin: "" }) {
  const response = await fetch(`${site.url}${path}`, {
    method: "POST",
    headers: { ...headers, ...(headers.Origin === "" ? { Origin: site.url } : {}) },
    body: new URLSearchParams(fields),
    redirect: "manual",
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, location: response.headers.get("location"), html: unescape(await response.text()) };
}

async function get(path: string) {
  const response = await fetch(`${site.url}${path}`, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, html: unescape(await response.text()), headers: response.headers };
}

/** Asks from the home page as a person does: the page, a few seconds, the post; then the page it is sent to. */
async function ask(email: string, extra: Record<string, string> = {}, wait = 3_100) {
  const token = await formToken();
  await sleep(wait);
  const answer = await post("/waitlist", { email, form_token: token, company_website: "", ...extra });
  expect(answer.status).toBe(303);
  expect(answer.location).toBe("/waitlist?asked=1");
  const page = await get(answer.location!);
  expect(page.html).toContain(waitlistPage.asked);
  return page;
}

const mailTo = (email: string) => sink.messages.filter((mail) => mail.envelope.to.includes(email));
const stateOf = async (email: string) =>
  (await db.query("SELECT state FROM waitlist WHERE email = ?", [email]))[0]?.state ?? null;
const linkIn = (text: string, kind: "confirm" | "unsubscribe") =>
  new RegExp(`${publicUrl}/waitlist/${kind}/[0-9a-f]{64}`).exec(text)?.[0];

describe("the form while orders are closed", () => {
  it("is on the home and contact pages, sent with no-store; the contact form stays", async () => {
    for (const path of ["/", "/contact"]) {
      const page = await get(path);
      expect(page.headers.get("cache-control")).toContain("no-store");
      const form = /<section[^>]*data-waitlist[\s\S]*?<\/section>/.exec(page.html)![0];
      expect(form).toContain('<form method="post" action="/waitlist"');
      expect(form).toContain(`>${waitlistForm.emailLabel}</label>`);
      expect(form).toContain(waitlistForm.consent);
      expect(form).toContain('href="/privacy"');
      expect(form).toContain(`>${waitlistForm.submitLabel}</button>`);
      expect(form).toMatch(/name="company_website"/);
    }
    expect((await get("/contact")).html).toMatch(/<input[^>]*name="message"|<textarea[^>]*name="message"/);
    expect((await get("/privacy")).html).toContain("The list for when orders open");
  });

  it("a bad address: the message beside the field, what was typed kept, a 400", async () => {
    const answer = await post("/waitlist", { email: "ann at example", form_token: await formToken() });
    expect(answer.status).toBe(400);
    expect(answer.html).toContain(waitlistPage.emailInvalid);
    expect(answer.html).toMatch(
      /<input[^>]*aria-invalid="true"[^>]*value="ann at example"|value="ann at example"[^>]*aria-invalid/,
    );
    const empty = await post("/waitlist", { email: " ", form_token: await formToken() });
    expect(empty.status).toBe(400);
    expect(empty.html).toContain(waitlistPage.emailMissing);
  });
});

describe("joining, confirming, leaving", () => {
  const email = `ann-${randomUUID().slice(0, 8)}@example.com`;
  let confirmUrl: string;

  it("a join sends one confirmation e-mail; its link's GET confirms nothing, the POST does", async () => {
    await ask(email);
    await waitFor(() => mailTo(email).length === 1, "the confirmation", 10_000);
    const mail = await simpleParser(mailTo(email)[0]!.raw);
    expect(mail.subject).toBe("Confirm: tell me when orders open (Hollow Hill Haunts)");
    expect(mail.from?.value[0]).toMatchObject({ address: "site@grimforge.example", name: "Hollow Hill Haunts" });
    expect(mail.messageId).toMatch(/^<list-confirm-[0-9a-f-]+@grimforge\.example>$/);
    confirmUrl = linkIn(mail.text ?? "", "confirm")!;
    expect(confirmUrl).toBeTruthy();
    const path = confirmUrl.slice(publicUrl.length);

    const looked = await get(path);
    expect(looked.status).toBe(200);
    expect(looked.headers.get("cache-control")).toContain("no-store");
    expect(looked.html).toContain(waitlistPage.confirmHeading);
    expect(looked.html).toContain(`>${waitlistPage.confirmButton}</button>`);
    expect(await stateOf(email)).toBe("pending");

    const confirmed = await post(path, {});
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe("/waitlist?confirmed=1");
    expect((await get(confirmed.location!)).html).toContain(waitlistPage.confirmedHeading);
    expect(await stateOf(email)).toBe("confirmed");
    // Used: the link has ended.
    expect((await get(path)).html).toContain(waitlistPage.endedHeading);
  }, 30_000);

  it("asking again for a confirmed address sends nothing and reads the same", async () => {
    await ask(email.toUpperCase());
    await sleep(1_500);
    expect(mailTo(email)).toHaveLength(1);
    expect(await db.query("SELECT id FROM list_mail WHERE state = 'pending'")).toEqual([]);
  }, 30_000);

  it("the announcement carries the unsubscribe link and RFC 8058's headers; a GET unsubscribes nothing, the one-click POST does", async () => {
    const announcement = randomUUID();
    const [entry] = await db.query("SELECT id FROM waitlist WHERE email = ?", [email]);
    const mailId = randomUUID();
    await db.transaction([
      {
        sql: `INSERT INTO announcements (id, season, subject, body, created_at, created_by, total) VALUES (?, ?, ?, ?, ?, ?, 1)`,
        params: [
          announcement,
          "2027",
          "Orders for the 2027 haunt season are open",
          "Come and tell us.",
          Date.now(),
          "owner",
        ],
      },
      {
        sql: `INSERT INTO list_mail (id, waitlist_id, kind, announcement_id, message_id, created_at, state, attempts,
                next_attempt_at) VALUES (?, ?, 'announcement', ?, ?, ?, 'pending', 0, ?)`,
        params: [mailId, String(entry!.id), announcement, `list-announcement-${mailId}`, Date.now(), Date.now()],
      },
    ]);
    // Found at the sender's next look: a join wakes it (else it looks every minute); MAIL_PER_MINUTE paces it.
    await ask(`wake-${randomUUID().slice(0, 8)}@example.com`);
    await waitFor(() => mailTo(email).length === 2, "the announcement", 10_000);
    const raw = mailTo(email)[1]!;
    const mail: ParsedMail = await simpleParser(raw.raw);
    expect(mail.subject).toBe("Orders for the 2027 haunt season are open");
    expect(mail.messageId).toBe(`<list-announcement-${mailId}@grimforge.example>`);
    const unsubscribe = linkIn(mail.text ?? "", "unsubscribe")!;
    expect(mail.text).toContain("Come and tell us.");
    expect(header(raw, "list-unsubscribe")).toBe(`<${unsubscribe}>`);
    expect(header(raw, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const path = unsubscribe.slice(publicUrl.length);

    const looked = await get(path);
    expect(looked.status).toBe(200);
    expect(looked.html).toContain(`>${waitlistPage.unsubscribeButton}</button>`);
    expect(await stateOf(email)).toBe("confirmed");

    // As a mail provider posts it: no cookie, no form token, no Origin; and from a webmail page on another site.
    const oneClick = await post(path, { "List-Unsubscribe": "One-Click" }, {});
    expect(oneClick.status).toBe(200);
    expect(oneClick.html).toContain(waitlistPage.unsubscribedHeading);
    expect(await stateOf(email)).toBe("unsubscribed");
    const crossSite = await post(
      path,
      { "List-Unsubscribe": "One-Click" },
      {
        Origin: "https://webmail.example",
        "Sec-Fetch-Site": "cross-site",
      },
    );
    expect(crossSite.status).toBe(200);
    // Only that route's post is taken from another site; its cap is small.
    expect((await post("/waitlist", { email }, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await post(path, { pad: "a".repeat(5_000) }, {})).status).toBe(413);
    expect(
      (await post(`/waitlist/unsubscribe/${"0".repeat(64)}`, { "List-Unsubscribe": "One-Click" }, {})).status,
    ).toBe(404);
    // Unsubscribed: asking again sends nothing.
    await ask(email);
    await sleep(1_000);
    expect(mailTo(email)).toHaveLength(2);
  }, 120_000);

  it("an ended link says so plainly and offers the form again", async () => {
    const store = await openInboxStore({ kind: "sqlite", path: join(dir, "inbox.db") }, { timeoutMs: 5_000 });
    const old = `old-${randomUUID().slice(0, 8)}@example.com`;
    try {
      await store.joinWaitlist(old, new Date(Date.now() - 8 * 24 * 60 * 60_000));
    } finally {
      await store.close();
    }
    const [row] = await db.query("SELECT confirm_token_sealed FROM waitlist WHERE email = ?", [old]);
    const path = `/waitlist/confirm/${String(row!.confirm_token_sealed)}`;
    const looked = await get(path);
    expect(looked.status).toBe(404);
    expect(looked.html).toContain(waitlistPage.endedHeading);
    expect(looked.html).toContain(waitlistPage.endedText);
    expect(looked.html).toContain(`>${waitlistForm.submitLabel}</button>`);
    const posted = await post(path, {});
    expect(posted.html).toContain(waitlistPage.endedHeading);
    expect(await stateOf(old)).toBe("pending");
    // Its confirmation was never sent (the link had ended): dropped.
    await sleep(500);
    expect(mailTo(old)).toEqual([]);
  });
});

describe("bots", () => {
  it("a filled hidden field or a post faster than 3 seconds: the same words, nothing stored, nothing sent", async () => {
    const honey = `honey-${randomUUID().slice(0, 8)}@example.com`;
    await ask(honey, { company_website: "https://spam.example" });
    const fast = `fast-${randomUUID().slice(0, 8)}@example.com`;
    await ask(fast, {}, 0);
    const noToken = await post("/waitlist", { email: `none-${randomUUID().slice(0, 8)}@example.com` });
    expect(noToken.location).toBe("/waitlist?asked=1");
    await sleep(1_000);
    expect(await db.query("SELECT email FROM waitlist WHERE email IN (?, ?)", [honey, fast])).toEqual([]);
    expect([...mailTo(honey), ...mailTo(fast)]).toEqual([]);
  }, 30_000);
});

describe("when the form is not offered", () => {
  it("orders open: no form on the home or contact page, and /waitlist says orders are open", async () => {
    await publish(site.databaseUrl, true);
    await waitFor(async () => !(await getPage(site.url)).html.includes("data-waitlist"), "no form on /", 10_000);
    expect((await get("/contact")).html).not.toContain("data-waitlist");
    const answer = await post("/waitlist", { email: "late@example.com" });
    expect(answer.status).toBe(200);
    expect(answer.html).toContain(waitlistPage.ordersOpen);
    expect(await stateOf("late@example.com")).toBeNull();
  }, 30_000);

  it("e-mail not set up: no form although orders are closed", async () => {
    const databaseUrl = `file:${join(temp.dir(), "no-mail.db")}`;
    const quiet = await startSite({ API_HOST: "", DATABASE_URL: databaseUrl });
    try {
      await publishSite(databaseUrl, closedSeason(false));
      await waitFor(
        async () => (await getPage(quiet.url)).html.includes('data-season-notice="closed"'),
        "closed",
        10_000,
      );
      expect((await getPage(quiet.url)).html).not.toContain("data-waitlist");
      expect((await getPage(quiet.url, "/contact")).html).not.toContain("data-waitlist");
    } finally {
      await quiet.stop();
    }
  }, 60_000);
});

function header(mail: ReceivedMail, name: string): string | undefined {
  return mail.headers.get(name)?.[0];
}
