import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseLocation } from "~/config.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { useTempDir } from "../support/temp-dir";

/** The owner's inbox's store operations, on SQLite and on PostgreSQL alike. */

const temp = useTempDir("haunt-owner-store-");
let postgres: TestDatabases | undefined;
beforeAll(async () => {
  if (postgresAvailable) postgres = await sharedPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

const backends: { name: string; fresh: () => Promise<DatabaseLocation> }[] = [
  { name: "SQLite", fresh: async () => ({ kind: "sqlite", path: temp.file("enquiries.db") }) },
  { name: "PostgreSQL", fresh: async () => ({ kind: "postgres", url: await postgres!.createDatabase() }) },
];

const fullSession = { stage: "full", factorAt: null, browser: "Chrome on Linux", client: "127.0.0.1" } as const;
const at = (minutes: number) => new Date(Date.UTC(2026, 9, 1) + minutes * 60_000);

for (const backend of backends) {
  describe.skipIf(backend.name === "PostgreSQL" && !postgresAvailable)(`owner operations on ${backend.name}`, () => {
    let store: InboxStore;
    beforeAll(async () => {
      store = await openInboxStore(await backend.fresh(), { timeoutMs: 10_000 });
    });
    afterAll(() => store.close());

    it("lists by folder and search (wildcards taken literally), newest first, in pages, with counts", async () => {
      const ids: string[] = [];
      for (let n = 0; n < 5; n++) {
        const message = n === 3 ? "Discount 100% off_sale?" : `A coffin, number ${n}`;
        ids.push((await store.save({ name: `Name ${n}`, email: `v${n}@example.com`, message }, ["email"], at(n))).id);
      }
      await store.setStatus(ids[1]!, "handled", "owner@example.com");
      await store.setStatus(ids[2]!, "spam", "owner@example.com");
      expect(await store.markRead(ids[0]!, "owner@example.com")).toBe(true);
      expect(await store.markRead(ids[0]!, "owner@example.com")).toBe(false);
      // The change's activity entry, written with it; the second call changed nothing and wrote none.
      expect((await store.listActivity({ limit: 50 })).filter((entry) => entry.enquiryId === ids[0])).toMatchObject([
        { actor: "owner@example.com", action: "status new -> read" },
      ]);
      expect(await store.folderCounts()).toEqual({ new: 3, handled: 1, spam: 1, all: 5 });
      const first = await store.inboxPage({ folder: "all" }, { limit: 2, offset: 0 });
      expect(first.items.map((item) => item.name)).toEqual(["Name 4", "Name 3"]);
      expect(first.hasMore).toBe(true);
      const last = await store.inboxPage({ folder: "all" }, { limit: 2, offset: 4 });
      expect(last).toMatchObject({ hasMore: false, items: [{ name: "Name 0", status: "read" }] });
      expect((await store.inboxPage({ folder: "new", search: "100%" }, { limit: 50, offset: 0 })).items).toHaveLength(
        1,
      );
      expect((await store.inboxPage({ folder: "new", search: "0%" }, { limit: 50, offset: 0 })).items).toHaveLength(1);
      expect((await store.inboxPage({ folder: "all", search: "%" }, { limit: 50, offset: 0 })).items).toHaveLength(1);
      expect((await store.inboxPage({ folder: "all", search: "V2@EXAMPLE" }, { limit: 9, offset: 0 })).items).toEqual([
        expect.objectContaining({ id: ids[2], status: "spam" }),
      ]);
      expect(await store.folderCounts("coffin")).toEqual({ new: 2, handled: 1, spam: 1, all: 4 });
      const exported = [];
      for await (const item of store.inboxAll({ folder: "new" })) exported.push(item.id);
      expect(exported).toEqual([ids[4], ids[3], ids[0]]);
    });

    it("logs a status change and a first reading as the operator's, in the change's transaction", async () => {
      const { id } = await store.save({ name: "Logged", email: "logged@example.com", message: "A raven" }, [], at(20));
      expect(await store.markRead(id, "owner@example.com", at(21))).toBe(true);
      expect(await store.markRead(id, "owner@example.com", at(22))).toBe(false);
      expect(await store.setStatus(id, "handled", "owner@example.com", at(23))).toBe("read");
      expect(await store.setStatus("no-such-id", "handled", "owner@example.com", at(24))).toBeNull();
      const entries = (await store.listActivity({ limit: 100 })).filter((entry) => entry.enquiryId === id);
      expect(entries.map((entry) => [entry.action, entry.actor, entry.at])).toEqual([
        ["status read -> handled", "owner@example.com", at(23)],
        ["status new -> read", "owner@example.com", at(21)],
      ]);
    });

    it("Not spam sets status new and creates the missing notifications; Resend starts a channel over", async () => {
      const { id } = await store.save({ name: "Held", email: "held@example.com", message: "Buy now" }, [], at(10));
      await store.setStatus(id, "spam", "test");
      expect(await store.decideSpam(id, "not-spam", [], ["email", "webhook"], "test", at(11))).toBe("spam");
      const enquiry = await store.getEnquiry(id);
      expect(enquiry?.status).toBe("new");
      expect(enquiry?.notifications.map((n) => [n.channel, n.state, n.attempts])).toEqual([
        ["email", "pending", 0],
        ["webhook", "pending", 0],
      ]);
      expect(await store.decideSpam(id, "not-spam", [], ["email"], "test", at(12))).toBe("new"); // twice: nothing doubled
      expect((await store.getEnquiry(id))?.notifications).toHaveLength(2);
      expect(await store.decideSpam("no-such-id", "not-spam", [], ["email"], "test")).toBeNull();

      const [claim] = await store.claimDue("test", 1, at(13));
      await store.markFailed(claim!, "connect ECONNREFUSED 127.0.0.1:25");
      expect(await store.resend(id, claim!.channel, at(14))).toBe(true);
      const step = (await store.getEnquiry(id))?.notifications.find((n) => n.channel === claim!.channel);
      expect(step).toMatchObject({ state: "pending", attempts: 0, nextAttemptAt: at(14) });
      expect(await store.resend("no-such-id", "email")).toBe(false);
    });

    it("sessions end when idle, when too old, at logout, and with their operator", async () => {
      await store.putOperator("Owner@Example.com", "$argon2id$hash");
      const operator = (await store.findOperator("owner@example.com"))!;
      const limits = { idleMs: 30 * 60_000, maxAgeMs: 12 * 60 * 60_000 };
      await store.createSession("a", operator.id, fullSession, at(0));
      expect((await store.useSession("a", limits, at(29)))?.operator.email).toBe("Owner@Example.com");
      expect(await store.useSession("a", limits, at(29 + 31))).toBeNull(); // idle too long
      expect(await store.useSession("a", limits, at(29))).toBeNull(); // and gone
      await store.createSession("b", operator.id, fullSession, at(0));
      for (let minute = 25; minute < 12 * 60; minute += 25) await store.useSession("b", limits, at(minute));
      expect(await store.useSession("b", limits, at(12 * 60 + 1))).toBeNull(); // never past 12 hours
      await store.createSession("c", operator.id, fullSession, at(0));
      await store.deleteSession("c");
      expect(await store.useSession("c", limits, at(1))).toBeNull();
      await store.createSession("d", operator.id, fullSession, at(0));
      await store.putOperator("owner@example.com", "$argon2id$new"); // a new password ends the sessions
      expect(await store.useSession("d", limits, at(1))).toBeNull();
      await store.createSession("e", operator.id, fullSession, at(0));
      expect(await store.removeOperator("owner@example.com")).toBe(true);
      expect(await store.useSession("e", limits, at(1))).toBeNull();
      expect(await store.listOperators()).toEqual([]);
    });

    it("a change of stage moves the session to a new id (the old opens nothing); set-up done keeps its factor time", async () => {
      await store.putOperator("stages@example.com", "$argon2id$hash");
      const operator = (await store.findOperator("stages@example.com"))!;
      const limits = { idleMs: 30 * 60_000, maxAgeMs: 12 * 60 * 60_000 };
      const owing = { ...fullSession, stage: "password" } as const;
      await store.createSession("pw-old", operator.id, owing, at(0));
      await store.passSecondFactor("pw-old", at(1), "pw-new");
      expect(await store.useSession("pw-old", limits, at(2))).toBeNull();
      const passed = (await store.useSession("pw-new", limits, at(2)))!;
      expect(passed).toMatchObject({ stage: "full", factorAt: at(1), createdAt: at(0) });
      // Step-up: no new id.
      await store.passSecondFactor("pw-new", at(3));
      expect((await store.useSession("pw-new", limits, at(4)))?.factorAt).toEqual(at(3));

      await store.createSession("setup-old", operator.id, { ...fullSession, stage: "setup" }, at(0));
      expect(await store.finishSetup("setup-old", "setup-new")).toBe(true);
      expect(await store.useSession("setup-old", limits, at(1))).toBeNull();
      expect(await store.useSession("setup-new", limits, at(1))).toMatchObject({ stage: "full", factorAt: null });
      // Only a session at `setup` finishes it.
      expect(await store.finishSetup("setup-new", "setup-newer")).toBe(false);
      expect(await store.useSession("setup-new", limits, at(2))).not.toBeNull();
    });

    it("stores a factor added as an alert of its kind, with the passkey's name; a login alert as before", async () => {
      await store.queueOwnerAlert(
        {
          id: "added",
          operatorEmail: "o@example.com",
          at: at(0),
          browser: "b",
          address: "a",
          kind: "passkey-added",
          detail: "Laptop",
        },
        ["webhook"],
      );
      await store.queueOwnerAlert(
        { id: "login", operatorEmail: "o@example.com", at: at(1), browser: "b", address: "a" },
        ["webhook"],
      );
      const claimed = await store.claimOwnerAlerts(10, at(2));
      expect(claimed.map(({ id, kind, detail }) => ({ id, kind, detail }))).toEqual([
        { id: "added", kind: "passkey-added", detail: "Laptop" },
        { id: "login", kind: "login", detail: null },
      ]);
    });

    it("counts login attempts per account and client atomically within the window, and starts a new one after", async () => {
      const window = 15 * 60_000;
      const count = (client: string, minute: number) => store.countLoginAttempt("owner", client, window, at(minute));
      // 20 at once: each gets its own count, 1 to 20, none twice.
      const burst = await Promise.all(Array.from({ length: 20 }, () => count("10.0.0.1", 0)));
      expect(burst.map((c) => c.attempts).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
      expect(await count("10.0.0.2", 1)).toEqual({ attempts: 1, windowStart: at(1) });
      expect(await count("10.0.0.1", 14)).toEqual({ attempts: 21, windowStart: at(0) });
      await store.refundLoginAttempt("owner", "10.0.0.1");
      expect((await count("10.0.0.1", 14)).attempts).toBe(21);
      // 15 minutes after the window started: a new one, from 1.
      expect(await count("10.0.0.1", 15)).toEqual({ attempts: 1, windowStart: at(15) });
      await store.logActivity({ actor: "owner@example.com", action: "logged in" }, at(1));
      // (Other tests in this file log later entries, e.g. Not spam's own.)
      const entries = await store.listActivity({ limit: 50 });
      expect(entries.find((entry) => entry.action === "logged in")).toMatchObject({ enquiryId: null });
    });
  });
}
