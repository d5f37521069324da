import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSiteContent } from "~/site-content/schema.server";
import { openPostgres } from "~/store/postgres.server";
import { openInboxStore } from "~/store/store.server";
import { waitlistOwnerCopy } from "~/wording/waitlist-owner";
import { runInbox } from "../support/inbox-command";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { sendAs } from "../support/site-http";
import { publishSite } from "../support/site-page";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { confirmedAddresses, putWaitlistRows } from "../support/waitlist-rows";

/**
 * The test (issue 35): 300 confirmed addresses, a publish that opens orders, Announce on the Waitlist page, two
 * built servers on one throwaway PostgreSQL sending it through the list's durable outbox, one killed (SIGKILL) halfway:
 * each address is mailed exactly once (read with a real SMTP server and mailparser), with its unsubscribe headers.
 * MAIL_PER_MINUTE is set high so the 300 go in seconds.
 *
 * SKIPPED UNTIL MERGED with the `waitlist` branch: the list's sender (WaitlistStore.claimListMail and the loop that
 * sends the announcement rows, paced by MAIL_PER_MINUTE across instances) is built there, not on the `owner` branch
 * this file was written on. Remove `.skip` once both are merged.
 */

const publicUrl = "http://announce.example";
const operator = "owner@grimforge.example";
const password = "a coffin full of moonlit bats";
const subject = "Orders for the 2027 haunt season are open";
const addresses = confirmedAddresses(300, "fans.example").map((row) => row.email);

describe.skip("the announcement sent by two instances on one PostgreSQL, one killed halfway", () => {
  let postgres: TestDatabases;
  let sink: SmtpSink;
  let sites: SiteServer[] = [];
  let databaseUrl: string;

  beforeAll(async () => {
    await ensureBuilt();
    [postgres, sink] = await Promise.all([sharedPostgres(), startSmtpSink()]);
    databaseUrl = await postgres.createDatabase();
    const added = await runInbox(["operator", "add", operator], {
      env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
      input: `${password}\n`,
    });
    expect(added.status, added.stderr).toBe(0);
    // Migrated by the store, then the list put in place as 300 visitors' joins and Confirms would leave it.
    await (await openInboxStore({ kind: "postgres", url: databaseUrl }, { timeoutMs: 10_000 })).close();
    const db = openPostgres(databaseUrl, { timeoutMs: 10_000 });
    try {
      await putWaitlistRows(db, confirmedAddresses(300, "fans.example"));
    } finally {
      await db.close();
    }
    await publishSite(databaseUrl, {
      ...defaultSiteContent,
      season: { ...defaultSiteContent.season, year: 2026, ordersOpen: false },
    });
    const env = {
      API_HOST: "",
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: publicUrl,
      INBOX_REQUIRE_2FA: "off",
      SMTP_URL: sink.url,
      NOTIFY_EMAIL_TO: "shop@grimforge.example",
      NOTIFY_EMAIL_FROM: "site@grimforge.example",
      MAIL_PER_MINUTE: "6000",
    };
    sites = await Promise.all([startSite(env), startSite(env)]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()));
    await sink?.stop();
    await postgres?.stop();
  });

  it.skipIf(!postgresAvailable)(
    "mails each of 300 addresses exactly once, with its unsubscribe headers",
    async () => {
      const [doomed, survivor] = sites as [SiteServer, SiteServer];
      const login = await sendAs(publicUrl, survivor.url, "/inbox/login", {
        method: "POST",
        body: { email: operator, password, next: "/inbox" },
      });
      expect(login.status).toBe(302);
      const cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
      const page = (site: SiteServer, path = "/inbox/waitlist") => sendAs(publicUrl, site.url, path, { cookie });

      // Closed: nothing to announce. A publish opens orders for 2027: both instances offer it within seconds.
      expect((await page(survivor)).text).not.toContain("Announce to");
      await publishSite(databaseUrl, {
        ...defaultSiteContent,
        season: { ...defaultSiteContent.season, year: 2027, ordersOpen: true, closesOn: "2027-09-30" },
      });
      for (const site of sites)
        await waitFor(async () => (await page(site)).text.includes("Announce to 300 people"), "the offer", 10_000);

      const sent = await sendAs(publicUrl, doomed.url, "/inbox/waitlist?announce=1", {
        method: "POST",
        cookie,
        body: { intent: "send", subject, message: "Orders are open: write to us." },
      });
      expect(sent.status).toBe(303);
      const announced = () => sink.messages.filter((mail) => mail.headers.get("subject")?.[0] === subject);

      // Halfway, one instance dies mid-send: the other finishes, its claims' leases lapsing.
      await waitFor(() => announced().length >= 150, "half of the announcement sent", 60_000);
      await doomed.kill("SIGKILL");
      await waitFor(
        async () => (await page(survivor)).text.includes("300 of 300 sent"),
        "every announcement sent",
        120_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 2_000)); // nothing more arrives late

      const mails = await Promise.all(announced().map((mail) => simpleParser(mail.raw)));
      const to = mails.map((mail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)!.value[0]!.address!);
      expect(to.length).toBe(300);
      expect(new Set(to).size).toBe(300);
      expect([...to].sort()).toEqual([...addresses].sort());
      for (const mail of mails) {
        expect(mail.subject).toBe(subject);
        expect(mail.text).toContain("Orders are open: write to us.");
        expect(mail.text).toContain(waitlistOwnerCopy.mail.why);
        // The raw lines: mailparser turns List-Unsubscribe into an object of its own.
        const line = (key: string) => mail.headerLines.find((header) => header.key === key)?.line ?? "";
        expect(line("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
        expect(line("list-unsubscribe")).toContain(`<${publicUrl}/`);
      }
      expect(new Set(mails.map((mail) => mail.messageId)).size).toBe(300);
    },
    240_000,
  );
});
