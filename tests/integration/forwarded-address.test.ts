import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInbox } from "../support/inbox-command";
import { sendAs } from "../support/site-http";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * Issue 31, attack 8: with TRUST_PROXY on, X-Forwarded-For was believed whatever it held, so a client's text became
 * the "approximate address" of the new-login e-mail and chat message, the activity log's "from …" and the login
 * throttle's key. Only an IP address is believed now; anything else is the connection's address, logged once. Through
 * the built server, a real SMTP server and a real webhook receiver (Discord's Markdown format).
 */

const publicUrl = "https://haunt.example";
const temp = useTempDir("haunt-forwarded-");
const email = "ann@grimforge.example";
const password = "a coffin full of moonlit bats";
const hostile = "<!channel> [click me](http://evil.example)";

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
    TRUST_PROXY: "1",
    INBOX_REQUIRE_2FA: "on",
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example",
    NOTIFY_EMAIL_FROM: "site@grimforge.example",
    NOTIFY_WEBHOOK_URL: receiver.url,
    NOTIFY_WEBHOOK_FORMAT: "discord",
  });
}, 60_000);
afterAll(async () => {
  await site?.stop();
  await Promise.all([sink?.stop(), receiver?.stop()]);
});

const logIn = (forwardedFor: string, pass = password) =>
  sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email, password: pass, next: "/inbox" },
    headers: { "X-Forwarded-For": forwardedFor },
  });

function rows(sql: string) {
  const db = new DatabaseSync(databasePath, { readOnly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

describe("X-Forwarded-For behind a trusted proxy", () => {
  it("is believed only when it is an IP address: text falls back to the connection's address, logged once", async () => {
    // A wrong password, then the right one, both with the hostile header.
    expect((await logIn(hostile, "not the password at all")).status).toBe(401);
    expect((await logIn(hostile)).status).toBe(302);

    await waitFor(() => sink.messages.length >= 1 && receiver.posts.length >= 1, "the login alert", 10_000);
    const text = sink.messages[0]!.text.replace(/\r\n/g, "\n");
    expect(text).toContain("Approximate address: 127.0.0.1");
    const post = receiver.posts[0]!;
    expect((post.json as { content: string }).content).toContain("127.0.0.1");
    for (const sent of [sink.messages[0]!.raw, post.body]) {
      expect(sent).not.toContain("evil.example");
      expect(sent).not.toContain("<!channel>");
    }

    // The activity log, the sessions and the throttle's counts name the connection's address, never the header's text.
    const activity = rows("SELECT action, detail FROM activity WHERE detail LIKE 'from %' ORDER BY at");
    expect(activity.map((row) => `${String(row.action)} ${String(row.detail)}`)).toEqual([
      "login failed from 127.0.0.1",
      "logged in from 127.0.0.1",
    ]);
    expect(rows("SELECT client FROM sessions")).toEqual([{ client: "127.0.0.1" }]);
    expect(rows("SELECT client FROM login_attempts").every((row) => row.client === "127.0.0.1")).toBe(true);
    const stored = JSON.stringify(rows("SELECT * FROM activity")) + JSON.stringify(rows("SELECT * FROM owner_alerts"));
    expect(stored).not.toContain("evil.example");

    // Said once in the log for the process (not per request), and never the header's text.
    expect(site.output().match(/\[proxy\] X-Forwarded-For held something that is not an IP address/g)).toHaveLength(1);
    expect(site.output()).not.toContain("evil.example");
  });

  it("an IP address from the trusted proxy is still believed (IPv4 and IPv6)", async () => {
    sink.messages.splice(0);
    receiver.posts.splice(0);
    expect((await logIn("203.0.113.7")).status).toBe(302);
    expect((await logIn("2001:db8:5::9")).status).toBe(302);
    await waitFor(() => sink.messages.length >= 2, "two login alerts", 10_000);
    const texts = sink.messages.map((mail) => mail.text);
    expect(texts.some((mail) => mail.includes("Approximate address: 203.0.113.7"))).toBe(true);
    expect(texts.some((mail) => mail.includes("Approximate address: 2001:db8:5:0::/64"))).toBe(true);
  });
});
