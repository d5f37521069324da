import { randomUUID } from "node:crypto";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "~/config/database.server";
import { defaultSiteContent, type SiteContent } from "~/site-content/schema.server";
import { pipelineCopy } from "~/wording/pipeline";
import { repliesCopy } from "~/wording/replies";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { enquiry } from "../support/enquiry";
import { runInbox } from "../support/inbox-command";
import { postForm, sendAs } from "../support/site-http";
import { getPage, publishSite } from "../support/site-page";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../support/smtp-sink";

/**
 * The acknowledgement of an enquiry through the built server and a real SMTP server (each mail read by mailparser):
 * off until the owner turns it on; then a real enquiry gets one, marked Auto-Submitted: auto-replied, From the site
 * under the business's name, Reply-To its public address, in the owner's words with the season's close date, and
 * nothing the visitor typed (a name and a message full of links); a second enquiry from the address within the day
 * gets none; spam and possible spam get none.
 */

const owner = "owner@grimforge.example";
const mailEnv = (sink: SmtpSink) => ({
  API_HOST: "",
  SMTP_URL: sink.url,
  NOTIFY_EMAIL_TO: owner,
  NOTIFY_EMAIL_FROM: "Haunt website <site@grimforge.example>",
  LOG_FORMAT: "json",
});

const acknowledging: SiteContent = {
  ...defaultSiteContent,
  season: { year: 2027, ordersOpen: true, closesOn: "2027-09-01", closedLine: "" },
  business: { ...defaultSiteContent.business, name: "Hollow Hill Haunts", email: "shop@hollowhill.example" },
  acknowledgement: {
    enabled: true,
    text: "Thank you for writing. We answer within {days} working days.",
    replyDays: 4,
  },
};

/** Posts an enquiry as a program would (JSON); its stored id. */
async function post(site: SiteServer, values: ReturnType<typeof enquiry>): Promise<string> {
  const response = await fetch(`${site.url}/api/site/save-contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(values),
  });
  expect(response.status).toBe(204);
  const stored = (await site.stored()).find((item) => item.email === values.email && item.message === values.message);
  return stored!.id;
}

const mailsTo = (sink: SmtpSink, address: string): ReceivedMail[] =>
  sink.messages.filter((mail) => mail.envelope.to.includes(address));
const ownerMail = (sink: SmtpSink, id: string) =>
  sink.forEnquiry(id).filter((mail) => mail.envelope.to.includes(owner));
const acknowledgementOf = (site: SiteServer, id: string) =>
  site.logEvents("acknowledgement").find((line) => line.enquiry === id);

async function published(site: SiteServer, content: SiteContent) {
  await publishSite(site.databaseUrl, content);
  await waitFor(async () => (await getPage(site.url)).html.includes(content.business.name), "the publish on /", 10_000);
}

let sink: SmtpSink;
beforeAll(async () => {
  await ensureBuilt();
  sink = await startSmtpSink();
}, 60_000);
afterAll(() => sink?.stop());

describe("acknowledgements, off by default", () => {
  let site: SiteServer;
  beforeAll(async () => {
    site = await startSite(mailEnv(sink));
  }, 60_000);
  afterAll(() => site?.stop());

  it("sends nothing to the visitor until the owner turns it on", async () => {
    const values = enquiry(randomUUID());
    const id = await post(site, values);
    await waitFor(() => ownerMail(sink, id).length === 1, "the owner's notification", 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(mailsTo(sink, values.email)).toEqual([]);
    expect(site.logEvents("acknowledgement")).toEqual([]);
    const store = await openInboxStore(parseDatabaseUrl(site.databaseUrl)!, { timeoutMs: 10_000 });
    try {
      expect(await store.outgoingMailOf(id)).toEqual([]);
    } finally {
      await store.close();
    }
  }, 30_000);
});

describe("acknowledgements, turned on (spam filter off: every enquiry is clean)", () => {
  let site: SiteServer;
  let store: InboxStore;
  beforeAll(async () => {
    site = await startSite(mailEnv(sink));
    await published(site, acknowledging);
    store = await openInboxStore(parseDatabaseUrl(site.databaseUrl)!, { timeoutMs: 10_000 });
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await site?.stop();
  });

  it("sends one, auto-replied, in the owner's words and the season's, with none of the visitor's", async () => {
    const secret = randomUUID(); // in the message only (the address carries the enquiry's own token)
    const hostile = enquiry(randomUUID(), {
      name: "Click http://evil.example",
      message: `Win a prize at http://evil.example/win and https://phish.example/login?x=${secret} now!\nSubject: pwned`,
    });
    const id = await post(site, hostile);
    await waitFor(() => mailsTo(sink, hostile.email).length === 1, "the acknowledgement", 10_000);
    expect(acknowledgementOf(site, id)).toMatchObject({ outcome: "queued" });
    const [mail] = mailsTo(sink, hostile.email);
    expect(mail!.envelope).toEqual({ from: "site@grimforge.example", to: [hostile.email] });

    const parsed = await simpleParser(mail!.raw);
    expect(parsed.headers.get("auto-submitted")).toBe("auto-replied");
    expect(parsed.headers.get("x-auto-response-suppress")).toBe("All");
    expect(parsed.from?.value).toEqual([{ address: "site@grimforge.example", name: "Hollow Hill Haunts" }]);
    expect(parsed.replyTo?.value).toEqual([{ address: "shop@hollowhill.example", name: "" }]);
    expect(parsed.to && "value" in parsed.to ? parsed.to.value.map((to) => to.address) : []).toEqual([hostile.email]);
    expect(parsed.subject).toBe("Your enquiry to Hollow Hill Haunts");
    expect(parsed.messageId).toMatch(/^<acknowledgement-[0-9a-f-]{36}@grimforge\.example>$/);
    expect(parsed.inReplyTo).toBeUndefined();
    expect(parsed.text).toContain(
      "Thank you for writing. We answer within 4 working days.\n\n" +
        "Orders for the 2027 haunt season close on September 1, 2027.\n\n-- \nHollow Hill Haunts\n",
    );
    // Nothing the visitor typed: not the name, not a link, not a word of the message, not the token in it.
    for (const typed of ["Click", "evil.example", "phish.example", "prize", "pwned", secret, "Test Visitor"]) {
      expect(mail!.raw).not.toContain(typed);
      expect(parsed.text).not.toContain(typed);
      expect(parsed.subject).not.toContain(typed);
    }

    // Shown with the enquiry: the mail sent, and its timeline line by the site.
    await waitFor(async () => (await store.outgoingMailOf(id))[0]?.state === "sent", "the mail marked sent", 10_000);
    expect(await store.outgoingMailOf(id)).toEqual([
      expect.objectContaining({ kind: "acknowledgement", to: hostile.email, attempts: 1 }),
    ]);
    expect(await store.timeline(id)).toEqual([expect.objectContaining({ kind: "acknowledgement", actor: "site" })]);

    // The enquiry's page: the timeline's line by the site, and the mail with its delivery under Replies.
    const publicUrl = "http://acknowledgements.example";
    const added = await runInbox(["operator", "add", owner], {
      env: { DATABASE_URL: site.databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
      input: "a coffin full of moonlit bats\n",
    });
    expect(added.status, added.stderr).toBe(0);
    const login = await sendAs(publicUrl, site.url, "/inbox/login", {
      method: "POST",
      body: { email: owner, password: "a coffin full of moonlit bats", next: "/inbox" },
    });
    const cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
    const page = (await sendAs(publicUrl, site.url, `/inbox/${id}`, { cookie })).text.replace(/<!-- -->/g, "");
    const timeline = /<section aria-labelledby="timeline"[\s\S]*?<\/ol>/.exec(page)![0];
    expect(timeline).toContain(pipelineCopy.timeline.acknowledgementLine("sent"));
    expect(page).toContain(repliesCopy.list.acknowledgement);
    expect(page).toMatch(/data-mail-state="sent"/);
  }, 30_000);

  it("sends one for an enquiry through the contact form too (JavaScript off: the page's own post)", async () => {
    const values = enquiry(randomUUID());
    const answer = await postForm(site.url, { ...values });
    expect(answer.status).toBe(303);
    await waitFor(() => mailsTo(sink, values.email).length === 1, "the acknowledgement", 10_000);
    expect(mailsTo(sink, values.email)[0]!.headers.get("auto-submitted")).toEqual(["auto-replied"]);
  }, 30_000);

  it("sends none for a second enquiry from the same address within 24 hours", async () => {
    const first = enquiry(randomUUID());
    const firstId = await post(site, first);
    await waitFor(() => mailsTo(sink, first.email).length === 1, "the first acknowledgement", 10_000);
    const second = { ...first, message: `Another prop, please. ${randomUUID()}` };
    const secondId = await post(site, second);
    expect(secondId).not.toBe(firstId);
    await waitFor(() => acknowledgementOf(site, secondId) !== undefined, "the second enquiry considered", 10_000);
    expect(acknowledgementOf(site, secondId)).toMatchObject({ outcome: "address-limit" });
    await waitFor(() => ownerMail(sink, secondId).length === 1, "the owner's notification of the second", 10_000);
    expect(mailsTo(sink, first.email)).toHaveLength(1);
    expect(await store.outgoingMailOf(secondId)).toEqual([]);
  }, 30_000);
});

describe("acknowledgements with the spam filter on", () => {
  let site: SiteServer;
  beforeAll(async () => {
    site = await startSite({ ...mailEnv(sink), SPAM_FILTER: "on" });
    await published(site, acknowledging);
  }, 60_000);
  afterAll(() => site?.stop());

  it("sends none for spam or possible spam, and one for the real enquiry posted after them", async () => {
    // By content alone (JSON carries no form token): the model's three outcomes, as tests/integration/spam-site.test.ts.
    const spam = enquiry(randomUUID(), {
      message:
        "Hi, I noticed your website is not ranking on the first page of Google. Our SEO experts can fix your search " +
        "engine ranking and get you more website traffic. Reply for a free audit.",
    });
    const possible = enquiry(randomUUID(), {
      message:
        "I noticed your website again: our marketing agency has a second client launch in October. Can you send " +
        "pricing for two animated props?",
    });
    const real = enquiry(randomUUID(), {
      message: "Hi! We run a haunted hayride and need a lunging werewolf for the barn scene. Could you send a quote?",
    });
    const [spamId, possibleId, realId] = [await post(site, spam), await post(site, possible), await post(site, real)];
    const verdicts = new Map((await site.stored()).map((item) => [item.id, item.spamVerdict]));
    expect([verdicts.get(spamId), verdicts.get(possibleId), verdicts.get(realId)]).toEqual([
      "spam",
      "possible",
      "none",
    ]);

    await waitFor(() => mailsTo(sink, real.email).length === 1, "the real enquiry's acknowledgement", 10_000);
    await waitFor(() => ownerMail(sink, possibleId).length === 1, "the possible spam announced", 10_000);
    expect(mailsTo(sink, spam.email)).toEqual([]);
    expect(mailsTo(sink, possible.email)).toEqual([]);
    expect(acknowledgementOf(site, spamId)).toBeUndefined();
    expect(acknowledgementOf(site, possibleId)).toBeUndefined();
  }, 30_000);
});
