import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createEmailChannel } from "~/notify/channels/email.server";
import { createWebhookChannel } from "~/notify/channels/webhook.server";
import { createOutbox, firstRetryMs, type Outbox, type OutboxOptions } from "~/notify/outbox-round.server";
import type { DatabaseLocation } from "~/config.server";
import { claimLeaseMs } from "~/store/notifications.server";
import { openInboxStore } from "~/store/store.server";
import type { Channel, ListedEnquiry, NotificationSummary } from "~/store/records";
import type { InboxStore } from "~/store/store.types";
import { postgresAvailable, startPostgres, type TestPostgres } from "../support/postgres";
import { waitFor } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { numberedEnquiry } from "../support/enquiry";

/**
 * The outbox against the real store (SQLite files in temp dirs, and a throwaway PostgreSQL when installed), a real
 * SMTP server and a real webhook receiver on 127.0.0.1.
 */

const temp = useTempDir("haunt-outbox-");
const owners = ["owner@grimforge.example", "workshop@grimforge.example"];
const from = "site@grimforge.example";

let sink: SmtpSink;
let receiver: WebhookReceiver;
let postgres: TestPostgres | undefined;
beforeAll(async () => {
  sink = await startSmtpSink();
  receiver = await startWebhookReceiver();
  if (postgresAvailable) postgres = await startPostgres();
});
afterAll(async () => {
  await sink.stop();
  await receiver.stop();
  postgres?.stop();
});

const backends: { name: string; fresh: () => Promise<DatabaseLocation> }[] = [
  { name: "SQLite", fresh: async () => ({ kind: "sqlite", path: temp.file("enquiries.db") }) },
  { name: "PostgreSQL", fresh: async () => ({ kind: "postgres", url: await postgres!.createDatabase() }) },
];

let counter = 0;
const enquiry = () => numberedEnquiry(++counter);

async function listAll(store: InboxStore): Promise<ListedEnquiry[]> {
  const items: ListedEnquiry[] = [];
  for await (const item of store.list()) items.push(item);
  return items;
}

async function notification(store: InboxStore, id: string, channel: Channel): Promise<NotificationSummary | undefined> {
  const item = (await listAll(store)).find((e) => e.id === id);
  return item?.notifications.find((n) => n.channel === channel);
}

describe.each(backends)("the outbox on $name", ({ name, fresh }) => {
  const needsServer = name === "PostgreSQL" && !postgresAvailable;
  const stores: InboxStore[] = [];
  const outboxes: Outbox[] = [];
  const openStore = async (location: DatabaseLocation, timeoutMs = 5_000) => {
    const store = await openInboxStore(location, { timeoutMs });
    stores.push(store);
    return store;
  };
  const emailChannel = () => createEmailChannel({ smtpUrl: sink.url, to: owners, from });
  const webhookChannel = () => createWebhookChannel(receiver.url);
  const startOutbox = (options: OutboxOptions) => {
    const outbox = createOutbox({ pollMs: 200, ...options });
    outboxes.push(outbox);
    outbox.start();
    return outbox;
  };
  // The outbox's log lines are recorded (some tests read them), not printed.
  beforeEach(() => {
    vi.spyOn(console, "log").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(async () => {
    await Promise.all(outboxes.splice(0).map((o) => o.stop()));
    await Promise.all(stores.splice(0).map((s) => s.close()));
    sink.setMode("accept");
    receiver.setMode("accept");
    await sink.start();
    await receiver.start();
    vi.restoreAllMocks();
  });

  it.skipIf(needsServer)("delivers a stored enquiry's e-mail and webhook at once when woken, each once", async () => {
    const store = await openStore(await fresh());
    const outbox = startOutbox({ store, channels: [emailChannel(), webhookChannel()], pollMs: 60_000 });
    await new Promise((r) => setTimeout(r, 100)); // let it settle into its (long) sleep
    const { id } = await store.save(enquiry(), ["email", "webhook"]);
    const started = Date.now();
    outbox.wake();
    await waitFor(
      async () =>
        (await notification(store, id, "webhook"))?.state === "sent" &&
        (await notification(store, id, "email"))?.state === "sent",
      "both sent",
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(sink.forEnquiry(id)).toHaveLength(1);
    expect(sink.forEnquiry(id)[0]!.envelope.to).toEqual(owners);
    expect(receiver.forEnquiry(id)).toHaveLength(1);
    expect(await notification(store, id, "email")).toEqual({
      channel: "email",
      state: "sent",
      attempts: 1,
      lastError: null,
      nextAttemptAt: null,
      sentAt: expect.any(Date),
    });
  });

  it.skipIf(needsServer)("SMTP down when the enquiry is stored, then up: delivered once, after a retry", async () => {
    const store = await openStore(await fresh());
    await sink.stop();
    const { id } = await store.save(enquiry(), ["email"]);
    startOutbox({ store, channels: [emailChannel()] });
    await waitFor(
      async () =>
        ((await notification(store, id, "email"))?.attempts ?? 0) >= 1 &&
        (await notification(store, id, "email"))?.lastError !== null,
      "a failed attempt",
    );
    const failed = await notification(store, id, "email");
    expect(failed?.state).toBe("pending");
    expect(failed?.lastError).toMatch(/ECONNREFUSED/);
    await sink.start();
    await waitFor(
      async () => (await notification(store, id, "email"))?.state === "sent",
      "the e-mail sent",
      firstRetryMs + 5_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.forEnquiry(id)).toHaveLength(1);
  });

  it.skipIf(needsServer)(
    "a webhook failing with 500 then recovering: delivered once, the failures recorded",
    async () => {
      const store = await openStore(await fresh());
      receiver.setMode({ status: 500 });
      const log = vi.mocked(console.log);
      const { id } = await store.save(enquiry(), ["webhook"]);
      startOutbox({ store, channels: [webhookChannel()] });
      await waitFor(
        async () => (await notification(store, id, "webhook"))?.lastError?.includes("HTTP 500") ?? false,
        "a failed attempt",
      );
      receiver.setMode("accept");
      await waitFor(
        async () => (await notification(store, id, "webhook"))?.state === "sent",
        "the webhook sent",
        firstRetryMs + 5_000,
      );
      expect(receiver.forEnquiry(id)).toHaveLength(1);
      const retries = log.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('"outcome":"retry"'));
      expect(retries.length).toBeGreaterThanOrEqual(1);
      expect(JSON.parse(retries[0]!)).toMatchObject({
        event: "notification",
        enquiryId: id,
        channel: "webhook",
        attempts: 1,
      });
    },
  );

  it.skipIf(needsServer)(
    "gives up a day after the enquiry was stored: failed, one loud line, no message text; retry sends it",
    async () => {
      const store = await openStore(await fresh());
      receiver.setMode({ status: 503 });
      const errors = vi.mocked(console.error);
      const item = { ...enquiry(), message: "the secret words of the visitor" };
      const { id } = await store.save(item, ["webhook"], new Date(Date.now() - 24 * 60 * 60_000 - 1_000));
      startOutbox({ store, channels: [webhookChannel()] });
      await waitFor(
        async () => (await notification(store, id, "webhook"))?.state === "failed",
        "the notification failed",
      );
      const lines = errors.mock.calls.map(([line]) => String(line)).filter((line) => line.includes(id));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        event: "notification",
        outcome: "failed",
        enquiryId: id,
        channel: "webhook",
      });
      expect(lines[0]).toContain("HTTP 503");
      expect(lines[0]).not.toContain("secret words");
      expect(lines[0]).not.toContain(item.email);
      expect(receiver.forEnquiry(id)).toHaveLength(0);

      // The operator fixes the cause and runs `npm run inbox -- retry`.
      receiver.setMode("accept");
      expect(await store.retryFailed()).toBe(1);
      await waitFor(async () => (await notification(store, id, "webhook"))?.state === "sent", "sent after the retry");
      expect(receiver.forEnquiry(id)).toHaveLength(1);
    },
  );

  it.skipIf(needsServer)(
    "two outboxes (two owners, two connections) on one database never deliver a notification twice",
    async () => {
      const location = await fresh();
      // What this test checks is "never twice", not latency: on a loaded machine 40 saves racing two outboxes' claims
      // can wait longer than the usual 5 s.
      const [storeA, storeB] = [await openStore(location, 20_000), await openStore(location, 20_000)];
      startOutbox({
        store: storeA,
        channels: [emailChannel(), webhookChannel()],
        owner: "a",
        maxInFlight: 3,
        pollMs: 20,
      });
      startOutbox({
        store: storeB,
        channels: [emailChannel(), webhookChannel()],
        owner: "b",
        maxInFlight: 3,
        pollMs: 20,
      });
      const ids = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? storeA : storeB).save(enquiry(), ["email", "webhook"])),
      );
      await waitFor(
        async () => (await listAll(storeA)).every((e) => e.notifications.every((n) => n.state === "sent")),
        "every notification sent",
        20_000,
      );
      await new Promise((r) => setTimeout(r, 500));
      for (const { id } of ids) {
        expect(sink.forEnquiry(id)).toHaveLength(1);
        expect(receiver.forEnquiry(id)).toHaveLength(1);
      }
    },
  );

  it.skipIf(needsServer)(
    "takes over a claim held by an owner that died once its lease has expired, not before",
    async () => {
      const store = await openStore(await fresh());
      const { id } = await store.save(enquiry(), ["email"]);
      const [deadClaim] = await store.claimDue("dead-process", 10);
      expect(deadClaim?.enquiry.id).toBe(id);

      let offsetMs = 0;
      const outbox = startOutbox({ store, channels: [emailChannel()], now: () => new Date(Date.now() + offsetMs) });
      await new Promise((r) => setTimeout(r, 800));
      expect(sink.forEnquiry(id)).toHaveLength(0);

      offsetMs = claimLeaseMs + 1_000; // the lease has run out
      outbox.wake();
      await waitFor(async () => (await notification(store, id, "email"))?.state === "sent", "sent by the new owner");
      expect(sink.forEnquiry(id)).toHaveLength(1);
      // The dead owner's claim settles nothing any more.
      expect(await store.markSent(deadClaim!)).toBe(false);
      expect(await notification(store, id, "email")).toMatchObject({ state: "sent", attempts: 2 });
    },
  );

  it.skipIf(needsServer)(
    "stop() gives up on a stalled send within its grace; the claim is then taken over and sent once",
    async () => {
      const location = await fresh();
      const store = await openStore(location);
      receiver.setMode("stall");
      const { id } = await store.save(enquiry(), ["webhook"]);
      const first = startOutbox({ store, channels: [webhookChannel()], stopGraceMs: 500 });
      await waitFor(() => receiver.attempts() > 0, "the stalled post");
      const started = Date.now();
      await first.stop();
      expect(Date.now() - started).toBeLessThan(2_000);
      // Cut short by the stop: still pending, not counted as a failure.
      expect(await notification(store, id, "webhook")).toMatchObject({ state: "pending", lastError: null });

      receiver.setMode("accept");
      startOutbox({
        store,
        channels: [webhookChannel()],
        owner: "next",
        now: () => new Date(Date.now() + claimLeaseMs + 1_000),
      });
      await waitFor(
        async () => (await notification(store, id, "webhook"))?.state === "sent",
        "sent by the next process",
      );
      expect(receiver.forEnquiry(id)).toHaveLength(1);
    },
  );

  // PostgreSQL only (a database server that goes away): not listed as a skipped test on SQLite.
  if (name === "PostgreSQL")
    it.skipIf(needsServer)(
      "the database stops and comes back: the outbox says so once, then delivers what was stored before",
      { timeout: 60_000 },
      async () => {
        const store = await openStore(await fresh());
        const { id } = await store.save(enquiry(), ["webhook"]);
        receiver.setMode({ status: 500 }); // keep it pending until the database is gone
        startOutbox({ store, channels: [webhookChannel()] });
        await waitFor(
          async () => (await notification(store, id, "webhook"))?.lastError?.includes("HTTP 500") ?? false,
          "a first, failed attempt",
        );
        postgres!.stopServer();
        try {
          receiver.setMode("accept");
          await new Promise((r) => setTimeout(r, 8_000)); // several polls against a database that is down
        } finally {
          postgres!.startServer();
        }
        await waitFor(
          async () => (await notification(store, id, "webhook").catch(() => undefined))?.state === "sent",
          "sent after the restart",
          20_000,
        );
        expect(receiver.forEnquiry(id)).toHaveLength(1);
        const claimErrors = vi
          .mocked(console.error)
          .mock.calls.filter(([line]) => String(line).includes("could not claim"));
        expect(claimErrors.length).toBeGreaterThanOrEqual(1);
        expect(claimErrors.length).toBeLessThanOrEqual(2);
      },
    );
});
