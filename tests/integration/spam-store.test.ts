import { statSync } from "node:fs";
import { readFile, utimes, writeFile } from "node:fs/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { DatabaseLocation } from "~/config.server";
import { checkFormToken, formTokenProblem, issueFormToken, newFormToken } from "~/enquiry/form-token.server";
import { openInboxStore } from "~/store/store.server";
import type { ListedEnquiry } from "~/store/records";
import type { InboxStore } from "~/store/store.types";
import { purgeOld } from "../../server/retention";
import { importV1Inbox } from "../../server/v1-import";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { useTempDir } from "../support/temp-dir";

/** Spam kept aside, not-spam, the form token's key and single use, purge by age, erase for good, the v1 import. */

const temp = useTempDir("haunt-spam-store-");
let postgres: TestDatabases | undefined;
beforeAll(async () => {
  if (postgresAvailable) postgres = await sharedPostgres();
});
afterAll(() => postgres?.stop());

const backends: { name: string; fresh: () => Promise<DatabaseLocation> }[] = [
  { name: "SQLite", fresh: async () => ({ kind: "sqlite", path: temp.file("enquiries.db") }) },
  { name: "PostgreSQL", fresh: async () => ({ kind: "postgres", url: await postgres!.createDatabase() }) },
];

const day = 24 * 60 * 60_000;
const enquiry = (n: number, email = `visitor${n}@example.com`) => ({
  name: `Visitor ${n}`,
  email,
  message: `I need a prop, number ${n}.`,
});

async function all(store: InboxStore): Promise<ListedEnquiry[]> {
  const items: ListedEnquiry[] = [];
  for await (const item of store.list()) items.push(item);
  return items;
}

/** What the spam filter stores for a post kept aside for `reason` (a bot's behaviour). */
const heldAs = (reason: string) => ({ verdict: "spam" as const, score: 1, reasons: [reason] });

describe.each(backends)("spam and retention on $name", ({ name, fresh }) => {
  const open: InboxStore[] = [];
  const openStore = async (location?: DatabaseLocation) => {
    const store = await openInboxStore(location ?? (await fresh()), { timeoutMs: 5_000 });
    open.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
    vi.restoreAllMocks();
  });
  const needsServer = name === "PostgreSQL" && !postgresAvailable;

  it.skipIf(needsServer)("keeps spam aside with its reasons and no notification", async () => {
    const store = await openStore();
    const saved = await store.save(enquiry(1), ["email", "webhook"], new Date(), heldAs("form token missing"));
    const [listed] = await all(store);
    expect(listed).toMatchObject({ id: saved.id, status: "spam", spamReasons: ["form token missing"] });
    expect(listed!.notifications).toEqual([]);
    expect(await store.claimDue("test", 10)).toEqual([]);
  });

  it.skipIf(needsServer)("not-spam makes it new and creates its notifications once", async () => {
    const store = await openStore();
    const saved = await store.save(enquiry(1), ["email", "webhook"], new Date(), heldAs("hidden field filled"));
    expect(await store.decideSpam(saved.id, "not-spam", ["word"], ["email", "webhook"], "cli")).toBe("spam");
    expect(await store.decideSpam(saved.id, "not-spam", ["word"], ["email", "webhook"], "cli")).toBe("new");
    expect(await store.decideSpam("no-such-id", "not-spam", ["word"], ["email"], "cli")).toBeNull();
    const [listed] = await all(store);
    // The filter's verdict stays on record beside the owner's decision.
    expect(listed).toMatchObject({
      status: "new",
      spamVerdict: "spam",
      spamReasons: ["hidden field filled"],
      spamDecision: "not-spam",
    });
    expect(listed!.notifications.map((n) => `${n.channel} ${n.state}`)).toEqual(["email pending", "webhook pending"]);
    expect((await store.claimDue("test", 10)).length).toBe(2);
  });

  it.skipIf(needsServer)(
    "an erase takes the owner's decisions on that address back out of the model: none of its words stay counted",
    async () => {
      const store = await openStore();
      const kept = await store.save(enquiry(1), ["email"], new Date());
      const gone = await store.save({ ...enquiry(2), email: "erase.me@example.com" }, ["email"], new Date());
      const again = await store.save({ ...enquiry(3), email: "Erase.Me@example.com" }, ["email"], new Date());
      await store.decideSpam(kept.id, "spam", ["seo", "shared"], [], "cli");
      await store.decideSpam(gone.id, "spam", ["seo", "zqxwordofthegone"], [], "cli");
      await store.decideSpam(again.id, "not-spam", ["shared", "zqxotherword"], [], "cli");
      await store.erase("erase.me@example.com");
      const learned = await store.allSpamCounts();
      expect(learned.messages).toEqual({ spam: 1, ham: 0 });
      expect(Object.fromEntries(learned.tokens)).toEqual({ seo: { spam: 1, ham: 0 }, shared: { spam: 1, ham: 0 } });
    },
  );

  it.skipIf(needsServer)(
    "the owner's decisions count once each, a changed one is taken back, reset forgets",
    async () => {
      const store = await openStore();
      const one = await store.save(enquiry(1), ["email"], new Date());
      const two = await store.save(enquiry(2), ["email"], new Date());
      const counts = async () => {
        const learned = await store.allSpamCounts();
        return {
          messages: learned.messages,
          seo: learned.tokens.get("seo"),
          host: learned.tokens.get("host:x.example"),
        };
      };
      // A second apart each, so the activity log lists them in order (entries of one millisecond have no order).
      const second = (n: number) => new Date(Date.now() + n * 1000);
      expect(await store.decideSpam(one.id, "spam", ["seo", "host:x.example"], [], "cli", second(1))).toBe("new");
      expect(await store.decideSpam(one.id, "spam", ["seo", "host:x.example"], [], "cli", second(2))).toBe("spam");
      expect(await store.decideSpam(two.id, "spam", ["seo"], [], "owner@example.com", second(3))).toBe("new");
      expect(await counts()).toEqual({
        messages: { spam: 2, ham: 0 },
        seo: { spam: 2, ham: 0 },
        host: { spam: 1, ham: 0 },
      });
      // The owner changes their mind about the first: its spam count is taken back, a not-spam one added.
      expect(await store.decideSpam(one.id, "not-spam", ["seo", "host:x.example"], ["email"], "cli", second(4))).toBe(
        "spam",
      );
      expect(await counts()).toEqual({
        messages: { spam: 1, ham: 1 },
        seo: { spam: 1, ham: 1 },
        host: { spam: 0, ham: 1 },
      });
      expect((await store.spamCounts(["seo", "unknown"])).tokens).toEqual(new Map([["seo", { spam: 1, ham: 1 }]]));
      const entries = (await store.listActivity({ limit: 10 })).filter((entry) => entry.enquiryId === one.id);
      expect(entries.map((entry) => [entry.action, entry.detail])).toEqual([
        ["not-spam", "status spam -> new"],
        ["mark-spam", "status spam -> spam"],
        ["mark-spam", "status new -> spam"],
      ]);
      expect(await store.resetSpamModel()).toBe(2);
      expect(await counts()).toEqual({ messages: { spam: 0, ham: 0 }, seo: undefined, host: undefined });
      // Forgotten, so a later change of mind takes nothing back.
      expect((await store.getEnquiry(one.id))?.spamDecision).toBeNull();
      await store.decideSpam(one.id, "spam", ["seo"], [], "cli");
      expect(await counts()).toMatchObject({ messages: { spam: 1, ham: 0 }, seo: { spam: 1, ham: 0 } });
    },
  );

  it.skipIf(needsServer)("decisions at once on several connections all count", async () => {
    const location = await fresh();
    const [a, b] = [await openStore(location), await openStore(location)];
    const saved = await Promise.all(Array.from({ length: 12 }, (_, n) => a.save(enquiry(n), [], new Date())));
    await Promise.all(
      saved.map(({ id }, n) =>
        (n % 2 ? a : b).decideSpam(id, n % 3 ? "spam" : "not-spam", ["shared", `own${n}`], [], "t"),
      ),
    );
    const learned = await a.allSpamCounts();
    expect(learned.messages).toEqual({ spam: 8, ham: 4 });
    expect(learned.tokens.get("shared")).toEqual({ spam: 8, ham: 4 });
    expect(learned.tokens.size).toBe(13);
  });

  it.skipIf(needsServer)("a site key is made once and shared by every instance on the database", async () => {
    const location = await fresh();
    const [one, two] = [await openStore(location), await openStore(location)];
    const keys = await Promise.all([one.siteKey("form-token"), two.siteKey("form-token")]);
    expect(keys[0]!.length).toBe(32);
    expect(keys[0]!.equals(keys[1]!)).toBe(true);
    expect((await one.siteKey("other")).equals(keys[0]!)).toBe(false);
  });

  it.skipIf(needsServer)("a form token is accepted once across instances", async () => {
    const location = await fresh();
    const [one, two] = [await openStore(location), await openStore(location)];
    const served = new Date(Date.now() - 10_000);
    const token = await newFormToken(one, served);
    expect(await formTokenProblem(one, token)).toBeUndefined();
    expect(await formTokenProblem(two, token)).toBe("used");
    expect(await formTokenProblem(one, token)).toBe("used");
  });

  it.skipIf(needsServer)(
    "purges by age: enquiries after the retention, spam sooner, with notifications and activity",
    async () => {
      const store = await openStore();
      const now = new Date();
      const ago = (days: number) => new Date(now.getTime() - days * day);
      const old = await store.save(enquiry(1), ["email"], ago(400));
      const recent = await store.save(enquiry(2), ["email"], ago(300));
      await store.save(enquiry(3), ["email"], ago(40), heldAs("form token forged"));
      const freshSpam = await store.save(enquiry(4), ["email"], ago(5), heldAs("form token forged"));
      const revived = await store.save(enquiry(5), ["email"], ago(500), heldAs("hidden field filled"));
      await store.decideSpam(revived.id, "not-spam", [], ["email"], "cli", ago(500)); // an activity entry for an old one
      const result = await purgeOld(store, { retentionDays: 365, spamRetentionDays: 30 }, now);
      expect(result).toMatchObject({ enquiries: 2, spam: 1, notifications: 2, activity: 1 });
      expect((await all(store)).map((e) => e.id).sort()).toEqual([recent.id, freshSpam.id].sort());
      expect(old.id).toBeDefined();
      expect(await purgeOld(store, undefined, now)).toMatchObject({ enquiries: 0, spam: 0 });
    },
  );

  it.skipIf(needsServer)(
    "activity entries not tied to an enquiry (failed logins naming addresses, exports) expire with the retention",
    async () => {
      const store = await openStore();
      const now = new Date();
      const ago = (days: number) => new Date(now.getTime() - days * day);
      for (let n = 0; n < 20; n++)
        await store.logActivity(
          { actor: `guess${n}@example.com`, action: "login failed", detail: "from 203.0.113.9" },
          ago(400),
        );
      await store.logActivity({ actor: "owner@example.com", action: "exported CSV", detail: "folder all" }, ago(400));
      await store.logActivity({ actor: "owner@example.com", action: "erased", detail: "1 enquiries" }, ago(366));
      await store.logActivity(
        { actor: "owner@example.com", action: "logged in", detail: "from 203.0.113.9" },
        ago(364),
      );
      const result = await purgeOld(store, { retentionDays: 365, spamRetentionDays: 30 }, now);
      expect(result.activity).toBe(22);
      expect((await store.listActivity({ limit: 100 })).map((entry) => entry.action)).toEqual(["logged in"]);
    },
  );

  it.skipIf(needsServer)("an erase takes the failed logins typed with the address too, and scrubs", async () => {
    const location = await fresh();
    const store = await openStore(location);
    const errors = vi.spyOn(console, "error");
    await store.save(enquiry(1, "jane@example.com"), []);
    await store.logActivity({ actor: "Jane@Example.com ", action: "login failed", detail: "from 203.0.113.9" });
    await store.logActivity({
      actor: "jane@example.com",
      action: "login refused (throttled)",
      detail: "from 203.0.113.9",
    });
    await store.logActivity({ actor: "guess@example.com", action: "login failed", detail: "from 203.0.113.9" });
    await store.logActivity({ actor: "owner@example.com", action: "logged in", detail: "from 203.0.113.9" });
    expect(await store.erase("JANE@example.com")).toBe(1);
    expect((await store.listActivity({ limit: 100 })).map((entry) => entry.actor).sort()).toEqual([
      "guess@example.com",
      "owner@example.com",
    ]);
    // The scrub ran to the end (SQLite: the WAL truncated; PostgreSQL: VACUUM, outside a transaction).
    expect(errors.mock.calls.map((call) => String(call[0]))).not.toContainEqual(expect.stringMatching(/NOT SCRUBBED/));
    if (location.kind === "sqlite") expect(statSync(`${location.path}-wal`).size).toBe(0);
  });

  it.skipIf(name !== "PostgreSQL" || needsServer)(
    "two instances purging at once delete each row once (one at a time, by the advisory lock)",
    async () => {
      const location = await fresh();
      const [one, two] = [await openStore(location), await openStore(location)];
      for (let n = 0; n < 50; n++) await one.save(enquiry(n), ["email", "webhook"], new Date(Date.now() - 400 * day));
      const results = await Promise.all([purgeOld(one), purgeOld(two)]);
      expect(results.map((r) => r.enquiries).sort()).toEqual([0, 50]);
      expect(results.reduce((sum, r) => sum + r.notifications, 0)).toBe(100);
      expect(await all(one)).toEqual([]);
    },
  );

  it.skipIf(needsServer)("an erased address never comes back from the v1 import; others do", async () => {
    const store = await openStore();
    const records = [
      { receivedAt: "2026-10-01T10:00:00.000Z", ...enquiry(1, "Jane@Example.com") },
      { receivedAt: "2026-10-02T10:00:00.000Z", ...enquiry(2) },
    ];
    expect(await store.importV1(records)).toBe(2);
    expect(await store.erase("jane@example.com")).toBe(1);
    expect(await store.importV1(records)).toBe(0);
    expect((await all(store)).map((e) => e.email)).toEqual(["visitor2@example.com"]);
    // Someone erased who writes again through the form is stored: they asked us to.
    await store.save(enquiry(3, "jane@example.com"), []);
    expect((await all(store)).length).toBe(2);
  });

  it.skipIf(needsServer)(
    "the v1 file: bad lines skipped by line number, the file remembered and not read again",
    async () => {
      const store = await openStore();
      const file = temp.file("enquiries.jsonl");
      const lines = [
        JSON.stringify({ receivedAt: "2026-10-01T10:00:00.000Z", ...enquiry(1) }),
        "not json",
        JSON.stringify({ receivedAt: "2026-10-01T11:00:00.000Z", ...enquiry(2, "not-an-address") }),
        JSON.stringify({ receivedAt: "yesterday", ...enquiry(3) }),
        JSON.stringify({ receivedAt: "2026-10-01T12:00:00.000Z", ...enquiry(4), name: "  " }),
        JSON.stringify({ receivedAt: "2026-10-01T13:00:00.000Z", ...enquiry(5) }),
      ];
      await writeFile(file, `${lines.join("\n")}\n`);
      const mtime = new Date("2026-10-02T00:00:00Z"); // a whole second: set back exactly below
      await utimes(file, mtime, mtime);
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      vi.spyOn(console, "log").mockImplementation(() => {});
      expect(await importV1Inbox(store, file)).toBe(2);
      const logged = errors.mock.calls.map((call) => String(call[0]));
      expect(logged).toEqual([
        `inbox: ${file}:2: not imported: not JSON`,
        `inbox: ${file}:3: not imported: email: Please enter a valid e-mail address.`,
        `inbox: ${file}:4: not imported: receivedAt: not a date`,
        `inbox: ${file}:5: not imported: name: Please enter your name.`,
      ]);

      // Same size and time: not read at all (new content of the same length, its time put back, is not imported).
      const original = await readFile(file, "utf8");
      const swapped = original.replace("number 5", "number 6");
      await writeFile(file, swapped);
      await utimes(file, mtime, mtime);
      expect(await importV1Inbox(store, file)).toBe(0);
      expect((await all(store)).map((e) => e.message)).not.toContain("I need a prop, number 6.");

      // The same content with a new time: hashed, recognised, not imported again.
      await writeFile(file, original);
      expect(await importV1Inbox(store, file)).toBe(0);
      expect((await all(store)).length).toBe(2);
    },
  );
});

describe("the form token", () => {
  const key = Buffer.alloc(32, 7);
  const served = new Date("2026-11-24T12:00:00Z");
  const at = (ms: number) => new Date(served.getTime() + ms);

  it("a genuine token posted after a few seconds checks out", () => {
    const check = checkFormToken(issueFormToken(key, served), key, at(5_000));
    expect(check.problem).toBeUndefined();
    expect(check.id).toMatch(/^[\w-]{16}$/);
  });

  it("missing, forged, too fast, older than 24 h", () => {
    const token = issueFormToken(key, served);
    expect(checkFormToken(undefined, key, at(5_000)).problem).toBe("missing");
    expect(checkFormToken("", key, at(5_000)).problem).toBe("missing");
    expect(checkFormToken("garbage", key, at(5_000)).problem).toBe("forged");
    expect(checkFormToken(issueFormToken(Buffer.alloc(32, 8), served), key, at(5_000)).problem).toBe("forged");
    const [time, id, mac] = token.split(".");
    expect(checkFormToken(`${Number(time) - 60_000}.${id}.${mac}`, key, at(5_000)).problem).toBe("forged");
    expect(checkFormToken(token, key, at(2_000)).problem).toBe("too-fast");
    expect(checkFormToken(token, key, at(24 * 60 * 60_000 + 1)).problem).toBe("expired");
  });
});
