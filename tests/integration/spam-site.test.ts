import { writeFile } from "node:fs/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runInbox } from "../support/inbox-command";
import { postForm } from "../support/site-http";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * The spam filter, retention and erasure through the real built server with its default SPAM_FILTER (on), a real SMTP
 * server and a real webhook receiver: each signal alone, a post that waits like a person, the same token twice, spam
 * thanked and not announced, not-spam announced once, the purge at start and by command, erase with the v1 file there.
 */

const temp = useTempDir("haunt-spam-site-");
let sink: SmtpSink;
let receiver: WebhookReceiver;
const sites: SiteServer[] = [];

beforeAll(async () => {
  await ensureBuilt();
  sink = await startSmtpSink();
  receiver = await startWebhookReceiver();
}, 60_000);
afterAll(async () => {
  await sink.stop();
  await receiver.stop();
});
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
});

async function site(env: Record<string, string> = {}): Promise<SiteServer> {
  const started = await startSite({
    SPAM_FILTER: "on", // startSite turns it off for tests about other things
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example",
    NOTIFY_EMAIL_FROM: "site@grimforge.example",
    NOTIFY_WEBHOOK_URL: receiver.url,
    ...env,
  });
  sites.push(started);
  return started;
}

/** GETs the contact page as a browser would; its form token and its Cache-Control. */
async function servedForm(target: SiteServer): Promise<{ token: string; cacheControl: string | null }> {
  const response = await fetch(`${target.url}/contact`);
  const html = await response.text();
  const token = /name="form_token" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error("no form token in /contact");
  return { token, cacheControl: response.headers.get("cache-control") };
}

const personWait = () => new Promise((resolve) => setTimeout(resolve, 3_200));
let count = 0;
function fields(extra: Record<string, string> = {}) {
  count++;
  return {
    name: `Visitor ${count}`,
    email: `visitor${count}@example.com`,
    message: `I would like a talking skull, number ${count}.`,
    security: "Freddy",
    ...extra,
  };
}

/** One message of each outcome by content alone (app/enquiry/spam-model.server.ts with its built-in corpus). */
const outcomeMessages = {
  real: "Hi! We run a haunted hayride and need a lunging werewolf for the barn scene. Could you send a quote?",
  // A real customer who writes like a pitch: announced, with the marker.
  possible:
    "I noticed your website again: our marketing agency has a second client launch in October. Can you send " +
    "pricing for two animated props?",
  spam:
    "Hi, I noticed your website is not ranking on the first page of Google. Our SEO experts can fix your search " +
    "engine ranking and get you more website traffic. Reply for a free audit.",
};

/** A kind of pitch the built-in corpus does not know: the owner teaches it. */
const solarPitches = [
  "Cut your energy bill in half with rooftop solar panels. Zero down, federal tax credit, free install quote.",
  "Rooftop solar panels for your business with zero down and the federal tax credit. Get a free install quote.",
  "Still paying too much for power? Solar panels, zero down, tax credit included. Free install quote today.",
];

async function storedBy(target: SiteServer, email: string) {
  const found = (await target.stored()).find((enquiry) => enquiry.email === email);
  if (!found) throw new Error(`nothing stored from ${email}`);
  return found;
}

/** `npm run inbox -- ARGS` (in this process) on the site's database, with the site's notification channels. */
const cli = (args: string[], databaseUrl: string, extra: Record<string, string> = {}) =>
  runInbox(args, {
    env: {
      DATABASE_URL: databaseUrl,
      ...extra,
      API_HOST: undefined,
      SMTP_URL: sink.url,
      NOTIFY_EMAIL_TO: "owner@grimforge.example",
      NOTIFY_EMAIL_FROM: "site@grimforge.example",
      NOTIFY_WEBHOOK_URL: receiver.url,
    },
  });

describe("the spam filter on the contact form", () => {
  it("serves each visitor their own token, never from a shared cache", async () => {
    const target = await site();
    const [one, two] = [await servedForm(target), await servedForm(target)];
    expect(one.token).not.toBe(two.token);
    expect(one.cacheControl).toMatch(/no-store/);
  });

  it("keeps /contact out of every cache also while the database is down (no token to give)", async () => {
    const target = await site({ DATABASE_URL: "postgres://haunt:x@127.0.0.1:9/haunt" }); // nothing listens there
    for (let request = 0; request < 2; request++) {
      const response = await fetch(`${target.url}/contact`);
      expect(response.headers.get("cache-control")).toMatch(/^no-store/);
      expect(await response.text()).not.toContain('name="form_token"');
    }
  });

  it("each bot signal alone holds a post as spam; spam gets the thank-you and no e-mail or webhook", async () => {
    const target = await site();
    const tokens = await Promise.all(Array.from({ length: 2 }, () => servedForm(target)));
    const tooFast = await servedForm(target);
    const tooFastPost = fields({ form_token: tooFast.token });
    expect((await postForm(target.url, tooFastPost)).status).toBe(303); // at once: less than 3 s
    await personWait();
    const posts: [Record<string, string>, string][] = [
      [fields(), "form token missing"],
      [fields({ form_token: `${tokens[0]!.token.slice(0, -2)}xx` }), "form token forged"],
      [tooFastPost, "posted less than 3 s after the form was served"],
      [fields({ form_token: tokens[1]!.token, company_website: "x" }), "hidden field filled"],
    ];
    // The too-fast one was posted above; the others after a person's wait.
    for (const [index, [post, reason]] of posts.entries()) {
      if (index !== 2) {
        const reply = await postForm(target.url, post);
        expect(reply.status, reason).toBe(303);
        expect(reply.location).toBe("/contact?sent=1");
      }
      const stored = await storedBy(target, post.email!);
      expect(stored, reason).toMatchObject({ status: "spam", spamVerdict: "spam", spamScore: 1 });
      expect(stored.spamReasons).toEqual([reason]);
      expect(stored.notifications).toEqual([]);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const emails = new Set(posts.map(([post]) => post.email));
    expect(sink.messages.filter((mail) => [...emails].some((email) => mail.raw.includes(email!)))).toEqual([]);
    expect(receiver.posts.filter((post) => [...emails].some((email) => post.body.includes(email!)))).toEqual([]);
  }, 30_000);

  it("a post that waits like a person is new and announced; the same token again is spam", async () => {
    const target = await site();
    const { token } = await servedForm(target);
    await personWait();
    const first = fields({ form_token: token });
    expect((await postForm(target.url, first)).status).toBe(303);
    const stored = await storedBy(target, first.email);
    expect(stored).toMatchObject({ status: "new", spamVerdict: "none" });
    await waitFor(() => sink.forEnquiry(stored.id).length === 1, "the e-mail", 10_000);
    await waitFor(() => receiver.forEnquiry(stored.id).length === 1, "the webhook", 10_000);

    const again = fields({ form_token: token });
    expect((await postForm(target.url, again)).status).toBe(303);
    expect(await storedBy(target, again.email)).toMatchObject({
      status: "spam",
      spamReasons: ["form token used before"],
    });
  }, 30_000);

  it("three outcomes by content: none announced, possible announced with [Possible spam], spam kept aside", async () => {
    const target = await site();
    const tokens = await Promise.all(Array.from({ length: 3 }, () => servedForm(target)));
    await personWait();
    const real = fields({ form_token: tokens[0]!.token, message: outcomeMessages.real });
    const possible = fields({ form_token: tokens[1]!.token, message: outcomeMessages.possible });
    const spam = fields({ form_token: tokens[2]!.token, message: outcomeMessages.spam });
    for (const post of [real, possible, spam]) expect((await postForm(target.url, post)).status).toBe(303);

    const [storedReal, storedPossible, storedSpam] = await Promise.all([
      storedBy(target, real.email),
      storedBy(target, possible.email),
      storedBy(target, spam.email),
    ]);
    expect(storedReal).toMatchObject({ status: "new", spamVerdict: "none" });
    expect(storedPossible).toMatchObject({ status: "new", spamVerdict: "possible" });
    expect(storedPossible.spamScore).toBeGreaterThanOrEqual(0.7);
    expect(storedPossible.spamReasons.length).toBeGreaterThan(0);
    expect(storedSpam).toMatchObject({ status: "spam", spamVerdict: "spam", notifications: [] });
    expect(storedSpam.spamReasons).toContainEqual(expect.stringMatching(/^the word "seo"/));

    await waitFor(() => sink.forEnquiry(storedPossible.id).length === 1, "the possible spam's e-mail", 10_000);
    await waitFor(() => receiver.forEnquiry(storedPossible.id).length === 1, "its webhook", 10_000);
    await waitFor(() => sink.forEnquiry(storedReal.id).length === 1, "the real one's e-mail", 10_000);
    await waitFor(() => receiver.forEnquiry(storedReal.id).length === 1, "its webhook", 10_000);
    const subject = (id: string) => sink.forEnquiry(id)[0]!.headers.get("subject")![0]!;
    expect(subject(storedPossible.id)).toBe(`[Possible spam] New enquiry from ${possible.name}`);
    expect(sink.forEnquiry(storedPossible.id)[0]!.text).toContain("The spam filter thinks this may be spam");
    expect(subject(storedReal.id)).toBe(`New enquiry from ${real.name}`);
    const chat = (id: string) => (receiver.forEnquiry(id)[0]!.json as { text: string }).text;
    expect(chat(storedPossible.id)).toMatch(/^\[Possible spam\] New enquiry from /);
    expect(chat(storedReal.id)).toMatch(/^New enquiry from /);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(sink.forEnquiry(storedSpam.id)).toEqual([]);
    expect(receiver.forEnquiry(storedSpam.id)).toEqual([]);
  }, 40_000);

  it("mark-spam from the terminal teaches the filter (twice counts once); spam stats shows it, spam reset forgets", async () => {
    const target = await site();
    const post = async (message: string, n: number) => {
      const values = fields({ message, email: `solar${n}@brightsolar-deals.com` });
      const response = await fetch(`${target.url}/api/site/save-contact`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(values),
      });
      expect(response.status).toBe(204);
      return storedBy(target, values.email);
    };
    const first = await post(solarPitches[0]!, 1);
    expect(first.status).toBe("new"); // a kind the built-in corpus does not know
    for (const round of [1, 2]) {
      const marked = await cli(["mark-spam", first.id], target.databaseUrl);
      expect(marked, `round ${round}`).toMatchObject({ status: 0 });
      expect(marked.stdout).toContain("the spam filter learned from it");
    }
    const second = await post(solarPitches[1]!, 2);
    expect(second.status).toBe("spam");
    const stats = await cli(["spam", "stats"], target.databaseUrl);
    expect(stats.status).toBe(0);
    expect(stats.stdout).toContain("Learned from you: 1 marked as spam, 0 marked not spam");
    expect(stats.stdout).toMatch(/What you taught points to spam most:\n {2}(the word|a link|sent from)/);
    expect(stats.stdout).toMatch(/the word "(cut|energy|bill|half|rooftop|solar|panels|zero|down|federal|tax|credit)"/);
    expect((await cli(["mark-spam", "no-such-id"], target.databaseUrl)).status).toBe(1);

    const reset = await cli(["spam", "reset"], target.databaseUrl);
    expect(reset).toMatchObject({ status: 0 });
    expect(reset.stdout).toMatch(/^Forgot what you taught the spam filter \(\d+ words, links and signals\)/);
    expect((await cli(["spam", "stats"], target.databaseUrl)).stdout).toContain("Learned from you: 0 marked as spam");
    expect((await post(solarPitches[2]!, 3)).status).toBe("new");
    expect((await cli(["spam", "nonsense"], target.databaseUrl)).status).toBe(2);
  }, 40_000);

  it("a wrong captcha answer is still the visitor's error, token or not", async () => {
    const target = await site();
    const reply = await postForm(target.url, fields({ security: "Jason" }));
    expect(reply.status).toBe(400);
    expect(reply.text).toContain("That is not the right answer to the security question.");
  });

  it("not-spam: the enquiry becomes new and its e-mail and webhook go out once", async () => {
    const target = await site();
    const post = fields();
    await postForm(target.url, post);
    const held = await storedBy(target, post.email);
    expect(held.status).toBe("spam");
    const done = await cli(["not-spam", held.id], target.databaseUrl);
    expect(done).toMatchObject({ status: 0 });
    expect(done.stdout).toContain("is not spam");
    await waitFor(() => sink.forEnquiry(held.id).length === 1, "the e-mail", 20_000);
    await waitFor(() => receiver.forEnquiry(held.id).length === 1, "the webhook", 20_000);
    // Again: recorded (exit 0), announced no second time.
    const again = await cli(["not-spam", held.id], target.databaseUrl);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("its status stays new");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(sink.forEnquiry(held.id).length).toBe(1);
    expect(receiver.forEnquiry(held.id).length).toBe(1);
    expect((await storedBy(target, post.email)).status).toBe("new");
  }, 40_000);

  it("the JSON endpoint judges content only", async () => {
    const target = await site();
    const post = (body: Record<string, string>) =>
      fetch(`${target.url}/api/site/save-contact`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const plain = fields();
    expect((await post(plain)).status).toBe(204);
    expect((await storedBy(target, plain.email)).status).toBe("new");
    const seo = fields({ message: "Get a guest post and a backlink from our SEO team" });
    expect((await post(seo)).status).toBe(204);
    expect(await storedBy(target, seo.email)).toMatchObject({ status: "spam" });
  });

  it("SPAM_FILTER=off stores everything as new", async () => {
    const target = await site({ SPAM_FILTER: "off" });
    const post = fields({ company_website: "x" });
    expect((await postForm(target.url, post)).status).toBe(303);
    expect((await storedBy(target, post.email)).status).toBe("new");
  });
});

describe("retention and erasure through the server", () => {
  const v1Line = (daysAgo: number, email: string) =>
    JSON.stringify({
      receivedAt: new Date(Date.now() - daysAgo * 24 * 60 * 60_000).toISOString(),
      name: "Old Visitor",
      email,
      message: `A prop, ${daysAgo} days ago.`,
    });

  it("purges at start and by `npm run inbox -- purge`, which says what it deleted", async () => {
    const inboxFile = temp.file("enquiries.jsonl");
    await writeFile(inboxFile, `${v1Line(400, "old@example.com")}\n${v1Line(10, "recent@example.com")}\n`);
    // The database in our own temp dir: the server's own is removed when it stops.
    const target = await site({ INBOX_FILE: inboxFile, DATABASE_URL: `file:${temp.file("enquiries.db")}` });
    await waitFor(async () => (await target.stored()).length === 1, "the purge at start", 10_000);
    expect((await target.stored())[0]!.email).toBe("recent@example.com");
    const purge = await cli(["purge"], target.databaseUrl);
    expect(purge.status).toBe(0);
    expect(purge.stdout).toMatch(/^Deleted 0 enquiries and 0 spam enquiries past their retention/);
    await target.stop();
    const shorter = await cli(["purge"], target.databaseUrl, { RETENTION_DAYS: "5" });
    expect(shorter.stdout).toMatch(/^Deleted 1 enquiry and 0 spam enquiries past their retention/);
  }, 30_000);

  it("erase, then restart with the v1 file still there: the erased enquiries stay gone; the import is skipped", async () => {
    const inboxFile = temp.file("enquiries.jsonl");
    const lines = [v1Line(20, "jane@example.com"), v1Line(21, "Jane@Example.com"), v1Line(22, "kim@example.com")];
    await writeFile(inboxFile, `${lines.join("\n")}\n`);
    const first = await site({ INBOX_FILE: inboxFile, DATABASE_URL: `file:${temp.file("enquiries.db")}` });
    await waitFor(async () => (await first.stored()).length === 3, "the import", 10_000);
    await first.stop();
    const erased = await cli(["erase", "JANE@example.com"], first.databaseUrl);
    expect(erased.stdout).toContain("Erased 2 enquiries");
    const second = await site({ INBOX_FILE: inboxFile, DATABASE_URL: first.databaseUrl });
    expect((await second.stored()).map((enquiry) => enquiry.email)).toEqual(["kim@example.com"]);
    expect(first.output()).toContain(`imported 3 enquiries from ${inboxFile}`);
    expect(second.output()).not.toContain("imported");
  }, 30_000);
});
