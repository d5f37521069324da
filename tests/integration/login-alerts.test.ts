import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runInbox } from "../support/inbox-command";
import { postgresAvailable } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { sendAs, type Answer } from "../support/site-http";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * The new-login alert through the built server, a real SMTP server and a real webhook receiver: a login from a browser
 * not seen before for the operator sends one e-mail and one webhook post with the time (in SITE_TIMEZONE), the browser
 * and the approximate address and what to do; the same browser (its cookie) logs in again without one; another browser
 * gets one; an SMTP server that is down at the login and comes back gets the e-mail once. Never the password, the
 * session id or the browser id in what is sent or logged. Two instances on one PostgreSQL database send each alert once.
 */

const publicUrl = "https://haunt.example";
const temp = useTempDir("haunt-login-alerts-");
const email = "ann@grimforge.example";
const password = "a coffin full of moonlit bats";
const android =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

let sink: SmtpSink;
let receiver: WebhookReceiver;
let site: SiteServer;
let databasePath: string;

beforeAll(async () => {
  await ensureBuilt();
  [sink, receiver] = await Promise.all([startSmtpSink(), startWebhookReceiver()]);
  databasePath = join(temp.dir(), "inbox.db");
  const added = await runInbox(["operator", "add", email], {
    env: { DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl, API_HOST: "" },
    input: `${password}\n`,
  });
  expect(added.status, added.stderr).toBe(0);
  site = await startSite({
    API_HOST: "",
    DATABASE_URL: `file:${databasePath}`,
    PUBLIC_URL: publicUrl,
    INBOX_REQUIRE_2FA: "on",
    SITE_TIMEZONE: "America/New_York",
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example",
    NOTIFY_EMAIL_FROM: "site@grimforge.example",
    NOTIFY_WEBHOOK_URL: receiver.url, // 127.0.0.1: the json format
  });
}, 60_000);
afterAll(async () => {
  await site?.stop();
  await Promise.all([sink?.stop(), receiver?.stop()]);
});
beforeEach(() => {
  sink.messages.splice(0);
  receiver.posts.splice(0);
});

/** The Set-Cookie header of the given name (its whole line), from an answer. */
const setCookie = (answer: Answer, name: string) =>
  (answer.headers["set-cookie"] ?? []).find((line) => line.startsWith(`${name}=`));
const cookieValue = (line: string | undefined) => line?.split(";")[0]!.split("=").slice(1).join("=") ?? "";

async function logIn(userAgent: string, browserCookie?: string) {
  const answer = await sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email, password, next: "/inbox" },
    headers: { "User-Agent": userAgent },
    cookie: browserCookie ? `__Host-inbox_browser=${browserCookie}` : undefined,
  });
  expect(answer.status).toBe(302);
  return answer;
}

/** The alerts stored for the operator, one row per channel. */
function alertRows() {
  const db = new DatabaseSync(databasePath, { readOnly: true });
  try {
    return db.prepare("SELECT id, channel, state, attempts, last_error FROM owner_alerts ORDER BY at, channel").all();
  } finally {
    db.close();
  }
}

describe("the new-login alert", () => {
  it("comes once per new browser, on e-mail and the webhook, with when, which browser, where from and what to do", async () => {
    const first = await logIn(android);
    // The session's cookie first (what every other test reads), then the browser's: long-lived, HttpOnly, Lax.
    expect(first.headers["set-cookie"]![0]).toMatch(/^__Host-inbox_session=/);
    const browserLine = setCookie(first, "__Host-inbox_browser");
    expect(browserLine).toMatch(
      /^__Host-inbox_browser=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=34560000; Secure$/,
    );
    const browserId = cookieValue(browserLine);
    const sessionId = cookieValue(setCookie(first, "__Host-inbox_session"));

    await waitFor(() => sink.messages.length >= 1 && receiver.posts.length >= 1, "the first alert", 10_000);
    const [mail] = sink.messages;
    expect(mail!.headers.get("subject")).toEqual(["New login to the inbox"]);
    expect(mail!.envelope.to).toEqual(["owner@grimforge.example"]);
    const text = mail!.text.replace(/\r\n/g, "\n");
    expect(text).toContain(`Someone logged in to the inbox as ${email} from a browser not seen before.`);
    expect(text).toMatch(/When: \w+day, \d{1,2} \w+ \d{4} at \d\d:\d\d \(America\/New_York\)/);
    expect(text).toContain("Browser: Chrome on Android");
    expect(text).toContain("Approximate address: 127.0.0.1");
    expect(text).toContain("1. Open the Security page: https://haunt.example/inbox/security");
    expect(text).toContain('2. Press "Log out everywhere else".');
    expect(text).toContain(`3. Change your password on the server: npm run inbox -- operator add ${email}`);

    const post = receiver.posts[0]!;
    const body = post.json as { content: string; loginAlert: Record<string, string> };
    expect(body.content).toMatch(/^New login to the inbox\n/);
    expect(body.content).toContain("Browser: Chrome on Android");
    expect(body.content).toContain("https://haunt.example/inbox/security");
    expect(body.loginAlert).toMatchObject({ operator: email, browser: "Chrome on Android", address: "127.0.0.1" });

    // Never a secret in what was sent or printed.
    for (const secret of [password, browserId, sessionId]) {
      expect(mail!.raw).not.toContain(secret);
      expect(post.body).not.toContain(secret);
      expect(site.output()).not.toContain(secret);
    }

    // The same browser again (its cookie): no alert. Then another browser (no cookie): one again.
    const again = await logIn(android, browserId);
    expect(cookieValue(setCookie(again, "__Host-inbox_browser"))).toBe(browserId);
    const other = await logIn(firefox);
    expect(cookieValue(setCookie(other, "__Host-inbox_browser"))).not.toBe(browserId);
    await waitFor(() => sink.messages.length >= 2 && receiver.posts.length >= 2, "the second alert", 10_000);
    // Stored at the login itself: two logins from new browsers, one row per channel each, all sent.
    await waitFor(() => alertRows().every((row) => row.state === "sent"), "the alerts settled", 10_000);
    expect(alertRows()).toHaveLength(4);
    expect(sink.messages).toHaveLength(2);
    expect(receiver.posts).toHaveLength(2);
    expect(sink.messages[1]!.text).toContain("Browser: Firefox on Windows");
    expect((receiver.posts[1]!.json as { content: string }).content).toContain("Browser: Firefox on Windows");
    // Each send is logged once it is recorded: the line reaches this process through the server's output a moment
    // after the row says sent.
    const sentLines = () => site.logEvents("owner-alert").filter((entry) => entry.outcome === "sent");
    await waitFor(() => sentLines().length >= 4, "the sends logged", 10_000);
    expect(sentLines()).toHaveLength(4);
  });

  it("waits for an SMTP server that is down at the login, and delivers once when it is back", async () => {
    const before = alertRows().length;
    await sink.stop();
    try {
      await logIn(firefox);
      await waitFor(
        () => site.logEvents("owner-alert").some((entry) => entry.outcome === "retry" && entry.channel === "email"),
        "a failed attempt on e-mail",
        10_000,
      );
      await waitFor(() => receiver.posts.length >= 1, "the webhook's alert", 10_000);
    } finally {
      await sink.start();
    }
    await waitFor(() => sink.messages.length >= 1, "the e-mail once the server is back", 30_000);
    await waitFor(
      () =>
        alertRows()
          .slice(before)
          .every((row) => row.state === "sent"),
      "the alerts settled",
      10_000,
    );
    const rows = alertRows().slice(before);
    expect(rows).toHaveLength(2);
    const emailRow = rows.find((row) => row.channel === "email")!;
    expect(Number(emailRow.attempts)).toBeGreaterThanOrEqual(2);
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]!.headers.get("x-login-alert")).toEqual([String(emailRow.id)]);
    expect(receiver.posts).toHaveLength(1);
  });
});

describe.skipIf(!postgresAvailable)("two instances on one PostgreSQL database", () => {
  it("send each alert once, whichever instance took the login, after the SMTP server comes back", async () => {
    const postgres = await sharedPostgres();
    const instances: SiteServer[] = [];
    try {
      const databaseUrl = await postgres.createDatabase();
      const added = await runInbox(["operator", "add", email], {
        env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
        input: `${password}\n`,
      });
      expect(added.status, added.stderr).toBe(0);
      const env = {
        API_HOST: "",
        DATABASE_URL: databaseUrl,
        PUBLIC_URL: publicUrl,
        INBOX_REQUIRE_2FA: "on",
        SMTP_URL: sink.url,
        NOTIFY_EMAIL_TO: "owner@grimforge.example",
        NOTIFY_EMAIL_FROM: "site@grimforge.example",
        NOTIFY_WEBHOOK_URL: receiver.url,
      };
      instances.push(...(await Promise.all([startSite(env), startSite(env)])));
      await sink.stop();
      // Four logins from four new browsers, split between the instances, while the mail server is down.
      for (const [index, agent] of [android, firefox, android, firefox].entries()) {
        const answer = await sendAs(publicUrl, instances[index % 2]!.url, "/inbox/login", {
          method: "POST",
          body: { email, password, next: "/inbox" },
          headers: { "User-Agent": agent },
        });
        expect(answer.status).toBe(302);
      }
      await waitFor(() => receiver.posts.length >= 4, "the four webhook alerts", 15_000);
      await sink.start();
      await waitFor(() => sink.messages.length >= 4, "the four e-mails once the server is back", 40_000);
      // Both instances retry what failed: every send settled (one "sent" line per alert and channel) before counting.
      const sends = () =>
        instances.flatMap((instance) => instance.logEvents("owner-alert")).filter((entry) => entry.outcome === "sent");
      await waitFor(() => sends().length >= 8, "eight sends logged", 15_000);
      const ids = sink.messages.map((mail) => mail.headers.get("x-login-alert")?.[0]);
      expect(new Set(ids).size).toBe(4);
      expect(sink.messages).toHaveLength(4);
      expect(receiver.posts).toHaveLength(4);
      expect(sends()).toHaveLength(8);
    } finally {
      await Promise.all(instances.map((instance) => instance.stop()));
      await postgres.stop();
    }
  }, 60_000);
});
