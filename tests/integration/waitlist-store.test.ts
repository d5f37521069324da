import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseLocation } from "~/config.server";
import { openPostgres } from "~/store/postgres.server";
import { isSealed } from "~/store/sealed-secrets.server";
import { openSqlite } from "~/store/sqlite.server";
import type { SqlClient } from "~/store/sql.server";
import { forgetLostSecrets, openInboxStore, rotateSealedSecrets } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { waitlistAskAgainMs } from "~/store/waitlist.server";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { useTempDir } from "../support/temp-dir";

/**
 * The waitlist's visitor side and its outbox in the store, on SQLite and PostgreSQL, with an injected clock: a join
 * stores a pending address and one confirmation mail; a confirmed or unsubscribed address changes nothing; the link
 * confirms only while valid; unsubscribing drops what is unsent; the unconfirmed are purged after 7 days; the links'
 * tokens are sealed and follow the key's rotation. Then the announcements' pace over two connections to one database.
 */

const temp = useTempDir("haunt-waitlist-store-");
let postgres: TestDatabases | undefined;
beforeAll(async () => {
  if (postgresAvailable) postgres = await sharedPostgres();
});
afterAll(() => postgres?.stop());

const backends: { name: string; fresh: () => Promise<DatabaseLocation> }[] = [
  { name: "SQLite", fresh: async () => ({ kind: "sqlite", path: temp.file(`waitlist-${randomUUID()}.db`) }) },
  { name: "PostgreSQL", fresh: async () => ({ kind: "postgres", url: await postgres!.createDatabase() }) },
];

const now = new Date("2026-11-27T10:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);
const day = 24 * 60 * 60_000;

describe.each(backends)("the waitlist in the store on $name", ({ name, fresh }) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((item) => item.close()));
  });
  const needsServer = name === "PostgreSQL" && !postgresAvailable;

  async function openBoth(secretsKey?: Uint8Array) {
    const location = await fresh();
    const store = await openInboxStore(location, { timeoutMs: 5_000, secretsKey });
    open.push(store);
    const db: SqlClient =
      location.kind === "sqlite"
        ? openSqlite(location.path, { timeoutMs: 5_000 })
        : openPostgres(location.url, { timeoutMs: 5_000 });
    open.push(db);
    return { store, db, location };
  }

  /** The confirmation link's token of the one mail claimed now. */
  async function confirmToken(store: InboxStore, at = now) {
    const [claim] = await store.claimListMail(10, 1_000, at);
    expect(claim?.kind).toBe("confirm");
    await store.markListMailSent(claim!, at);
    return claim!;
  }

  it.skipIf(needsServer)("a join stores one confirmation; asking again while confirmed sends nothing", async () => {
    const { store, db } = await openBoth();
    expect(await store.joinWaitlist(" Ann@Example.com ", now)).toBe("queued");
    const [entry] = await db.query("SELECT * FROM waitlist");
    expect(entry).toMatchObject({ email: "ann@example.com", state: "pending" });
    expect(String(entry!.confirm_token_hash)).toMatch(/^[0-9a-f]{64}$/);
    // Asked again at once: the first mail is on its way, nothing more.
    expect(await store.joinWaitlist("ann@example.com", later(1_000))).toBe("unchanged");
    expect(await db.query("SELECT kind FROM list_mail")).toHaveLength(1);

    const claim = await confirmToken(store);
    expect(claim).toMatchObject({ to: "ann@example.com", kind: "confirm", announcement: null, attempts: 1 });
    expect(claim.confirmToken).toMatch(/^[0-9a-f]{64}$/);
    expect(claim.unsubscribeToken).toMatch(/^[0-9a-f]{64}$/);
    expect(claim.confirmUntil?.getTime()).toBe(now.getTime() + 7 * day);
    expect(claim.messageId).toMatch(/^list-confirm-/);
    // Sent: nothing more to claim.
    expect(await store.claimListMail(10, 1_000, later(2_000))).toEqual([]);

    // Looking confirms nothing.
    expect(await store.waitlistByConfirmToken(claim.confirmToken!, later(5_000))).toMatchObject({ state: "pending" });
    expect(await store.waitlistByConfirmToken("0".repeat(64), later(5_000))).toBeNull();
    expect((await db.query("SELECT state FROM waitlist"))[0]!.state).toBe("pending");
    expect(await store.confirmWaitlist(claim.confirmToken!, later(6_000))).toBe("confirmed");
    // Used up: the link finds nothing now.
    expect(await store.confirmWaitlist(claim.confirmToken!, later(7_000))).toBe("unknown");
    expect(await store.waitlistByConfirmToken(claim.confirmToken!, later(7_000))).toBeNull();

    // A confirmed address: nothing changes, nothing is sent.
    expect(await store.joinWaitlist("ANN@example.com", later(day))).toBe("unchanged");
    expect(await db.query("SELECT id FROM list_mail WHERE state = 'pending'")).toEqual([]);
    const [confirmed] = await db.query("SELECT state, confirmed_at, confirm_token_sealed FROM waitlist");
    expect(confirmed).toMatchObject({ state: "confirmed", confirm_token_sealed: null });
  });

  it.skipIf(needsServer)("a pending address asking again later gets a new link; the old one ends", async () => {
    const { store, db } = await openBoth();
    await store.joinWaitlist("bo@example.com", now);
    const first = await confirmToken(store);
    const again = later(waitlistAskAgainMs + 1);
    expect(await store.joinWaitlist("bo@example.com", again)).toBe("queued");
    const second = await confirmToken(store, again);
    expect(second.confirmToken).not.toBe(first.confirmToken);
    expect(await store.confirmWaitlist(first.confirmToken!, later(waitlistAskAgainMs + 2))).toBe("unknown");
    expect(await store.confirmWaitlist(second.confirmToken!, later(waitlistAskAgainMs + 2))).toBe("confirmed");
    expect(await db.query("SELECT id FROM waitlist")).toHaveLength(1);
  });

  it.skipIf(needsServer)("the link ends after 7 days and the unconfirmed are purged", async () => {
    const { store, db } = await openBoth();
    await store.joinWaitlist("cy@example.com", now);
    await store.joinWaitlist("di@example.com", now);
    const claims = await store.claimListMail(10, 1_000, now);
    expect(claims).toHaveLength(2);
    for (const claim of claims) await store.markListMailSent(claim, now);
    const cy = claims.find((claim) => claim.to === "cy@example.com")!;
    const di = claims.find((claim) => claim.to === "di@example.com")!;
    expect(await store.confirmWaitlist(di.confirmToken!, later(day))).toBe("confirmed");
    expect(await store.waitlistByConfirmToken(cy.confirmToken!, later(7 * day))).toBeNull();
    expect(await store.confirmWaitlist(cy.confirmToken!, later(7 * day))).toBe("expired");
    expect(await store.purgeUnconfirmedWaitlist(later(7 * day - 1))).toBe(0);
    expect(await store.purgeUnconfirmedWaitlist(later(7 * day))).toBe(1);
    expect((await db.query("SELECT email FROM waitlist")).map((row) => row.email)).toEqual(["di@example.com"]);
    expect(await db.query("SELECT id FROM list_mail WHERE waitlist_id NOT IN (SELECT id FROM waitlist)")).toEqual([]);
  });

  it.skipIf(needsServer)("unsubscribing drops unsent mail; an unsubscribed address is never mailed", async () => {
    const { store, db } = await openBoth();
    await store.joinWaitlist("ed@example.com", now);
    const claim = await confirmToken(store);
    await store.confirmWaitlist(claim.confirmToken!, now);
    const announcement = await announce(db, "2027", now);
    expect(await store.waitlistByUnsubscribeToken(claim.unsubscribeToken)).toMatchObject({ state: "confirmed" });
    expect(await store.waitlistByUnsubscribeToken("f".repeat(64))).toBeNull();
    expect(await store.unsubscribeWaitlist(claim.unsubscribeToken, later(1_000))).toBe(true);
    expect(await store.unsubscribeWaitlist(claim.unsubscribeToken, later(2_000))).toBe(true);
    expect(await store.unsubscribeWaitlist("f".repeat(64), later(2_000))).toBe(false);
    const [entry] = await db.query("SELECT state, unsubscribed_at FROM waitlist");
    expect(entry).toMatchObject({ state: "unsubscribed" });
    expect(Number(entry!.unsubscribed_at)).toBe(later(1_000).getTime());
    expect(await store.claimListMail(10, 1_000, later(60_000))).toEqual([]);
    expect(await db.query("SELECT state FROM list_mail WHERE announcement_id = ?", [announcement])).toEqual([
      { state: "dropped" },
    ]);
    // Unsubscribed: asking again changes nothing.
    expect(await store.joinWaitlist("ed@example.com", later(day))).toBe("unchanged");
    expect(await store.nextListMailAt()).toBeNull();
  });

  it.skipIf(needsServer)(
    "an announcement is claimed with its words, paced, retried and failed by its holder",
    async () => {
      const { store, db } = await openBoth();
      const tokens: string[] = [];
      for (const email of ["f1@example.com", "f2@example.com", "f3@example.com"]) {
        await store.joinWaitlist(email, now);
      }
      for (const claim of await store.claimListMail(10, 1_000, now)) {
        await store.markListMailSent(claim, now);
        await store.confirmWaitlist(claim.confirmToken!, now);
        tokens.push(claim.unsubscribeToken);
      }
      await announce(db, "2027", later(1_000));
      // Wider than half a lease (listMailLeaseMs), narrower than the lease: one turn per claim, held while the next is.
      const interval = 15_000;
      const [first, ...more] = await store.claimListMail(10, interval, later(1_000));
      expect(more).toEqual([]);
      expect(first).toMatchObject({
        kind: "announcement",
        confirmToken: null,
        announcement: { season: "2027", subject: "Orders are open", body: "Come and see." },
      });
      expect(tokens).toContain(first!.unsubscribeToken);
      // Within the interval: nothing, and the next one is due when the pace allows.
      expect(await store.claimListMail(10, interval, later(2_000))).toEqual([]);
      expect((await store.nextListMailAt())?.getTime()).toBe(later(16_000).getTime());
      const [second] = await store.claimListMail(10, interval, later(16_000));
      expect(second?.id).not.toBe(first!.id);
      // Only the holder settles; a retry comes back later, a failure never.
      expect(await store.markListMailSent({ ...first!, claimToken: randomUUID() }, later(16_000))).toBe(false);
      expect(await store.markListMailRetry(first!, "421 busy", later(100_000))).toBe(true);
      expect(await store.markListMailFailed(second!, "550 no such user")).toBe(true);
      const [third] = await store.claimListMail(10, interval, later(31_000));
      expect(third?.id).not.toBe(first!.id);
      await store.markListMailSent(third!, later(31_000));
      expect(await store.claimListMail(10, interval, later(47_000))).toEqual([]);
      const [retried] = await store.claimListMail(10, interval, later(100_000));
      expect(retried).toMatchObject({ id: first!.id, attempts: 2 });
      await store.markListMailSent(retried!, later(100_000));
      const states = await db.query(
        "SELECT state, COUNT(*) AS n FROM list_mail WHERE kind = 'announcement' GROUP BY state",
      );
      expect(Object.fromEntries(states.map((row) => [row.state, Number(row.n)]))).toEqual({ sent: 2, failed: 1 });
    },
  );

  it.skipIf(needsServer)(
    "the links' tokens are sealed with SECRETS_KEY, resealed by a rotation, replaced by a forget",
    async () => {
      const key = randomBytes(32);
      const { store, db, location } = await openBoth(key);
      await store.joinWaitlist("gi@example.com", now);
      const [row] = await db.query("SELECT confirm_token_sealed, unsubscribe_token_sealed FROM waitlist");
      expect(isSealed(String(row!.confirm_token_sealed))).toBe(true);
      expect(isSealed(String(row!.unsubscribe_token_sealed))).toBe(true);
      const before = await store.claimListMail(10, 1_000, now);
      expect(before[0]!.confirmToken).toMatch(/^[0-9a-f]{64}$/);
      await store.markListMailRetry(before[0]!, "later", now);

      const newKey = randomBytes(32);
      const rotated = await rotateSealedSecrets(location, { timeoutMs: 5_000, secretsKey: key, newKey });
      expect(rotated.resealed).toBe(2);
      const reopened = await openInboxStore(location, { timeoutMs: 5_000, secretsKey: newKey });
      open.push(reopened);
      const [after] = await reopened.claimListMail(10, 1_000, later(1_000));
      expect(after).toMatchObject({
        confirmToken: before[0]!.confirmToken,
        unsubscribeToken: before[0]!.unsubscribeToken,
      });
      await reopened.markListMailRetry(after!, "later", later(1_000));

      // The key lost for good: the confirmation link ends (with its mail), the unsubscribe link is a new one.
      expect(await forgetLostSecrets(location, { timeoutMs: 5_000, secretsKey: undefined })).toEqual({
        codes: 0,
        buildPages: 0,
        confirmLinks: 1,
        unsubscribeLinks: 1,
      });
      const [forgotten] = await db.query(
        "SELECT state, confirm_token_hash, confirm_token_sealed, unsubscribe_token_hash, unsubscribe_token_sealed FROM waitlist",
      );
      expect(forgotten).toMatchObject({ state: "pending", confirm_token_hash: null, confirm_token_sealed: null });
      expect(isSealed(String(forgotten!.unsubscribe_token_sealed))).toBe(false);
      expect(await db.query("SELECT id FROM list_mail WHERE state = 'pending'")).toEqual([]);
      const plain = await openInboxStore(location, { timeoutMs: 5_000 });
      open.push(plain);
      expect(await plain.waitlistByUnsubscribeToken(String(forgotten!.unsubscribe_token_sealed))).toMatchObject({
        email: "gi@example.com",
      });
    },
  );
});

/** The season's announcement to every confirmed address, as the owner's side stores it (one list mail each). */
async function announce(db: SqlClient, season: string, at: Date): Promise<string> {
  const id = randomUUID();
  const confirmed = await db.query("SELECT id FROM waitlist WHERE state = 'confirmed' ORDER BY id");
  await db.transaction([
    {
      sql: `INSERT INTO announcements (id, season, subject, body, created_at, created_by, total) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      params: [id, season, "Orders are open", "Come and see.", at.getTime(), "owner@example.com", confirmed.length],
    },
    ...confirmed.map((row) => {
      const mailId = randomUUID();
      return {
        sql: `INSERT INTO list_mail (id, waitlist_id, kind, announcement_id, message_id, created_at, state, attempts,
                next_attempt_at) VALUES (?, ?, 'announcement', ?, ?, ?, 'pending', 0, ?)`,
        params: [mailId, String(row.id), id, `list-announcement-${mailId}`, at.getTime(), at.getTime()],
      };
    }),
  ]);
  return id;
}

describe.skipIf(!postgresAvailable)("the announcements' pace on two connections to one PostgreSQL", () => {
  it("gives at most one announcement per interval whatever the number of instances", async () => {
    const url = await postgres!.createDatabase();
    const location = { kind: "postgres", url } as const;
    const one = await openInboxStore(location, { timeoutMs: 5_000 });
    const two = await openInboxStore(location, { timeoutMs: 5_000 });
    const db = openPostgres(url, { timeoutMs: 5_000 });
    try {
      for (let index = 0; index < 12; index += 1) await one.joinWaitlist(`p${index}@example.com`, now);
      for (const claim of await one.claimListMail(20, 1_000, now)) {
        await one.markListMailSent(claim, now);
        await one.confirmWaitlist(claim.confirmToken!, now);
      }
      await announce(db, "2027", now);
      const interval = 1_000;
      const perTry: number[] = [];
      // Both instances try several times at once: one claim takes the turns (at most 5 here, an interval apart for
      // its sender), the others none until they have passed; the turns not used are given back.
      for (const offset of [0, 2_500, 5_000, 7_000, 10_000, 12_000]) {
        const at = later(offset);
        const claims = (
          await Promise.all(
            [1, 2, 3].flatMap(() => [one.claimListMail(5, interval, at), two.claimListMail(5, interval, at)]),
          )
        ).flat();
        perTry.push(claims.length);
        for (const claim of claims) await one.markListMailSent(claim, at);
      }
      expect(perTry).toEqual([5, 0, 5, 0, 2, 0]);
      const [pace] = await db.query("SELECT next_at FROM mail_pace");
      expect(Number(pace!.next_at)).toBe(later(12_000).getTime());
      const [sent] = await db.query(
        "SELECT COUNT(*) AS n FROM list_mail WHERE kind = 'announcement' AND state = 'sent'",
      );
      expect(Number(sent!.n)).toBe(12);
    } finally {
      await Promise.all([one.close(), two.close(), db.close()]);
    }
  });
});
