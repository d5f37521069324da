import { statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { StoreUnavailableError } from "../../app/store/sql.server";
import { parseDatabaseUrl, type DatabaseLocation } from "~/config.server";
import { duplicateWindowMs } from "../../app/store/enquiries.server";
import { claimLeaseMs } from "../../app/store/notifications.server";
import { openInboxStore } from "../../app/store/store.server";
import type { ListedEnquiry } from "../../app/store/records";
import type { InboxStore } from "../../app/store/store.types";
import { postgresAvailable, startPostgres, type TestPostgres } from "../support/postgres";
import { useTempDir } from "../support/temp-dir";
import { numberedEnquiry } from "../support/enquiry";

/** One suite, two back-ends: every behaviour of the store holds on SQLite and on PostgreSQL. */

const temp = useTempDir("haunt-store-");
let postgres: TestPostgres | undefined;
beforeAll(async () => {
  if (postgresAvailable) postgres = await startPostgres();
});
afterAll(() => postgres?.stop());

const backends: { name: string; fresh: () => Promise<DatabaseLocation> }[] = [
  { name: "SQLite", fresh: async () => ({ kind: "sqlite", path: temp.file("enquiries.db") }) },
  { name: "PostgreSQL", fresh: async () => ({ kind: "postgres", url: await postgres!.createDatabase() }) },
];

const enquiry = (n = 1) => numberedEnquiry(n);

async function all(store: InboxStore, options?: { since?: Date }): Promise<ListedEnquiry[]> {
  const items: ListedEnquiry[] = [];
  for await (const item of store.list(options)) items.push(item);
  return items;
}

describe("parseDatabaseUrl", () => {
  it("reads file: and postgres URLs and refuses anything else", () => {
    expect(parseDatabaseUrl("file:data/enquiries.db")).toEqual({ kind: "sqlite", path: "data/enquiries.db" });
    expect(parseDatabaseUrl("file:/var/lib/haunt/e.db")).toEqual({ kind: "sqlite", path: "/var/lib/haunt/e.db" });
    expect(parseDatabaseUrl("file:///var/lib/haunt/e.db")).toEqual({ kind: "sqlite", path: "/var/lib/haunt/e.db" });
    expect(parseDatabaseUrl("postgres://u:p@db:5432/haunt")).toEqual({
      kind: "postgres",
      url: "postgres://u:p@db:5432/haunt",
    });
    expect(parseDatabaseUrl("postgresql://db/haunt")?.kind).toBe("postgres");
    expect(parseDatabaseUrl("mysql://db/haunt")).toBeNull();
    expect(parseDatabaseUrl("data/enquiries.db")).toBeNull();
    expect(parseDatabaseUrl("file:")).toBeNull();
  });
});

describe.each(backends)("the inbox store on $name", ({ name, fresh }) => {
  const open: InboxStore[] = [];
  const openStore = async (location?: DatabaseLocation) => {
    const store = await openInboxStore(location ?? (await fresh()), { timeoutMs: 5_000 });
    open.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
  });
  const needsServer = name === "PostgreSQL" && !postgresAvailable;

  it.skipIf(needsServer)("stores an enquiry with one pending notification per channel, in one go", async () => {
    const store = await openStore();
    const saved = await store.save(enquiry(), ["email", "webhook"]);
    expect(saved.duplicate).toBe(false);
    const [listed, ...rest] = await all(store);
    expect(rest).toEqual([]);
    expect(listed).toMatchObject({ id: saved.id, ...enquiry() });
    expect(listed!.receivedAt).toBeInstanceOf(Date);
    // Due at once: the next attempt is the moment it was stored.
    expect(listed!.notifications).toEqual([
      {
        channel: "email",
        state: "pending",
        attempts: 0,
        lastError: null,
        nextAttemptAt: listed!.receivedAt,
        sentAt: null,
      },
      {
        channel: "webhook",
        state: "pending",
        attempts: 0,
        lastError: null,
        nextAttemptAt: listed!.receivedAt,
        sentAt: null,
      },
    ]);
  });

  it.skipIf(needsServer)(
    "treats the same address (any case) and message within ten minutes as a duplicate",
    async () => {
      const store = await openStore();
      const start = new Date("2026-10-01T12:00:00Z");
      const first = await store.save(enquiry(), ["email"], start);
      const again = await store.save(
        { ...enquiry(), email: "Visitor1@Example.COM" },
        ["email"],
        new Date(start.getTime() + 60_000),
      );
      expect(again).toEqual({ id: first.id, duplicate: true });
      const otherMessage = await store.save(
        { ...enquiry(), message: "Something else" },
        ["email"],
        new Date(start.getTime() + 60_000),
      );
      expect(otherMessage.duplicate).toBe(false);
      const later = await store.save(enquiry(), ["email"], new Date(start.getTime() + duplicateWindowMs + 1));
      expect(later.duplicate).toBe(false);
      const listed = await all(store);
      expect(listed).toHaveLength(3);
      expect(listed.flatMap((item) => item.notifications)).toHaveLength(3);
    },
  );

  it.skipIf(needsServer)("stores a double click once, even when both posts arrive together", async () => {
    const store = await openStore();
    const results = await Promise.all(Array.from({ length: 8 }, () => store.save(enquiry(), ["email"])));
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
    expect(await all(store)).toHaveLength(1);
  });

  it.skipIf(needsServer)("leases each due notification to one owner; an expired lease is taken over", async () => {
    const store = await openStore();
    await store.save(enquiry(), ["email"]);
    const now = new Date();
    const [claim] = await store.claimDue("owner-a", 10, now);
    expect(claim).toMatchObject({ channel: "email", attempts: 1, enquiry: enquiry() });
    expect(await store.claimDue("owner-b", 10, now)).toEqual([]);
    expect(await store.nextDueAt()).toEqual(claim!.claimUntil);

    const afterLease = new Date(now.getTime() + claimLeaseMs);
    const [takenOver] = await store.claimDue("owner-b", 10, afterLease);
    expect(takenOver).toMatchObject({ id: claim!.id, attempts: 2 });
    // The owner that lost its lease cannot settle any more; the new one can, once.
    expect(await store.markSent(claim!)).toBe(false);
    expect(await store.markSent(takenOver!)).toBe(true);
    expect(await store.markSent(takenOver!)).toBe(false);
    expect((await all(store))[0]!.notifications[0]).toMatchObject({ state: "sent", attempts: 2 });
    expect(await store.nextDueAt()).toBeNull();
  });

  it.skipIf(needsServer)("never hands the same notification to two owners claiming at once", async () => {
    const location = await fresh();
    const a = await openStore(location);
    const b = await openStore(location);
    await Promise.all(Array.from({ length: 60 }, (_, i) => a.save(enquiry(i), ["email", "webhook"])));
    const claimed: string[] = [];
    const drain = async (source: InboxStore, owner: string) => {
      for (;;) {
        const batch = await source.claimDue(owner, 7);
        if (batch.length === 0) return;
        for (const claim of batch) {
          claimed.push(claim.id);
          expect(await source.markSent(claim)).toBe(true);
        }
      }
    };
    await Promise.all([drain(a, "a1"), drain(b, "b1"), drain(a, "a2"), drain(b, "b2")]);
    expect(claimed).toHaveLength(120);
    expect(new Set(claimed).size).toBe(120);
  });

  it.skipIf(needsServer)("retries later, fails for good when told, and puts failed ones back on request", async () => {
    const store = await openStore();
    await store.save(enquiry(), ["webhook"]);
    const now = new Date();
    const [first] = await store.claimDue("owner", 10, now);
    const retryAt = new Date(now.getTime() + 5_000);
    expect(await store.markRetry(first!, "HTTP 500", retryAt)).toBe(true);
    expect((await all(store))[0]!.notifications[0]).toMatchObject({ state: "pending", nextAttemptAt: retryAt });
    expect(await store.claimDue("owner", 10, now)).toEqual([]);
    expect(await store.nextDueAt()).toEqual(retryAt);
    const [second] = await store.claimDue("owner", 10, retryAt);
    expect(second!.attempts).toBe(2);
    expect(await store.markFailed(second!, "HTTP 500 for a day")).toBe(true);
    expect((await all(store))[0]!.notifications[0]).toEqual({
      channel: "webhook",
      state: "failed",
      attempts: 2,
      lastError: "HTTP 500 for a day",
      nextAttemptAt: null,
      sentAt: null,
    });
    expect(await store.nextDueAt()).toBeNull();

    const later = new Date(now.getTime() + 60_000);
    expect(await store.retryFailed(later)).toBe(1);
    const [third] = await store.claimDue("owner", 10, later);
    expect(third!.windowStart).toEqual(later);
    expect(third!.attempts).toBe(1); // the schedule starts over
    expect(await store.retryFailed()).toBe(0);
  });

  it.skipIf(needsServer)("claims only the channels asked for", async () => {
    const store = await openStore();
    await store.save(enquiry(), ["email", "webhook"]);
    const webhooks = await store.claimDue("owner", 10, new Date(), ["webhook"]);
    expect(webhooks.map((c) => c.channel)).toEqual(["webhook"]);
    expect(await store.claimDue("owner", 10, new Date(), [])).toEqual([]);
    expect((await store.claimDue("owner", 10)).map((c) => c.channel)).toEqual(["email"]);
  });

  it.skipIf(needsServer)("imports v1 JSON lines once, however often the import runs", async () => {
    const store = await openStore();
    const records = [
      { receivedAt: "2025-10-01T10:00:00.000Z", ...enquiry(1) },
      { receivedAt: "2025-10-02T10:00:00.000Z", ...enquiry(2) },
    ];
    expect(await store.importV1(records)).toBe(2);
    expect(await store.importV1(records)).toBe(0);
    expect(await store.importV1([...records, { receivedAt: "2025-10-03T10:00:00.000Z", ...enquiry(3) }])).toBe(1);
    const listed = await all(store);
    expect(listed.map((item) => item.name)).toEqual(["Visitor 3", "Visitor 2", "Visitor 1"]);
    expect(listed[0]!.notifications).toEqual([]); // old enquiries are not announced again
  });

  it.skipIf(needsServer)("lists newest first in pages, and from a date on", async () => {
    const store = await openStore();
    const base = Date.parse("2026-01-01T00:00:00Z");
    const records = Array.from({ length: 450 }, (_, i) => ({
      receivedAt: new Date(base + i * 1000).toISOString(),
      ...enquiry(i),
    }));
    await store.importV1(records);
    const listed = await all(store);
    expect(listed).toHaveLength(450);
    expect(listed[0]!.name).toBe("Visitor 449");
    expect(listed.at(-1)!.name).toBe("Visitor 0");
    const recent = await all(store, { since: new Date(base + 400 * 1000) });
    expect(recent).toHaveLength(50);
  });

  it.skipIf(needsServer)("erases every enquiry of an address, any case, with its notifications", async () => {
    const store = await openStore();
    await store.save(enquiry(1), ["email", "webhook"]);
    await store.save({ ...enquiry(1), message: "A second one" }, ["email"]);
    await store.save(enquiry(2), ["email"]);
    expect(await store.erase("VISITOR1@example.com")).toBe(2);
    expect(await store.erase("visitor1@example.com")).toBe(0);
    const listed = await all(store);
    expect(listed.map((item) => item.email)).toEqual(["visitor2@example.com"]);
    const claims = await store.claimDue("owner", 10);
    expect(claims.map((claim) => claim.enquiry.email)).toEqual(["visitor2@example.com"]);
  });

  it.skipIf(needsServer)("migrates once when two processes open an empty database together", async () => {
    const location = await fresh();
    const [a, b, c] = await Promise.all([openStore(location), openStore(location), openStore(location)]);
    await a!.save(enquiry(), ["email"]);
    expect(await all(b!)).toHaveLength(1);
    await c!.ping();
  });
});

describe("a database that hangs or goes away", () => {
  it("SQLite: a write blocked by a stuck lock fails within the bounded wait, then works once the lock is gone", async () => {
    const path = temp.file("enquiries.db");
    const store = await openInboxStore({ kind: "sqlite", path }, { timeoutMs: 800 });
    try {
      // Another process holding the write lock stands in for a disk that stopped answering.
      const blocker = new DatabaseSync(path);
      blocker.exec("BEGIN EXCLUSIVE");
      const started = Date.now();
      await expect(store.save(enquiry(), ["email"])).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - started).toBeLessThan(3_000);
      blocker.exec("ROLLBACK");
      blocker.close();
      await store.save(enquiry(2), ["email"]);
      expect((await all(store)).map((item) => item.name)).toContain("Visitor 2");
    } finally {
      await store.close();
    }
  });

  it.skipIf(!postgresAvailable)(
    "PostgreSQL: calls fail while the server is down and work again after it restarts",
    async () => {
      const store = await openInboxStore(
        { kind: "postgres", url: await postgres!.createDatabase() },
        { timeoutMs: 2_000 },
      );
      try {
        await store.save(enquiry(1), ["email"]);
        postgres!.stopServer();
        await expect(store.save(enquiry(2), ["email"])).rejects.toThrow();
        await expect(store.ping()).rejects.toThrow();
        postgres!.startServer();
        await store.save(enquiry(3), ["email"]);
        expect((await all(store)).map((item) => item.name)).toEqual(["Visitor 3", "Visitor 1"]);
      } finally {
        await store.close();
      }
    },
  );
});

describe("a new SQLite database", () => {
  it("is readable by its owner only, in a directory made for it", async () => {
    const path = join(temp.dir(), "nested", "deeper", "enquiries.db");
    const store = await openInboxStore({ kind: "sqlite", path }, { timeoutMs: 5_000 });
    try {
      await store.save(enquiry(), ["email"]);
      expect(statSync(path).mode & 0o777).toBe(0o600);
    } finally {
      await store.close();
    }
  });
});
