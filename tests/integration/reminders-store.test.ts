import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseLocation, NotifyConfig } from "~/config.server";
import { createReminderRound } from "~/notify/reminder.server";
import { openPostgres } from "~/store/postgres.server";
import { reminderLeaseMs } from "~/store/reminders.server";
import type { ReminderClock } from "~/store/reminders.types";
import { openSqlite } from "~/store/sqlite.server";
import type { SqlClient } from "~/store/sql.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * The owner's reminders in the store on SQLite and PostgreSQL, with an injected clock: set (the day checked in
 * SITE_TIMEZONE, due at REMINDER_HOUR of it), moved, marked done, each with its timeline line and activity entry;
 * "Due today"; claimed under a lease and settled by its holder. Then two sender rounds on two connections to one
 * PostgreSQL database, at a fixed moment on the due day, deliver a reminder exactly once on each channel.
 */

const temp = useTempDir("haunt-reminders-store-");
let postgres: TestDatabases | undefined;
beforeAll(async () => {
  if (postgresAvailable) postgres = await sharedPostgres();
});
afterAll(() => postgres?.stop());

const backends: { name: string; fresh: () => Promise<DatabaseLocation> }[] = [
  { name: "SQLite", fresh: async () => ({ kind: "sqlite", path: temp.file("enquiries.db") }) },
  { name: "PostgreSQL", fresh: async () => ({ kind: "postgres", url: await postgres!.createDatabase() }) },
];

/** 08:00 in Berlin; "now" is Friday 27 November 2026, 11:00 there (10:00 UTC). */
const clock: ReminderClock = { hour: 8, timeZone: "Europe/Berlin" };
const now = new Date("2026-11-27T10:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);
const actor = "owner@grimforge.example";

const customer = { name: "Ann Lee", email: "ann@example.com", message: "A werewolf for the porch, please." };

describe.each(backends)("reminders in the store on $name", ({ name, fresh }) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((item) => item.close()));
  });
  const needsServer = name === "PostgreSQL" && !postgresAvailable;

  async function openBoth(): Promise<{ store: InboxStore; db: SqlClient }> {
    const location = await fresh();
    const store = await openInboxStore(location, { timeoutMs: 5_000 });
    open.push(store);
    const db =
      location.kind === "sqlite"
        ? openSqlite(location.path, { timeoutMs: 5_000 })
        : openPostgres(location.url, { timeoutMs: 5_000 });
    open.push(db);
    return { store, db };
  }

  const timeline = async (db: SqlClient, enquiryId: string) =>
    (
      await db.query(
        "SELECT actor, detail FROM enquiry_events WHERE enquiry_id = ? AND kind = 'reminder' ORDER BY at",
        [enquiryId],
      )
    ).map((row) => ({ actor: row.actor, ...JSON.parse(String(row.detail)) }));
  const activity = async (db: SqlClient, enquiryId: string) =>
    (
      await db.query(
        "SELECT action, detail FROM activity WHERE enquiry_id = ? AND action LIKE 'reminder%' ORDER BY at",
        [enquiryId],
      )
    ).map((row) => `${String(row.action)} ${String(row.detail)}`);

  it.skipIf(needsServer)(
    "sets one for a day (refusing a past or unreadable one), moves it, marks it done, each on the timeline",
    async () => {
      const { store, db } = await openBoth();
      const { id } = await store.save(customer, [], later(-60_000));
      expect(await store.addReminder(id, "2026-11-26", actor, clock, now)).toBe("past");
      expect(await store.addReminder(id, "2026-02-30", actor, clock, now)).toBe("bad-date");
      expect(await store.addReminder(id, "tomorrow", actor, clock, now)).toBe("bad-date");
      expect(await store.addReminder("no-such-enquiry", "2026-11-28", actor, clock, now)).toBe("not-found");

      const tomorrow = await store.addReminder(id, "2026-11-28", actor, clock, now);
      expect(tomorrow).toMatchObject({ dueOn: "2026-11-28", state: "pending", attempts: 0, createdBy: actor });
      if (typeof tomorrow === "string") throw new Error(tomorrow);
      expect(tomorrow.dueAt.toISOString()).toBe("2026-11-28T07:00:00.000Z");
      // Today, after its hour (11:00 > 08:00): due at once.
      const today = await store.addReminder(id, "2026-11-27", actor, clock, now);
      if (typeof today === "string") throw new Error(today);
      expect(today.dueAt).toEqual(now);
      // Just before midnight in Berlin it is already the 28th there: the 27th has passed.
      expect(await store.addReminder(id, "2026-11-27", actor, clock, new Date("2026-11-27T23:30:00Z"))).toBe("past");

      expect((await store.remindersOf(id)).map((reminder) => reminder.dueOn)).toEqual(["2026-11-27", "2026-11-28"]);
      expect(await store.remindersDueBy("2026-11-27")).toEqual([
        { id: today.id, enquiryId: id, dueOn: "2026-11-27", name: "Ann Lee" },
      ]);

      const moved = await store.moveReminder(id, tomorrow.id, "2026-12-01", actor, clock, now);
      expect(moved).toMatchObject({ dueOn: "2026-12-01", state: "pending", attempts: 0 });
      if (typeof moved === "string") throw new Error(moved);
      expect(moved.dueAt.toISOString()).toBe("2026-12-01T07:00:00.000Z");
      expect(await store.moveReminder(id, tomorrow.id, "2026-11-20", actor, clock, now)).toBe("past");
      expect(await store.moveReminder("other", tomorrow.id, "2026-12-02", actor, clock, now)).toBe("not-found");

      expect(await store.markReminderDone(id, today.id, actor, later(1_000))).toBe(true);
      expect(await store.markReminderDone(id, today.id, actor, later(2_000))).toBe(false);
      expect(await store.moveReminder(id, today.id, "2026-12-02", actor, clock, later(3_000))).toBe("not-found");
      expect(await store.remindersDueBy("2026-11-27")).toEqual([]);
      // An open one stays in "Due today" from its day on until it is done.
      expect((await store.remindersDueBy("2026-12-05")).map((reminder) => reminder.id)).toEqual([tomorrow.id]);

      expect(await timeline(db, id)).toEqual([
        { actor, action: "set", dueOn: "2026-11-28" },
        { actor, action: "set", dueOn: "2026-11-27" },
        { actor, action: "moved", dueOn: "2026-12-01" },
        { actor, action: "done", dueOn: "2026-11-27" },
      ]);
      expect(await activity(db, id)).toEqual([
        "reminder set 2026-11-28",
        "reminder set 2026-11-27",
        "reminder moved 2026-12-01",
        "reminder done 2026-11-27",
      ]);
    },
  );

  it.skipIf(needsServer)("is claimed once it is due, by one holder at a time, and settled by that holder", async () => {
    const { store, db } = await openBoth();
    const { id } = await store.save(customer, [], later(-60_000));
    const dayBefore = new Date("2026-11-26T10:00:00Z");
    const set = await store.addReminder(id, "2026-11-27", actor, clock, dayBefore);
    if (typeof set === "string") throw new Error(set);
    expect(set.dueAt.toISOString()).toBe("2026-11-27T07:00:00.000Z");
    expect(await store.nextReminderAt()).toEqual(set.dueAt);
    expect(await store.claimReminders(10, new Date("2026-11-27T06:59:59Z"))).toEqual([]);

    const [claim] = await store.claimReminders(10, set.dueAt);
    expect(claim).toMatchObject({ id: set.id, enquiryId: id, dueOn: "2026-11-27", name: "Ann Lee", attempts: 1 });
    // Held: nobody else gets it until the lease runs out.
    expect(await store.claimReminders(10, new Date(set.dueAt.getTime() + 1_000))).toEqual([]);
    expect(await store.markReminderRetry(claim!, "HTTP 503: busy", new Date("2026-11-27T07:00:10Z"))).toBe(true);
    expect(await store.markReminderSent(claim!, now)).toBe(false); // settled already: the claim is gone

    const [again] = await store.claimReminders(10, new Date("2026-11-27T07:00:10Z"));
    expect(again).toMatchObject({ id: set.id, attempts: 2 });
    // Its holder died: the lease runs out and another takes it over; the first holder can no longer settle it.
    const [takeover] = await store.claimReminders(10, new Date(again!.claimUntil.getTime()));
    expect(takeover).toMatchObject({ id: set.id, attempts: 3 });
    expect(await store.markReminderSent(again!, now)).toBe(false);
    expect(await store.markReminderSent(takeover!, now)).toBe(true);
    expect(await store.claimReminders(10, later(reminderLeaseMs * 10))).toEqual([]);
    expect(await store.nextReminderAt()).toBeNull();
    expect(await store.remindersOf(id)).toEqual([
      expect.objectContaining({ state: "sent", sentAt: now, lastError: null, attempts: 3 }),
    ]);
    expect(await timeline(db, id)).toEqual([
      { actor, action: "set", dueOn: "2026-11-27" },
      { actor: "site", action: "sent", dueOn: "2026-11-27" },
    ]);

    // Moved after it went out: due again on the new day, from the first attempt.
    const moved = await store.moveReminder(id, set.id, "2026-11-30", actor, clock, now);
    expect(moved).toMatchObject({ state: "pending", attempts: 0, sentAt: null });
    expect(await store.claimReminders(10, later(60_000))).toEqual([]);
    const [movedClaim] = await store.claimReminders(10, new Date("2026-11-30T07:00:00Z"));
    expect(movedClaim).toMatchObject({ id: set.id, dueOn: "2026-11-30", attempts: 1 });
    expect(await store.markReminderSent(movedClaim!, new Date("2026-11-30T07:00:01Z"))).toBe(true);

    // Marked done before its day: never sent.
    const other = await store.addReminder(id, "2026-11-28", actor, clock, now);
    if (typeof other === "string") throw new Error(other);
    expect(await store.markReminderDone(id, other.id, actor, now)).toBe(true);
    expect(await store.claimReminders(10, new Date("2026-11-29T00:00:00Z"))).toEqual([]);

    // Refused for good (settleSend's permanent failure): failed, with the reason.
    const failing = await store.addReminder(id, "2026-12-05", actor, clock, now);
    if (typeof failing === "string") throw new Error(failing);
    const [last] = await store.claimReminders(10, new Date("2026-12-05T07:00:00Z"));
    expect(last).toMatchObject({ id: failing.id });
    expect(await store.markReminderFailed(last!, "HTTP 404: gone")).toBe(true);
    expect((await store.remindersOf(id)).find((reminder) => reminder.id === failing.id)).toMatchObject({
      state: "failed",
      lastError: "HTTP 404: gone",
    });
  });
});

describe.skipIf(!postgresAvailable)("two senders on one PostgreSQL database, with an injected clock", () => {
  let sink: SmtpSink;
  let receiver: WebhookReceiver;
  const open: { close(): Promise<void> | void }[] = [];
  beforeAll(async () => {
    [sink, receiver] = await Promise.all([startSmtpSink(), startWebhookReceiver()]);
  });
  afterAll(async () => {
    await Promise.all([sink?.stop(), receiver?.stop()]);
  });
  beforeEach(() => {
    sink.messages.splice(0);
    receiver.posts.splice(0);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((item) => item.close()));
  });

  it("retries only the channel that failed: the one that took it gets it once", { timeout: 30_000 }, async () => {
    const url = await postgres!.createDatabase();
    const store = await openInboxStore({ kind: "postgres", url }, { timeoutMs: 5_000 });
    open.push(store);
    const { id } = await store.save(customer, [], new Date("2026-11-20T09:00:00Z"));
    const set = await store.addReminder(id, "2026-11-27", actor, clock, new Date("2026-11-20T10:00:00Z"));
    if (typeof set === "string") throw new Error(set);
    const notify: NotifyConfig = {
      email: { smtpUrl: sink.url, to: ["owner@grimforge.example"], from: "site@grimforge.example" },
      webhookUrl: receiver.url,
      webhookFormat: "json",
    };
    const round = createReminderRound({ store, notify, publicUrl: "https://haunt.example" });
    open.push(round);
    const signal = new AbortController().signal;
    // The chat service is down on the day; the mail server takes it.
    receiver.setMode({ status: 503 });
    const onTheDay = new Date("2026-11-27T07:00:05Z");
    await round.run(signal, onTheDay);
    expect(sink.messages).toHaveLength(1);
    expect(receiver.posts).toHaveLength(0);
    const [pending] = await store.remindersOf(id);
    expect(pending).toMatchObject({ state: "pending", attempts: 1 });
    // The chat service is back; at the retry only it is sent to.
    receiver.setMode("accept");
    await round.run(signal, new Date(pending!.nextAttemptAt.getTime() + 1_000));
    expect(receiver.posts).toHaveLength(1);
    expect(sink.messages).toHaveLength(1);
    expect(await store.remindersOf(id)).toEqual([expect.objectContaining({ state: "sent", attempts: 2 })]);
    // Moved to another day: owed on every channel again.
    const moved = await store.moveReminder(id, set.id, "2026-11-30", actor, clock, new Date("2026-11-28T10:00:00Z"));
    expect(typeof moved).not.toBe("string");
    await round.run(signal, new Date("2026-11-30T07:00:05Z"));
    expect(sink.messages).toHaveLength(2);
    expect(receiver.posts).toHaveLength(2);
  });

  it("deliver a reminder exactly once on its day, on each channel, and never again", { timeout: 30_000 }, async () => {
    const url = await postgres!.createDatabase();
    const [first, second] = await Promise.all(
      [0, 1].map(() => openInboxStore({ kind: "postgres", url }, { timeoutMs: 5_000 })),
    );
    open.push(first!, second!);
    const { id } = await first!.save(
      { ...customer, name: "Ann\u0007 Lee\n<@everyone>" },
      [],
      new Date("2026-11-20T09:00:00Z"),
    );
    const set = await first!.addReminder(id, "2026-11-27", actor, clock, new Date("2026-11-20T10:00:00Z"));
    if (typeof set === "string") throw new Error(set);

    const notify: NotifyConfig = {
      email: { smtpUrl: sink.url, to: ["owner@grimforge.example"], from: "site@grimforge.example" },
      webhookUrl: receiver.url,
      webhookFormat: "json",
    };
    const rounds = [first!, second!].map((store) =>
      createReminderRound({ store, notify, publicUrl: "https://haunt.example" }),
    );
    open.push(...rounds);
    const signal = new AbortController().signal;

    // The evening before (in Berlin): nothing yet.
    await Promise.all(rounds.map((round) => round.run(signal, new Date("2026-11-26T22:59:00Z"))));
    expect(sink.messages).toEqual([]);
    expect(receiver.posts).toEqual([]);

    // On the day, a few seconds after 08:00 there: both rounds at once, then both again.
    const onTheDay = new Date("2026-11-27T07:00:05Z");
    await Promise.all(rounds.map((round) => round.run(signal, onTheDay)));
    await Promise.all(rounds.map((round) => round.run(signal, new Date(onTheDay.getTime() + 60_000))));

    expect(sink.messages).toHaveLength(1);
    const [mail] = sink.messages;
    expect(mail!.headers.get("subject")).toEqual(["Reminder: Ann Lee <@everyone>"]);
    expect(mail!.headers.get("x-reminder")).toEqual([set.id]);
    expect(mail!.envelope.to).toEqual(["owner@grimforge.example"]);
    expect(mail!.text).toContain(`https://haunt.example/inbox/${id}`);
    expect(mail!.text).not.toContain("\u0007");

    expect(receiver.posts).toHaveLength(1);
    const body = receiver.posts[0]!.json as { text: string; reminder: Record<string, string> };
    expect(body.reminder).toEqual({
      id: set.id,
      enquiryId: id,
      dueOn: "2026-11-27",
      name: "Ann Lee <@everyone>",
      url: `https://haunt.example/inbox/${id}`,
    });
    // In the chat text the name is escaped: it mentions nobody.
    expect(body.text).toContain("Reminder: Ann Lee &lt;@everyone&gt;");

    expect(await second!.remindersOf(id)).toEqual([
      expect.objectContaining({ state: "sent", attempts: 1, sentAt: onTheDay }),
    ]);
    // A fresh sender (a restart) on the same database the next day: nothing goes out again.
    const restarted = createReminderRound({ store: second!, notify, publicUrl: "https://haunt.example" });
    open.push(restarted);
    await restarted.run(signal, new Date("2026-11-28T07:00:05Z"));
    expect(sink.messages).toHaveLength(1);
    expect(receiver.posts).toHaveLength(1);
  });
});
