import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { yearMonths } from "~/owner/figures";
import { localDate, startOfDay } from "~/site-content/order-window";
import type { FigureGroup } from "~/store/figures.types";
import { migrations } from "~/store/migrations.server";
import { openPostgres } from "~/store/postgres.server";
import type { SqlClient } from "~/store/sql.server";
import { openSqlite } from "~/store/sqlite.server";
import { createInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import {
  animatronics,
  erasedAddress,
  handCount,
  saveSeason,
  scenic,
  season,
  seasonZone,
  setPipeline,
} from "../support/figures-season";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { useTempDir } from "../support/temp-dir";

/**
 * The season's figures in the database, on SQLite and PostgreSQL: a seeded season's months, year and services equal a
 * hand count (the median and the sums included); an erased and a purged enquiry still count, and what is kept of them
 * is numbers under a new id, nothing of the person or what they wrote.
 */

const temp = useTempDir("haunt-figures-store-");
let postgres: TestDatabases | undefined;
beforeAll(async () => {
  if (postgresAvailable) postgres = await sharedPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

const backends: { name: string; open: () => Promise<SqlClient> }[] = [
  { name: "SQLite", open: async () => openSqlite(temp.file("figures.db"), { timeoutMs: 10_000 }) },
  { name: "PostgreSQL", open: async () => openPostgres(await postgres!.createDatabase(), { timeoutMs: 10_000 }) },
];

const calendar = {
  localDate: (at: Date) => localDate(at, seasonZone),
  startOfDay: (day: string) => startOfDay(day, seasonZone),
};

const pick = (groups: FigureGroup[], year: number, month: number | null, service?: string | null) =>
  groups.find(
    (group) =>
      group.year === year &&
      group.month === month &&
      group.perService === (service !== undefined) &&
      group.service === (service ?? null),
  );

/** The figures a hand count gives, in the store's shape. */
const expected = (count: {
  enquiries: number;
  spam: number;
  replied: number;
  quoted: number;
  won: number;
  lost?: Partial<FigureGroup["lost"]>;
  medianReplyMs: number;
  quotedTotal: number;
  wonTotal: number;
}) => ({
  enquiries: count.enquiries,
  spam: count.spam,
  replied: count.replied,
  quoted: count.quoted,
  won: count.won,
  lost: { price: 0, timing: 0, "no-answer": 0, elsewhere: 0, other: 0, unstated: 0, ...count.lost },
  medianReplyMs: count.medianReplyMs,
  quotedTotal: count.quotedTotal,
  wonTotal: count.wonTotal,
});

for (const backend of backends) {
  describe.skipIf(backend.name === "PostgreSQL" && !postgresAvailable)(`the figures on ${backend.name}`, () => {
    let db: SqlClient;
    let store: InboxStore;
    let ids: string[];
    beforeAll(async () => {
      db = await backend.open();
      await db.migrate(migrations);
      store = createInboxStore(db);
      ids = await saveSeason(store);
      await setPipeline(ids, (sql, params) => db.query(sql, params));
    }, 30_000);
    afterAll(() => store?.close());

    const figures2026 = () => store.figures(yearMonths(2026, calendar));

    it("counts a season as a hand count does: months, the year, services, in the site's time zone", async () => {
      const groups = await figures2026();
      expect(pick(groups, 2026, 3)).toMatchObject(expected(handCount.march2026));
      expect(pick(groups, 2026, 10)).toMatchObject(expected(handCount.october2026));
      // The enquiry of 02:30 UTC on 1 November arrived on Halloween night in New York.
      expect(pick(groups, 2026, 11)).toBeUndefined();
      // New Year's Eve in New York was 2025's.
      expect(pick(groups, 2026, 1)).toBeUndefined();
      expect(pick(groups, 2026, null)).toMatchObject(expected(handCount.year2026));
      expect(pick(groups, 2026, null, animatronics)).toMatchObject(expected(handCount.animatronics2026));
      expect(pick(groups, 2026, null, scenic)).toMatchObject(expected(handCount.scenic2026));
      expect(pick(groups, 2026, null, null)).toMatchObject(expected(handCount.noService2026));
      expect(pick(groups, 2026, 3, animatronics)).toMatchObject({ enquiries: 2, won: 1, wonTotal: 250_000 });
      // Only the months asked for: nothing of 2025.
      expect(groups.every((group) => group.year === 2026)).toBe(true);

      const before = await store.figures(yearMonths(2025, calendar));
      expect(pick(before, 2025, null)).toMatchObject({ enquiries: 2, won: 1, wonTotal: 50_000 });
      expect(pick(before, 2025, 12)).toMatchObject({ enquiries: 1, replied: 0, medianReplyMs: null });

      expect(await store.figuresSpan()).toEqual({
        first: new Date("2025-10-10T15:00:00Z"),
        last: new Date("2026-11-01T02:30:00Z"),
      });
    });

    it("an erased enquiry still counts, as numbers only: nothing of it is in figures_kept", async () => {
      const before = await figures2026();
      const erasedId = ids[season.findIndex((enquiry) => enquiry.email === erasedAddress)]!;
      expect(await store.erase(erasedAddress)).toBe(1);
      expect(await store.getEnquiry(erasedId)).toBeNull();
      const after = await figures2026();
      expect(after).toEqual(expect.arrayContaining(before));
      expect(after).toHaveLength(before.length);

      const kept = await db.query("SELECT * FROM figures_kept");
      expect(kept).toHaveLength(1);
      const row = kept[0]!;
      expect(Object.keys(row).sort()).toEqual(
        ["first_reply_at", "id", "lost_reason", "quote_amount", "received_at", "service", "spam", "stage"].sort(),
      );
      expect(row).toMatchObject({
        received_at: new Date("2026-10-15T15:00:00Z").getTime(),
        spam: 0,
        stage: "deposit",
        quote_amount: 100_000,
        service: animatronics,
      });
      expect(row.id).not.toBe(erasedId);
      expect(String(row.id)).toMatch(/^[0-9a-f-]{32,36}$/);
      const text = JSON.stringify(kept);
      for (const word of ["erase.me", "example.com", "Season visitor", "A prop for the haunt"])
        expect(text).not.toContain(word);
    });

    it("a purge keeps the numbers of what it deletes, spam included", async () => {
      // Everything before 2026 goes (and the spam of March 2026 with the spam cut-off).
      const purged = await store.purge({
        enquiriesBefore: new Date("2026-01-01T00:00:00Z"),
        spamBefore: new Date("2026-04-01T00:00:00Z"),
      });
      expect(purged).toMatchObject({ enquiries: 1, spam: 1 });
      expect(pick(await store.figures(yearMonths(2025, calendar)), 2025, null)).toMatchObject({
        enquiries: 2,
        won: 1,
        wonTotal: 50_000,
      });
      expect(pick(await figures2026(), 2026, 3)).toMatchObject(expected(handCount.march2026));
      const kept = await db.query("SELECT spam, stage FROM figures_kept ORDER BY received_at");
      expect(kept.map((row) => `${row.spam} ${row.stage}`)).toEqual(["0 delivered", "1 null", "0 deposit"]);
    });
  });
}
