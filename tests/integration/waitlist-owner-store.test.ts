import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseLocation } from "~/config.server";
import { openPostgres } from "~/store/postgres.server";
import { openSqlite } from "~/store/sqlite.server";
import type { SqlClient } from "~/store/sql.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { useTempDir } from "../support/temp-dir";
import { confirmedAddresses, putWaitlistRows } from "../support/waitlist-rows";

/**
 * The owner's side of the waitlist in the store on SQLite and PostgreSQL (issue 35): the counts and the list, erasing
 * one address (its mail with it, remembered as erased), and the season's announcement: one list mail per confirmed
 * address in one transaction, once per season, two at once on PostgreSQL with exactly one stored, and its progress.
 */

const temp = useTempDir("haunt-waitlist-owner-store-");
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
const actor = "owner@grimforge.example";
const words = { season: "2027", subject: "Orders for the 2027 haunt season are open", body: "Write to us.", actor };

describe.each(backends)("the waitlist's owner side on $name", ({ name, fresh }) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((item) => item.close()));
  });
  const needsServer = name === "PostgreSQL" && !postgresAvailable;

  async function openBoth(
    location?: DatabaseLocation,
  ): Promise<{ store: InboxStore; db: SqlClient; location: DatabaseLocation }> {
    const where = location ?? (await fresh());
    const store = await openInboxStore(where, { timeoutMs: 10_000 });
    open.push(store);
    const db =
      where.kind === "sqlite"
        ? openSqlite(where.path, { timeoutMs: 10_000 })
        : openPostgres(where.url, { timeoutMs: 10_000 });
    open.push(db);
    return { store, db, location: where };
  }

  it.skipIf(needsServer)("counts each state and lists the addresses newest first with their dates", async () => {
    const { store, db } = await openBoth();
    expect(await store.waitlistCounts()).toEqual({ pending: 0, confirmed: 0, unsubscribed: 0 });
    expect(await store.waitlistEntries()).toEqual([]);
    const day = (n: number) => new Date(Date.UTC(2026, 10, n, 9));
    const [pendingId] = await putWaitlistRows(db, [
      { email: "pending@example.com", state: "pending", createdAt: day(3) },
      { email: "Confirmed@Example.com", state: "confirmed", createdAt: day(1), confirmedAt: day(2) },
      { email: "left@example.com", state: "unsubscribed", createdAt: day(2), unsubscribedAt: day(4) },
    ]);
    expect(await store.waitlistCounts()).toEqual({ pending: 1, confirmed: 1, unsubscribed: 1 });
    const entries = await store.waitlistEntries();
    expect(entries.map((entry) => [entry.email, entry.state])).toEqual([
      ["pending@example.com", "pending"],
      ["left@example.com", "unsubscribed"],
      ["confirmed@example.com", "confirmed"],
    ]);
    expect(entries[2]).toMatchObject({ createdAt: day(1), confirmedAt: day(2), unsubscribedAt: null });
    expect(entries[1]!.unsubscribedAt).toEqual(day(4));
    expect(await store.waitlistEntry(pendingId!)).toMatchObject({ email: "pending@example.com", confirmedAt: null });
    expect(await store.waitlistEntry("no-such-id")).toBeNull();
  });

  it.skipIf(needsServer)("pages through the list: at most a page read, newest first, no address twice", async () => {
    const { store, db } = await openBoth();
    // 250 confirmed asked at the same moment (the order's tie is broken by the address), a pending one later.
    await putWaitlistRows(db, [
      ...confirmedAddresses(250),
      { email: "late@example.com", state: "pending", createdAt: new Date("2026-11-20T10:00:00Z") },
    ]);
    const page = (n: number, state: "all" | "confirmed" | "pending" = "all") =>
      store.waitlistPage({ state }, { limit: 100, offset: (n - 1) * 100 });
    const [first, second, third, fourth] = await Promise.all([page(1), page(2), page(3), page(4)]);
    expect(first.entries).toHaveLength(100);
    expect(first.entries[0]!.email).toBe("late@example.com");
    expect([first.hasMore, second.hasMore, third.hasMore]).toEqual([true, true, false]);
    expect(third.entries).toHaveLength(51);
    expect(fourth).toEqual({ entries: [], hasMore: false });
    const seen = [first, second, third].flatMap(({ entries }) => entries.map((entry) => entry.email));
    expect(seen).toEqual((await store.waitlistEntries()).map((entry) => entry.email));
    expect(new Set(seen).size).toBe(251);
    // One state: its own pages.
    const confirmed = await page(3, "confirmed");
    expect(confirmed.entries).toHaveLength(50);
    expect(confirmed.entries.every((entry) => entry.state === "confirmed")).toBe(true);
    expect(confirmed.hasMore).toBe(false);
    expect((await page(1, "pending")).entries.map((entry) => entry.email)).toEqual(["late@example.com"]);
  });

  it.skipIf(needsServer)(
    "stores the announcement with one pending list mail per confirmed address, once per season",
    async () => {
      const { store, db } = await openBoth();
      await putWaitlistRows(db, [
        ...confirmedAddresses(5),
        { email: "waiting@example.com", state: "pending" },
        { email: "gone@example.com", state: "unsubscribed" },
      ]);
      expect(await store.announcementProgress("2027")).toBeNull();
      const announcement = await store.createAnnouncement({ ...words, messageDomain: "grimforge.example" }, now);
      expect(announcement).toMatchObject({ season: "2027", subject: words.subject, body: "Write to us.", total: 5 });
      expect(announcement!.createdAt).toEqual(now);
      expect(announcement!.createdBy).toBe(actor);
      const mail = await db.query(
        `SELECT m.kind, m.state, m.attempts, m.next_attempt_at, m.message_id, w.email FROM list_mail m
         JOIN waitlist w ON w.id = m.waitlist_id WHERE m.announcement_id = ? ORDER BY w.email`,
        [announcement!.id],
      );
      expect(mail.map((row) => row.email)).toEqual(
        confirmedAddresses(5)
          .map((row) => row.email)
          .sort(),
      );
      for (const row of mail) {
        expect(row).toMatchObject({ kind: "announcement", state: "pending" });
        expect(Number(row.attempts)).toBe(0);
        expect(Number(row.next_attempt_at)).toBe(now.getTime());
        expect(String(row.message_id)).toMatch(/^<announcement-[^@\s]+@grimforge\.example>$/);
      }
      expect(new Set(mail.map((row) => row.message_id)).size).toBe(5);

      // A second one for the season stores nothing; another season is its own.
      expect(await store.createAnnouncement({ ...words, subject: "Again" }, now)).toBeNull();
      expect(Number((await db.query("SELECT COUNT(*) AS n FROM list_mail"))[0]!.n)).toBe(5);
      expect((await store.announcementProgress("2027"))!.subject).toBe(words.subject);

      // Progress: what the sender settled.
      const ids = (await db.query("SELECT id FROM list_mail ORDER BY id")).map((row) => String(row.id));
      await db.query("UPDATE list_mail SET state = 'sent', sent_at = ? WHERE id IN (?, ?)", [
        now.getTime(),
        ids[0]!,
        ids[1]!,
      ]);
      await db.query("UPDATE list_mail SET state = 'failed', last_error = '550 no such user' WHERE id = ?", [ids[2]!]);
      expect(await store.announcementProgress("2027")).toMatchObject({ total: 5, sent: 2, failed: 1, pending: 2 });
      expect(await store.announcementProgress("2028")).toBeNull();
    },
  );

  it.skipIf(needsServer)("stores an announcement with no confirmed address as one for nobody", async () => {
    const { store } = await openBoth();
    expect(await store.createAnnouncement(words, now)).toMatchObject({ total: 0 });
    expect(await store.announcementProgress("2027")).toMatchObject({ total: 0, sent: 0, failed: 0, pending: 0 });
  });

  it.skipIf(needsServer)(
    "erases one address with its list mail, remembered as erased, the rest untouched",
    async () => {
      const { store, db } = await openBoth();
      await putWaitlistRows(db, confirmedAddresses(3));
      await store.createAnnouncement(words, now);
      expect(await store.eraseWaitlistAddress(" FAN2@list.example ")).toBe(true);
      expect((await store.waitlistEntries()).map((entry) => entry.email).sort()).toEqual([
        "fan1@list.example",
        "fan3@list.example",
      ]);
      expect(Number((await db.query("SELECT COUNT(*) AS n FROM list_mail"))[0]!.n)).toBe(2);
      expect(Number((await db.query("SELECT COUNT(*) AS n FROM erased_addresses"))[0]!.n)).toBe(1);
      // The announcement keeps how many it was for; its progress counts what is left.
      expect(await store.announcementProgress("2027")).toMatchObject({ total: 3, pending: 2 });
      expect(await store.eraseWaitlistAddress("fan2@list.example")).toBe(false);
      expect(await store.waitlistCounts()).toEqual({ pending: 0, confirmed: 2, unsubscribed: 0 });
    },
  );

  it.skipIf(name !== "PostgreSQL" || needsServer)(
    "two operators announcing at once on two connections: exactly one is stored, each address once",
    async () => {
      const first = await openBoth();
      const second = await openBoth(first.location);
      await putWaitlistRows(first.db, confirmedAddresses(300));
      for (let round = 0; round < 3; round++) {
        const season = `20${30 + round}`;
        const results = await Promise.all([
          first.store.createAnnouncement({ ...words, season, subject: "first" }, now),
          second.store.createAnnouncement({ ...words, season, subject: "second" }, now),
        ]);
        expect(results.filter((result) => result !== null)).toHaveLength(1);
        expect(results.find((result) => result !== null)!.total).toBe(300);
        const rows = await first.db.query(
          `SELECT COUNT(*) AS n, COUNT(DISTINCT m.waitlist_id) AS addresses FROM list_mail m
           JOIN announcements a ON a.id = m.announcement_id WHERE a.season = ?`,
          [season],
        );
        expect(Number(rows[0]!.n)).toBe(300);
        expect(Number(rows[0]!.addresses)).toBe(300);
      }
    },
  );
});
