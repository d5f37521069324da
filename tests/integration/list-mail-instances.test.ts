import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "~/store/postgres.server";
import { openInboxStore } from "~/store/store.server";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";

/**
 * The season's announcement to 300 confirmed addresses, sent by two built instances on one PostgreSQL database, one of
 * them killed (SIGKILL) halfway: every address gets it, paced for both together, and at most the one mail the killed
 * instance had in flight can arrive twice (docs/waitlist.md, "When an instance dies mid-send"), with the same
 * Message-ID. The owner's side stores the announcement; here its rows are written as it writes them.
 */

let postgres: TestDatabases;
let sink: SmtpSink;
const sites: SiteServer[] = [];

beforeAll(async () => {
  if (!postgresAvailable) return;
  await ensureBuilt();
  [postgres, sink] = await Promise.all([sharedPostgres(), startSmtpSink()]);
}, 60_000);
afterAll(async () => {
  await Promise.all(sites.map((site) => site.stop()));
  await sink?.stop();
  await postgres?.stop();
});

const count = 300;

describe.skipIf(!postgresAvailable)("the announcement from two instances on one PostgreSQL, one killed halfway", () => {
  it("reaches every address, at most the killed instance's one mail in flight twice", async () => {
    const databaseUrl = await postgres.createDatabase();
    // The schema, then the list and the announcement as the owner's side stores them.
    await (await openInboxStore({ kind: "postgres", url: databaseUrl }, { timeoutMs: 10_000 })).close();
    const db = openPostgres(databaseUrl, { timeoutMs: 10_000 });
    const announcement = randomUUID();
    const now = Date.now();
    try {
      const addresses = Array.from({ length: count }, (_, index) => `guest-${index}@example.com`);
      await db.transaction([
        {
          sql: `INSERT INTO announcements (id, season, subject, body, created_at, created_by, total)
                VALUES (?, '2027', 'Orders for the 2027 haunt season are open', 'Come and tell us.', ?, 'owner', ?)`,
          params: [announcement, now, count],
        },
        ...addresses.flatMap((email) => {
          const id = randomUUID();
          const mail = randomUUID();
          const token = randomUUID().replace(/-/g, "");
          return [
            {
              sql: `INSERT INTO waitlist (id, email, state, created_at, confirmed_at, unsubscribe_token_hash,
                      unsubscribe_token_sealed) VALUES (?, ?, 'confirmed', ?, ?, ?, ?)`,
              params: [id, email, now, now, `hash-${token}`, token],
            },
            {
              sql: `INSERT INTO list_mail (id, waitlist_id, kind, announcement_id, message_id, created_at, state,
                      attempts, next_attempt_at) VALUES (?, ?, 'announcement', ?, ?, ?, 'pending', 0, ?)`,
              params: [mail, id, announcement, `list-announcement-${mail}`, now, now],
            },
          ];
        }),
      ]);

      const env = {
        API_HOST: "",
        DATABASE_URL: databaseUrl,
        PUBLIC_URL: "https://grimforge.example",
        SMTP_URL: sink.url,
        NOTIFY_EMAIL_TO: "owner@grimforge.example",
        NOTIFY_EMAIL_FROM: "site@grimforge.example",
        MAIL_PER_MINUTE: "3000",
      };
      const [doomed, survivor] = await Promise.all([startSite(env), startSite(env)]);
      sites.push(doomed!, survivor!);
      const announced = () => sink.messages.filter((mail) => /Orders for the 2027/.test(mail.raw));
      await waitFor(() => announced().length >= count / 2, "half of the announcements", 60_000);
      await doomed!.kill("SIGKILL");
      const received = () => new Set(announced().flatMap((mail) => mail.envelope.to));
      // The killed instance's claim runs out after 30 s; the survivor sends what it held.
      await waitFor(() => received().size === count, "every address", 60_000);

      const mails = announced();
      expect(received()).toEqual(new Set(addresses));
      expect(mails.length - count).toBeLessThanOrEqual(1);
      const ids = mails.map((mail) => mail.headers.get("message-id")?.[0]);
      expect(ids.every((id) => /^<list-announcement-[0-9a-f-]+@grimforge\.example>$/.test(id ?? ""))).toBe(true);
      expect(new Set(ids).size).toBe(count);
      // Paced for both instances together: 3000 a minute is one every 20 ms; no two sends closer than the pace allows
      // by much (the database's clock readings are each instance's own).
      const rows = await db.query("SELECT state, COUNT(*) AS n FROM list_mail GROUP BY state");
      expect(Object.fromEntries(rows.map((row) => [row.state, Number(row.n)]))).toEqual({ sent: count });
      const [span] = await db.query("SELECT MAX(sent_at) - MIN(sent_at) AS ms FROM list_mail WHERE state = 'sent'");
      expect(Number(span!.ms)).toBeGreaterThanOrEqual((count - 2) * 20);
    } finally {
      await db.close();
    }
  }, 180_000);
});
