import { randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { simpleParser } from "mailparser";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "~/config/database.server";
import { defaultSiteContent } from "~/site-content/schema.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { repliesCopy } from "~/wording/replies";
import { enquiry } from "../support/enquiry";
import { runInbox } from "../support/inbox-command";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { sendAs, type Answer } from "../support/site-http";
import { getPage, publishSite } from "../support/site-page";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";

/**
 * Replying to a customer from the enquiry's page, through the built server and a real SMTP server: the reply goes out
 * once, From NOTIFY_EMAIL_FROM under the business's name, Reply-To the business's public address (or the operator's),
 * answering the enquiry's notification (its Message-ID) and then each earlier reply, and the enquiry moves from New to
 * Replied; refused input comes back as typed; an SMTP server that is down gets the reply once it is back; without
 * SMTP_URL the page offers a mailto: link. Two instances on one PostgreSQL database send each reply once.
 */

const publicUrl = "http://replies.example";
const password = "a coffin full of moonlit bats";
const operator = "ann@grimforge.example";
const temp = useTempDir("haunt-replies-");

const decoded = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

async function addOperator(databaseUrl: string) {
  const added = await runInbox(["operator", "add", operator], {
    env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
    input: `${password}\n`,
  });
  expect(added.status, added.stderr).toBe(0);
}

async function logIn(site: SiteServer): Promise<string> {
  const login = await sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email: operator, password, next: "/inbox" },
  });
  expect(login.status).toBe(302);
  return login.headers["set-cookie"]![0]!.split(";")[0]!;
}

/** Posts an enquiry to `site` and gives back its id and the customer's address. */
async function newEnquiry(site: SiteServer): Promise<{ id: string; email: string }> {
  const values = enquiry(randomUUID());
  const response = await fetch(`${site.url}/api/site/save-contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(values),
  });
  expect(response.status).toBe(204);
  const stored = (await site.stored()).find((item) => item.email === values.email);
  return { id: stored!.id, email: values.email };
}

const reply = (site: SiteServer, cookie: string, id: string, fields: Record<string, string>): Promise<Answer> =>
  sendAs(publicUrl, site.url, `/inbox/${id}`, { method: "POST", cookie, body: { intent: "reply", ...fields } });

const mailsTo = (sink: SmtpSink, address: string): ReceivedMail[] =>
  sink.messages.filter((mail) => mail.envelope.to.includes(address));
const header = (mail: ReceivedMail, name: string) => mail.headers.get(name)?.[0];

async function openStore(databaseUrl: string): Promise<InboxStore> {
  return openInboxStore(parseDatabaseUrl(databaseUrl)!, { timeoutMs: 10_000 });
}

/** Waits until every mail of the enquiry has settled as sent (so no send is still on its way). */
async function allSent(store: InboxStore, id: string, count: number) {
  await waitFor(
    async () => {
      const mails = await store.outgoingMailOf(id);
      return mails.length === count && mails.every((mail) => mail.state === "sent");
    },
    `${count} replies sent`,
    20_000,
  );
}

describe("replying from the inbox (SQLite)", () => {
  let sink: SmtpSink;
  let site: SiteServer;
  let databasePath: string;
  let databaseUrl: string;
  let cookie: string;
  let store: InboxStore;

  beforeAll(async () => {
    await ensureBuilt();
    sink = await startSmtpSink();
    databasePath = join(temp.dir(), "inbox.db");
    databaseUrl = `file:${databasePath}`;
    await addOperator(databaseUrl);
    site = await startSite({
      API_HOST: "",
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: publicUrl,
      SMTP_URL: sink.url,
      NOTIFY_EMAIL_TO: "owner@grimforge.example",
      NOTIFY_EMAIL_FROM: "Haunt website <site@grimforge.example>",
    });
    await publishSite(databaseUrl, {
      ...defaultSiteContent,
      business: { ...defaultSiteContent.business, name: "Hollow Hill Haunts", email: "shop@hollowhill.example" },
    });
    await waitFor(async () => (await getPage(site.url)).html.includes("Hollow Hill Haunts"), "the new name on /");
    cookie = await logIn(site);
    store = await openStore(databaseUrl);
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
    await store?.close();
    await sink?.stop();
  });

  it("sends a reply once, threaded on the enquiry's notification, then a second threaded on the first; the stage is Replied", async () => {
    const customer = await newEnquiry(site);
    await waitFor(() => sink.forEnquiry(customer.id).length === 1, "the enquiry's notification");
    const notification = header(sink.forEnquiry(customer.id)[0]!, "message-id")!;
    expect(notification).toMatch(/^<enquiry-.+@grimforge\.example>$/);

    const page = decoded((await sendAs(publicUrl, site.url, `/inbox/${customer.id}`, { cookie })).text);
    expect(page).toContain('value="Re: Your enquiry to Hollow Hill Haunts"');
    expect(page).toContain("Send reply");

    const first = await reply(site, cookie, customer.id, {
      subject: "Re: Your enquiry to Hollow Hill Haunts",
      message: "Thanks for asking!\nA talking skull is about $400.",
    });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe(`/inbox/${customer.id}?done=reply`);
    await allSent(store, customer.id, 1);
    const [sent] = mailsTo(sink, customer.email);
    expect(mailsTo(sink, customer.email)).toHaveLength(1);
    expect(sent!.envelope).toEqual({ from: "site@grimforge.example", to: [customer.email] });
    expect(header(sent!, "from")).toBe("Hollow Hill Haunts <site@grimforge.example>");
    expect(header(sent!, "to")).toBe(customer.email);
    expect(header(sent!, "reply-to")).toBe("shop@hollowhill.example");
    expect(header(sent!, "subject")).toBe("Re: Your enquiry to Hollow Hill Haunts");
    const firstId = header(sent!, "message-id")!;
    expect(firstId).toMatch(/^<reply-[0-9a-f-]{36}@grimforge\.example>$/);
    expect(header(sent!, "in-reply-to")).toBe(notification);
    expect(header(sent!, "references")).toBe(notification);
    expect(sent!.text).toContain("Thanks for asking!\nA talking skull is about $400.\n\n-- \nHollow Hill Haunts\n");

    const [stored] = await store.outgoingMailOf(customer.id);
    expect(stored).toMatchObject({ state: "sent", messageId: firstId, attempts: 1 });
    const after = await store.getEnquiry(customer.id);
    expect(after!.commission.stage).toBe("replied");
    expect(after!.commission.answeredAt).not.toBeNull();
    expect(after!.commission.firstReplyAt).toEqual(after!.commission.answeredAt);

    const shown = decoded((await sendAs(publicUrl, site.url, `/inbox/${customer.id}?done=reply`, { cookie })).text);
    expect(shown).toContain(repliesCopy.done);
    expect(shown).toContain("A talking skull is about $400.");
    expect(shown).toMatch(/data-mail-state="sent"/);
    // The timeline's line says how the reply's delivery went.
    expect(/<section aria-labelledby="timeline"[\s\S]*?<\/ol>/.exec(shown)![0]).toContain("Reply sent");

    // The second: its subject starts from the first's; it answers the first and references the whole chain.
    expect(shown).toContain('value="Re: Your enquiry to Hollow Hill Haunts"');
    const second = await reply(site, cookie, customer.id, {
      subject: "Re: Your enquiry to Hollow Hill Haunts",
      message: "One more thing: it can be ready by October.",
    });
    expect(second.status).toBe(303);
    await allSent(store, customer.id, 2);
    const both = mailsTo(sink, customer.email);
    expect(both).toHaveLength(2);
    const later = both.find((mail) => header(mail, "message-id") !== firstId)!;
    expect(header(later, "in-reply-to")).toBe(firstId);
    expect(header(later, "references")).toBe(`${notification} ${firstId}`);
    // As a mail program reads it (mailparser): a thread of three, the text as the owner wrote it.
    const parsed = await simpleParser(later.raw);
    expect(parsed.messageId).not.toBe(firstId);
    expect(parsed.inReplyTo).toBe(firstId);
    expect(parsed.references).toEqual([notification, firstId]);
    expect(parsed.from?.value).toEqual([{ address: "site@grimforge.example", name: "Hollow Hill Haunts" }]);
    expect(parsed.replyTo?.value).toEqual([{ address: "shop@hollowhill.example", name: "" }]);
    expect(parsed.text).toContain("One more thing: it can be ready by October.");

    // One stage change (New → Replied) and two reply lines on the timeline; the activity says so once.
    const db = new DatabaseSync(databasePath, { readOnly: true });
    try {
      const lines = db
        .prepare("SELECT kind, actor, body, detail FROM enquiry_events WHERE enquiry_id = ? ORDER BY at")
        .all(customer.id) as { kind: string; actor: string; body: string | null; detail: string }[];
      expect(lines.filter((line) => line.kind === "stage").map((line) => JSON.parse(line.detail))).toEqual([
        { from: "new", to: "replied" },
      ]);
      const replies = lines.filter((line) => line.kind === "reply");
      expect(replies.map((line) => line.body)).toEqual([
        "Thanks for asking!\nA talking skull is about $400.",
        "One more thing: it can be ready by October.",
      ]);
      expect(replies.every((line) => line.actor === operator)).toBe(true);
      expect(JSON.parse(replies[0]!.detail)).toEqual({ mailId: stored!.id, subject: stored!.subject });
      const activity = db
        .prepare("SELECT action FROM activity WHERE enquiry_id = ? AND action LIKE 'stage%'")
        .all(customer.id);
      expect(activity).toEqual([{ action: "stage new -> replied" }]);
    } finally {
      db.close();
    }
  }, 60_000);

  it("refuses an empty subject, a subject of two lines and a message too long, keeping what was typed", async () => {
    const customer = await newEnquiry(site);
    const kept = "Dear customer,\n<b>not markup</b> & a long tale ".padEnd(10_001, "x");
    const refused = await reply(site, cookie, customer.id, { subject: "  ", message: kept });
    expect(refused.status).toBe(422);
    const page = decoded(refused.text);
    expect(page).toContain(repliesCopy.refused);
    expect(page).toContain(repliesCopy.subjectMissing);
    expect(page).toContain(repliesCopy.messageTooLong(10_001));
    expect(page).toContain(kept);

    const twoLines = await reply(site, cookie, customer.id, { subject: "Re: one\r\nBcc: x@y", message: "Hello" });
    expect(twoLines.status).toBe(422);
    expect(decoded(twoLines.text)).toContain(repliesCopy.subjectLines);
    expect(decoded(twoLines.text)).toContain(">Hello</textarea>");

    const empty = await reply(site, cookie, customer.id, { subject: "Re: hello", message: " \n " });
    expect(empty.status).toBe(422);
    expect(decoded(empty.text)).toContain(repliesCopy.messageMissing);
    expect(decoded(empty.text)).toContain('value="Re: hello"');

    // The longest message allowed, in 4-byte characters, fits the page's body cap: refused only for its subject.
    const pumpkins = "🎃".repeat(10_000);
    const longest = await reply(site, cookie, customer.id, { subject: "", message: pumpkins });
    expect(longest.status).toBe(422);
    expect(decoded(longest.text)).toContain(pumpkins);
    expect(decoded(longest.text)).not.toContain(repliesCopy.messageTooLong(10_000));

    expect(await store.outgoingMailOf(customer.id)).toEqual([]);
    expect((await store.getEnquiry(customer.id))!.commission.stage).toBe("new");
  }, 60_000);

  it("keeps a reply while the SMTP server is down, shows it waiting, and sends it once when it is back", async () => {
    const customer = await newEnquiry(site);
    await waitFor(() => sink.forEnquiry(customer.id).length === 1, "the enquiry's notification");
    await sink.stop();
    try {
      const posted = await reply(site, cookie, customer.id, { subject: "Re: your skull", message: "Coming soon." });
      expect(posted.status).toBe(303);
      await waitFor(
        async () => {
          const [mail] = await store.outgoingMailOf(customer.id);
          return mail?.state === "pending" && mail.attempts >= 1 && mail.lastError !== null;
        },
        "the first attempt to fail",
        15_000,
      );
      const page = decoded((await sendAs(publicUrl, site.url, `/inbox/${customer.id}`, { cookie })).text);
      expect(page).toMatch(/data-mail-state="pending"/);
      expect(page).toContain(repliesCopy.list.pending);
      expect(page).toContain(repliesCopy.list.nextAttempt);
    } finally {
      await sink.start();
    }
    await allSent(store, customer.id, 1);
    expect(mailsTo(sink, customer.email)).toHaveLength(1);
    expect((await store.outgoingMailOf(customer.id))[0]!.attempts).toBeGreaterThanOrEqual(2);
  }, 60_000);
});

describe("without SMTP_URL", () => {
  let site: SiteServer;
  let cookie: string;
  beforeAll(async () => {
    await ensureBuilt();
    const databaseUrl = `file:${join(temp.dir(), "no-smtp.db")}`;
    await addOperator(databaseUrl);
    site = await startSite({ API_HOST: "", DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl });
    cookie = await logIn(site);
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
  });

  it("says e-mail is not set up and offers the reply as a mailto: link with the subject", async () => {
    const customer = await newEnquiry(site);
    const page = decoded((await sendAs(publicUrl, site.url, `/inbox/${customer.id}`, { cookie })).text);
    expect(page).toContain(repliesCopy.notSetUp);
    expect(page).not.toContain("Send reply");
    expect(page).toContain(
      `href="mailto:${customer.email}?subject=${encodeURIComponent("Re: Your enquiry to Grimforge Haunt Props")}"`,
    );
    const posted = await reply(site, cookie, customer.id, { subject: "Re: hi", message: "Typed anyway" });
    expect(posted.status).toBe(409);
    expect(decoded(posted.text)).toContain(repliesCopy.notSetUp);
  }, 60_000);
});

describe.skipIf(!postgresAvailable)("two instances on one PostgreSQL database", () => {
  let postgres: TestDatabases;
  let sink: SmtpSink;
  let sites: SiteServer[] = [];
  let store: InboxStore;

  beforeAll(async () => {
    await ensureBuilt();
    [postgres, sink] = await Promise.all([sharedPostgres(), startSmtpSink()]);
    const databaseUrl = await postgres.createDatabase();
    await addOperator(databaseUrl);
    const env = {
      API_HOST: "",
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: publicUrl,
      SMTP_URL: sink.url,
      NOTIFY_EMAIL_TO: "owner@grimforge.example",
      NOTIFY_EMAIL_FROM: "site@grimforge.example",
    };
    sites = await Promise.all([startSite(env), startSite(env)]);
    store = await openStore(databaseUrl);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()));
    await store?.close();
    await sink?.stop();
    await postgres?.stop();
  });

  it("sends each reply once, whichever instance took it, threaded across both", async () => {
    const [a, b] = sites as [SiteServer, SiteServer];
    const cookie = await logIn(a);
    const customer = await newEnquiry(a);
    await waitFor(() => sink.forEnquiry(customer.id).length === 1, "the enquiry's notification", 10_000);
    const notification = header(sink.forEnquiry(customer.id)[0]!, "message-id")!;

    expect((await reply(a, cookie, customer.id, { subject: "Re: a", message: "From the first instance" })).status).toBe(
      303,
    );
    await allSent(store, customer.id, 1);
    // The same session on the other instance; the SMTP server down there, so both instances see it pending.
    await sink.stop();
    try {
      expect(
        (await reply(b, cookie, customer.id, { subject: "Re: b", message: "From the second instance" })).status,
      ).toBe(303);
      await waitFor(
        async () => (await store.outgoingMailOf(customer.id)).some((mail) => mail.lastError !== null),
        "a failed attempt",
        15_000,
      );
    } finally {
      await sink.start();
    }
    await allSent(store, customer.id, 2);
    const mails = mailsTo(sink, customer.email);
    expect(mails).toHaveLength(2);
    const [first, second] = await store.outgoingMailOf(customer.id);
    const byId = (id: string) => mails.filter((mail) => header(mail, "message-id") === id);
    expect(byId(first!.messageId)).toHaveLength(1);
    expect(byId(second!.messageId)).toHaveLength(1);
    expect(header(byId(first!.messageId)[0]!, "in-reply-to")).toBe(notification);
    expect(header(byId(second!.messageId)[0]!, "in-reply-to")).toBe(first!.messageId);
    expect(header(byId(second!.messageId)[0]!, "references")).toBe(`${notification} ${first!.messageId}`);
    // No public address published: the customer's answer goes to the operator who wrote.
    expect(header(mails[0]!, "reply-to")).toBe(operator);
    expect((await store.getEnquiry(customer.id))!.commission.stage).toBe("replied");
  }, 60_000);

  it("chains replies stored at once on one enquiry, and gives each due mail to one claimer of two", async () => {
    const customer = await newEnquiry(sites[0]!);
    const other = await openStore(sites[0]!.databaseUrl);
    try {
      const queued = await Promise.all(
        Array.from({ length: 6 }, (_, n) =>
          (n % 2 === 0 ? store : other).queueReply({
            enquiryId: customer.id,
            subject: `Re: ${n}`,
            body: `Reply ${n}`,
            actor: operator,
            fromAddress: "site@grimforge.example",
          }),
        ),
      );
      expect(queued.every((mail) => mail !== null)).toBe(true);
      // One chain, whatever the order: each answers a different mail, and each References is one longer.
      const chain = [...queued].sort((x, y) => x!.references.length - y!.references.length);
      expect(chain.map((mail) => mail!.references.length)).toEqual([1, 2, 3, 4, 5, 6]);
      chain.slice(1).forEach((mail, index) => {
        expect(mail!.inReplyTo).toBe(chain[index]!.messageId);
        expect(mail!.references).toEqual([...chain[index]!.references, chain[index]!.messageId]);
      });
      // Two claimers at once: no mail is given to both (an instance's poll may take some too).
      const [mine, theirs] = await Promise.all([store.claimOutgoingMail(10), other.claimOutgoingMail(10)]);
      const ours = [...mine, ...theirs];
      expect(ours.length).toBeGreaterThan(0);
      expect(new Set(ours.map((mail) => mail.id)).size).toBe(ours.length);
      // Only the holder settles: the other's token is refused.
      if (mine[0]) expect(await other.markOutgoingMailSent({ ...mine[0], claimToken: "not-theirs" })).toBe(false);
      // Settled as failed by their holders, so nobody mails them.
      for (const claim of mine) expect(await store.markOutgoingMailFailed(claim, "test: not sent")).toBe(true);
      for (const claim of theirs) expect(await other.markOutgoingMailFailed(claim, "test: not sent")).toBe(true);
    } finally {
      await other.close();
    }
  }, 60_000);
});
