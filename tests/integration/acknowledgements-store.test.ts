import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseLocation } from "~/config.server";
import { openPostgres } from "~/store/postgres.server";
import { openSqlite } from "~/store/sqlite.server";
import type { SqlClient } from "~/store/sql.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import type { NewAcknowledgement } from "~/store/outgoing-mail.types";
import type { SpamJudgementRecord } from "~/store/records";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { useTempDir } from "../support/temp-dir";

/**
 * The acknowledgements' limits in the store on SQLite and PostgreSQL, with an injected clock: one per address per 24
 * hours (whatever the address's case), none for spam or possible spam, at most 30 an hour for the site counted once
 * when 40 are queued at once from two connections, and none while e-mail is failing (a mail stored in the last hour
 * waiting for its retry), then again once that has passed. Each stored one has its timeline line.
 */

const temp = useTempDir("haunt-acknowledgements-store-");
let postgres: TestDatabases | undefined;
beforeAll(async () => {
  if (postgresAvailable) postgres = await sharedPostgres();
});
afterAll(() => postgres?.stop());

const backends: { name: string; fresh: () => Promise<DatabaseLocation> }[] = [
  { name: "SQLite", fresh: async () => ({ kind: "sqlite", path: temp.file("enquiries.db") }) },
  { name: "PostgreSQL", fresh: async () => ({ kind: "postgres", url: await postgres!.createDatabase() }) },
];

const now = new Date("2026-11-27T10:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);
const hour = 60 * 60_000;
const words = {
  subject: "Your enquiry to Grimforge",
  body: "We have your message.",
  fromAddress: "site@grimforge.example",
};
const ack = (enquiryId: string): NewAcknowledgement => ({ enquiryId, ...words });
const clean: SpamJudgementRecord = { verdict: "none", score: 0.01, reasons: [] };

describe.each(backends)("acknowledgements in the store on $name", ({ name, fresh }) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((item) => item.close()));
  });
  const needsServer = name === "PostgreSQL" && !postgresAvailable;

  async function openStore(location: DatabaseLocation): Promise<InboxStore> {
    const store = await openInboxStore(location, { timeoutMs: 10_000 });
    open.push(store);
    return store;
  }
  function openDb(location: DatabaseLocation): SqlClient {
    const db =
      location.kind === "sqlite"
        ? openSqlite(location.path, { timeoutMs: 10_000 })
        : openPostgres(location.url, { timeoutMs: 10_000 });
    open.push(db);
    return db;
  }
  const enquiryFrom = (store: InboxStore, email: string, at = now, judgement = clean) =>
    store
      .save({ name: "Click http://evil.example", email, message: `A skull for ${email}` }, ["email"], at, judgement)
      .then((saved) => saved.id);
  const acknowledgements = async (db: SqlClient) =>
    Number((await db.query("SELECT COUNT(*) AS n FROM outgoing_mail WHERE kind = 'acknowledgement'"))[0]!.n);

  it.skipIf(needsServer)(
    "acknowledges a clean enquiry once per address per 24 hours, never spam or possible spam, on its timeline",
    async () => {
      const location = await fresh();
      const store = await openStore(location);

      const first = await enquiryFrom(store, "Ann@Example.com");
      const queued = await store.queueAcknowledgement(ack(first), now);
      expect(queued.queued).toBe(true);
      if (!queued.queued) throw new Error(queued.reason);
      expect(queued.mail).toMatchObject({
        kind: "acknowledgement",
        to: "ann@example.com",
        subject: words.subject,
        body: words.body,
        state: "pending",
        attempts: 0,
        inReplyTo: null,
        references: [],
      });
      expect(queued.mail.messageId).toMatch(/^<acknowledgement-[0-9a-f-]{36}@grimforge\.example>$/);
      const lines = await store.timeline(first);
      expect(lines).toEqual([
        expect.objectContaining({
          kind: "acknowledgement",
          actor: "site",
          body: null,
          detail: { mailId: queued.mail.id },
        }),
      ]);
      // It is no answer from the owner: the enquiry still waits for one.
      const enquiry = await store.getEnquiry(first);
      expect(enquiry!.commission).toMatchObject({ stage: "new", answeredAt: null });

      // The same address in another case, an hour later, and again just before the day is over: none.
      const second = await enquiryFrom(store, " ann@example.COM", later(hour));
      expect(await store.queueAcknowledgement(ack(second), later(hour))).toEqual({
        queued: false,
        reason: "address-limit",
      });
      expect(await store.queueAcknowledgement(ack(second), later(24 * hour - 1))).toEqual({
        queued: false,
        reason: "address-limit",
      });
      expect((await store.timeline(second)).length).toBe(0);
      // A day later: one again.
      const third = await enquiryFrom(store, "ann@example.com", later(24 * hour + 1));
      expect((await store.queueAcknowledgement(ack(third), later(24 * hour + 1))).queued).toBe(true);

      const spam = await enquiryFrom(store, "spam@example.com", now, {
        verdict: "spam",
        score: 0.99,
        reasons: ["link"],
      });
      const possible = await enquiryFrom(store, "maybe@example.com", now, {
        verdict: "possible",
        score: 0.7,
        reasons: ["link"],
      });
      for (const id of [spam, possible, "no-such-enquiry"])
        expect(await store.queueAcknowledgement(ack(id), now)).toEqual({ queued: false, reason: "not-clean" });
      expect(await store.outgoingMailOf(spam)).toEqual([]);
      expect(await store.outgoingMailOf(possible)).toEqual([]);
    },
  );

  it.skipIf(needsServer)(
    "stores exactly 30 of 40 queued at once from two connections, and more after the hour",
    async () => {
      const location = await fresh();
      const [one, two] = [await openStore(location), await openStore(location)];
      const ids = await Promise.all(
        Array.from({ length: 40 }, (_, index) => enquiryFrom(one, `visitor${index}@example.com`, later(-1000))),
      );
      const outcomes = await Promise.all(
        ids.map((id, index) => (index % 2 === 0 ? one : two).queueAcknowledgement(ack(id), now)),
      );
      expect(outcomes.filter((outcome) => outcome.queued)).toHaveLength(30);
      expect(outcomes.filter((outcome) => !outcome.queued)).toEqual(
        Array.from({ length: 10 }, () => ({ queued: false, reason: "site-limit" })),
      );
      const db = openDb(location);
      expect(await acknowledgements(db)).toBe(30);

      // The hour counts back from each: an hour later the ten left out are taken.
      const left = ids.filter((_, index) => !outcomes[index]!.queued);
      const after = await Promise.all(left.map((id) => two.queueAcknowledgement(ack(id), later(hour + 1))));
      expect(after.every((outcome) => outcome.queued)).toBe(true);
      expect(await acknowledgements(db)).toBe(40);
    },
    60_000,
  );

  it.skipIf(needsServer)(
    "stores none while e-mail is failing: a mail to a customer or an e-mail notification waiting for its retry",
    async () => {
      const location = await fresh();
      const store = await openStore(location);
      const db = openDb(location);

      const first = await enquiryFrom(store, "first@example.com");
      const queued = await store.queueAcknowledgement(ack(first), now);
      if (!queued.queued) throw new Error(queued.reason);
      // Its first attempt failed with a temporary error: waiting for a retry.
      const [claim] = await store.claimOutgoingMail(10, later(1000));
      expect(claim!.id).toBe(queued.mail.id);
      await store.markOutgoingMailRetry(claim!, "421 try again later", later(60_000));

      const second = await enquiryFrom(store, "second@example.com", later(2000));
      expect(await store.queueAcknowledgement(ack(second), later(2000))).toEqual({ queued: false, reason: "failing" });
      // A mail that failed for good (a refused address) is not the channel failing.
      await db.query("UPDATE outgoing_mail SET state = 'failed' WHERE id = ?", [queued.mail.id]);
      expect((await store.queueAcknowledgement(ack(second), later(3000))).queued).toBe(true);

      // An enquiry's e-mail notification waiting for its retry is the same channel failing.
      const third = await enquiryFrom(store, "third@example.com", later(4000));
      await db.query(
        "UPDATE notifications SET attempts = 2, last_error = 'connect ECONNREFUSED' WHERE enquiry_id = ? AND channel = 'email'",
        [third],
      );
      expect(await store.queueAcknowledgement(ack(third), later(5000))).toEqual({ queued: false, reason: "failing" });
      // Once it was stored over an hour ago, the next enquiry is acknowledged again (and that tries the channel).
      const fourth = await enquiryFrom(store, "fourth@example.com", later(hour + 5000));
      expect((await store.queueAcknowledgement(ack(fourth), later(hour + 5000))).queued).toBe(true);
    },
  );
});
