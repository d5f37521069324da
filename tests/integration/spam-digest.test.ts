import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { postForm } from "../support/site-http";
import { ensureBuilt, runSiteExpectingExit, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";
import { startWebhookReceiver, type ReceivedPost, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * The daily digest of what was kept aside as spam, through the built server with a real SMTP server, a real webhook
 * receiver and, for several instances, one throwaway PostgreSQL: spam is kept aside first (a post with the hidden
 * field filled), then instances start whose digest hour has come in their SITE_TIMEZONE (a fixed-offset zone where it
 * is about noon now, so no day boundary is near while the test runs). Each instance logs how its round went.
 */

const temp = useTempDir("haunt-spam-digest-");
let postgres: TestDatabases | undefined;
let sink: SmtpSink;
let receiver: WebhookReceiver;
const sites: SiteServer[] = [];

beforeAll(async () => {
  await ensureBuilt();
  [sink, receiver] = await Promise.all([startSmtpSink(), startWebhookReceiver()]);
  if (postgresAvailable) postgres = await sharedPostgres();
}, 60_000);
afterAll(async () => {
  await Promise.all([sink?.stop(), receiver?.stop()]);
  await postgres?.stop();
});
beforeEach(() => {
  sink.messages.splice(0);
  receiver.posts.splice(0);
  receiver.setMode("accept");
});
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
});

/** A fixed-offset zone where the local hour is 12 now (Etc/GMT-N is UTC+N), and that hour as SPAM_DIGEST_HOUR. */
function dueAtNoon(): { SITE_TIMEZONE: string; SPAM_DIGEST_HOUR: string } {
  const offset = 12 - new Date().getUTCHours();
  const zone = offset === 0 ? "Etc/GMT" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
  return { SITE_TIMEZONE: zone, SPAM_DIGEST_HOUR: "12" };
}

async function site(env: Record<string, string>): Promise<SiteServer> {
  const started = await startSite({
    SPAM_FILTER: "on",
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example",
    NOTIFY_EMAIL_FROM: "site@grimforge.example",
    NOTIFY_WEBHOOK_URL: receiver.url, // 127.0.0.1: the json format
    PUBLIC_URL: "https://haunt.example",
    ...env,
  });
  sites.push(started);
  return started;
}

/** Spam kept aside through the form: a bot that fills the hidden field (with the digest off on this instance). */
async function keepSpamAside(databaseUrl: string, posts: Record<string, string>[]): Promise<string> {
  const keeper = await site({ SPAM_DIGEST_HOUR: "off", DATABASE_URL: databaseUrl });
  for (const post of posts) {
    const reply = await postForm(keeper.url, { security: "Freddy", company_website: "https://seo.example", ...post });
    expect(reply.status).toBe(303); // thanked like anyone
  }
  const stored = await keeper.stored();
  expect(stored.filter((enquiry) => enquiry.status === "spam")).toHaveLength(posts.length);
  await keeper.stop();
  sites.splice(sites.indexOf(keeper), 1);
  return databaseUrl;
}

/** A SQLite file of its own that outlives the servers started on it. */
const sqliteUrl = () => `file:${temp.file("enquiries.db")}`;

const spamPosts = [
  { name: "SEO Expert", email: "seo@spam.example", message: "I noticed your website\u0007 is not ranking.\nCall me." },
  { name: "Loan\u202eDesk", email: "loans@spam.example", message: "\n\nFast business loans, no questions asked." },
];

const digestMails = (): ReceivedMail[] => sink.messages.filter((mail) => mail.headers.has("x-spam-digest"));
const digestPosts = (): ReceivedPost[] =>
  receiver.posts.filter((post) => (post.json as { spamDigest?: unknown } | null)?.spamDigest !== undefined);

/** Each instance's round for the day, as it logged it: claimed, nothing or taken. */
const roundOutcome = (target: SiteServer) =>
  target.logEvents("spam-digest").find((entry) => ["claimed", "nothing", "taken"].includes(String(entry.outcome)))
    ?.outcome;
const sentBy = (targets: SiteServer[]) =>
  targets.flatMap((target) => target.logEvents("spam-digest").filter((entry) => entry.outcome === "sent"));

describe.skipIf(!postgresAvailable)("the spam digest with two instances on one PostgreSQL database", () => {
  it(
    "sends one e-mail and one webhook digest of what was kept aside, whichever instance claims the day",
    { timeout: 60_000 },
    async () => {
      const databaseUrl = await keepSpamAside(await postgres!.createDatabase(), spamPosts);
      const both = await Promise.all([0, 1].map(() => site({ DATABASE_URL: databaseUrl, ...dueAtNoon() })));
      await waitFor(() => both.every((target) => roundOutcome(target) !== undefined), "both instances' rounds", 20_000);
      expect(both.map(roundOutcome).sort()).toEqual(["claimed", "taken"]);
      await waitFor(() => sentBy(both).length === 2, "the digest sent on both channels", 20_000);

      expect(digestMails()).toHaveLength(1);
      const [mail] = digestMails();
      expect(mail!.headers.get("subject")).toEqual([expect.stringMatching(/^Spam digest: 2 enquiries kept aside/)]);
      expect(mail!.envelope.to).toEqual(["owner@grimforge.example"]);
      // Names, addresses and each message's first line with words, made one safe line; the Spam folder's address.
      expect(mail!.text).toContain("- SEO Expert (seo@spam.example): I noticed your website is not ranking.");
      expect(mail!.text).toContain("- Loan Desk (loans@spam.example): Fast business loans, no questions asked.");
      expect(mail!.text).not.toContain("\u0007");
      expect(mail!.text).not.toContain("\u202e");
      expect(mail!.text).not.toContain("Call me");
      expect(mail!.text).toContain("https://haunt.example/inbox?folder=spam");

      expect(digestPosts()).toHaveLength(1);
      const body = digestPosts()[0]!.json as { text: string; spamDigest: { total: number; enquiries: unknown[] } };
      expect(body.spamDigest.total).toBe(2);
      expect(body.spamDigest.enquiries).toHaveLength(2);
      expect(body.text).toContain("seo@spam.example");
      expect(body.text).toContain("https://haunt.example/inbox?folder=spam");

      // Started again the same day: the day is taken, nothing goes out twice.
      await Promise.all(sites.splice(0).map((target) => target.stop()));
      const again = await site({ DATABASE_URL: databaseUrl, ...dueAtNoon() });
      await waitFor(() => roundOutcome(again) !== undefined, "the restarted instance's round", 20_000);
      expect(roundOutcome(again)).toBe("taken");
      expect(digestMails()).toHaveLength(1);
      expect(digestPosts()).toHaveLength(1);
    },
  );

  it("sends nothing when nothing was kept aside", { timeout: 60_000 }, async () => {
    const databaseUrl = await postgres!.createDatabase();
    const both = await Promise.all([0, 1].map(() => site({ DATABASE_URL: databaseUrl, ...dueAtNoon() })));
    await waitFor(() => both.every((target) => roundOutcome(target) !== undefined), "both instances' rounds", 20_000);
    expect(both.map(roundOutcome).sort()).toEqual(["nothing", "taken"]);
    expect(sentBy(both)).toEqual([]);
    expect(digestMails()).toEqual([]);
    expect(digestPosts()).toEqual([]);
  });
});

describe("the spam digest on one instance (SQLite)", () => {
  it("SPAM_DIGEST_HOUR=off sends none: an instance with it on, started beside it, sends the one digest", async () => {
    const databaseUrl = await keepSpamAside(sqliteUrl(), spamPosts.slice(0, 1));
    const off = await site({ DATABASE_URL: databaseUrl, ...dueAtNoon(), SPAM_DIGEST_HOUR: "off" });
    expect(off.output()).toContain("the daily spam digest is off (SPAM_DIGEST_HOUR=off)");
    const on = await site({ DATABASE_URL: databaseUrl, ...dueAtNoon() });
    await waitFor(() => sentBy([on]).length === 2, "the digest sent on both channels", 20_000);
    expect(roundOutcome(on)).toBe("claimed");
    expect(off.logEvents("spam-digest")).toEqual([]);
    expect(digestMails()).toHaveLength(1);
    expect(digestPosts()).toHaveLength(1);
  });

  it("a refused send is retried until it goes through, once; the other channel is not sent again", async () => {
    const databaseUrl = await keepSpamAside(sqliteUrl(), spamPosts.slice(0, 1));
    let refused = false; // the receiver's own count runs across tests
    receiver.setMode(() => {
      if (refused) return "accept";
      refused = true;
      return { status: 503, body: "busy" };
    });
    const target = await site({ DATABASE_URL: databaseUrl, ...dueAtNoon() });
    await waitFor(() => sentBy([target]).length === 2, "the digest sent on both channels", 30_000);
    const retries = target.logEvents("spam-digest").filter((entry) => entry.outcome === "retry");
    expect(retries).toEqual([expect.objectContaining({ channel: "webhook", attempts: 1 })]);
    expect(retries[0]!.error).toMatch(/HTTP 503: busy/);
    expect(digestMails()).toHaveLength(1);
    expect(digestPosts()).toHaveLength(1);
  });

  it("an unknown SITE_TIMEZONE or digest hour stops the start, naming the variable", async () => {
    const zone = await runSiteExpectingExit({ SITE_TIMEZONE: "Europe/Atlantis" });
    expect(zone.code).toBe(1);
    expect(zone.output).toContain("SITE_TIMEZONE: must be an IANA time zone name");
    const hour = await runSiteExpectingExit({ SPAM_DIGEST_HOUR: "25" });
    expect(hour.code).toBe(1);
    expect(hour.output).toContain("SPAM_DIGEST_HOUR: must be an hour from 0 to 23");
  });
});
