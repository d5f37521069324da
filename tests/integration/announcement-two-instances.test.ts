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
 * every address is mailed, each mail once but the one the killed instance may have had accepted and not recorded
 * (sent again by the other with the same Message-ID: SMTP cannot tell; docs/waitlist.md), paced for both together,
 * with its unsubscribe headers (read with a real SMTP server and mailparser). MAIL_PER_MINUTE is set high so the 300
 * go in seconds; the killed instance's claim is taken over when its 20 s lease runs out.
 */

const publicUrl = "http://announce.example";
const operator = "owner@grimforge.example";
const password = "a coffin full of moonlit bats";
const subject = "Orders for the 2027 haunt season are open";
const addresses = confirmedAddresses(300, "fans.example").map((row) => row.email);

describe.skipIf(!postgresAvailable)(
  "the announcement sent by two instances on one PostgreSQL, one killed halfway",
  () => {
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
    }, 60_000);
    afterAll(async () => {
      await Promise.all(sites.map((site) => site.stop()));
      await sink?.stop();
      await postgres?.stop();
    });

    it("mails each of 300 addresses, once but for the killed instance's one in flight, paced, with its unsubscribe headers", async () => {
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
        40_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 2_000)); // nothing more arrives late

      const mails = await Promise.all(announced().map((mail) => simpleParser(mail.raw)));
      const to = mails.map((mail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)!.value[0]!.address!);
      expect([...new Set(to)].sort()).toEqual([...addresses].sort());
      // At most the one mail in flight when the instance died arrives twice, with the same Message-ID.
      expect(mails.length).toBeLessThanOrEqual(301);
      expect(new Set(mails.map((mail) => mail.messageId)).size).toBe(300);
      for (const mail of mails) {
        expect(mail.subject).toBe(subject);
        expect(mail.text).toContain("Orders are open: write to us.");
        expect(mail.text).toContain(waitlistOwnerCopy.mail.why);
        // The raw lines: mailparser turns List-Unsubscribe into an object of its own.
        const line = (key: string) => mail.headerLines.find((header) => header.key === key)?.line ?? "";
        expect(line("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
        expect(line("list-unsubscribe")).toContain(`<${publicUrl}/`);
      }
      // Paced for both instances together: 6000 a minute is one every 10 ms (each instance's own clock).
      const db = openPostgres(databaseUrl, { timeoutMs: 10_000 });
      try {
        const [span] = await db.query("SELECT MAX(sent_at) - MIN(sent_at) AS ms FROM list_mail WHERE state = 'sent'");
        expect(Number(span!.ms)).toBeGreaterThanOrEqual(298 * 10);
      } finally {
        await db.close();
      }
    }, 60_000);
  },
);
