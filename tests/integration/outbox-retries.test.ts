import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createWebhookChannel } from "~/notify/channels/webhook.server";
import { createOutbox, type Outbox, type OutboxOptions } from "~/notify/outbox-round.server";
import { openInboxStore } from "~/store/store.server";
import type { ListedEnquiry, NotificationSummary } from "~/store/records";
import type { InboxStore } from "~/store/store.types";
import { waitFor } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * Retries against a webhook receiver that answers as the services do when they refuse or ask for a pause: the outbox
 * on a real SQLite store, the receiver a real HTTP server on 127.0.0.1.
 */

const temp = useTempDir("haunt-outbox-retries-");
let receiver: WebhookReceiver;
const stores: InboxStore[] = [];
const outboxes: Outbox[] = [];

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.stop());
beforeEach(() => {
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(async () => {
  await Promise.all(outboxes.splice(0).map((o) => o.stop()));
  await Promise.all(stores.splice(0).map((s) => s.close()));
  receiver.setMode("accept");
  receiver.setDelay(0);
  vi.restoreAllMocks();
});

async function freshStore(): Promise<InboxStore> {
  const store = await openInboxStore({ kind: "sqlite", path: temp.file("enquiries.db") }, { timeoutMs: 10_000 });
  stores.push(store);
  return store;
}

function startOutbox(options: Omit<OutboxOptions, "channels">): Outbox {
  const outbox = createOutbox({ channels: [createWebhookChannel(receiver.url, "json")], pollMs: 200, ...options });
  outboxes.push(outbox);
  outbox.start();
  return outbox;
}

let counter = 0;
const enquiry = () => {
  counter += 1;
  return { name: `Visitor ${counter}`, email: `v${counter}@example.com`, message: `A coffin prop (${counter}).` };
};

async function listAll(store: InboxStore): Promise<ListedEnquiry[]> {
  const items: ListedEnquiry[] = [];
  for await (const item of store.list()) items.push(item);
  return items;
}

async function webhookOf(store: InboxStore, id: string): Promise<NotificationSummary | undefined> {
  return (await listAll(store)).find((e) => e.id === id)?.notifications.find((n) => n.channel === "webhook");
}

describe("answers that say: never", () => {
  it.each([
    [404, '{"message": "Unknown Webhook", "code": 10015}', "Unknown Webhook"],
    [410, "channel_is_archived", "channel_is_archived"],
    [
      400,
      '{"error": {"code": 400, "message": "Invalid JSON payload received.", "status": "INVALID_ARGUMENT"}}',
      "Invalid JSON payload received.",
    ],
  ])("HTTP %i fails the notification at the first attempt, with the service's words", async (status, body, words) => {
    const store = await freshStore();
    receiver.setMode({ status, body });
    const before = receiver.attempts();
    const { id } = await store.save(enquiry(), ["webhook"]);
    startOutbox({ store });
    await waitFor(async () => (await webhookOf(store, id))?.state === "failed", "the notification failed");
    expect(await webhookOf(store, id)).toEqual({
      channel: "webhook",
      state: "failed",
      attempts: 1,
      lastError: `webhook at 127.0.0.1:${receiver.port} answered HTTP ${status}: ${words}`,
      nextAttemptAt: null,
      sentAt: null,
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.attempts() - before).toBe(1);
    const loud = vi
      .mocked(console.error)
      .mock.calls.map(([line]) => String(line))
      .filter((l) => l.includes(id));
    expect(JSON.parse(loud[0]!)).toMatchObject({ outcome: "failed", permanent: true });
  });
});

describe("answers that say: later", () => {
  it("a 503 with Retry-After as an HTTP date: the next try is not before that date", async () => {
    const store = await freshStore();
    const retryAt = new Date(Date.now() + 4_000);
    retryAt.setMilliseconds(0);
    receiver.setMode({ status: 503, headers: { "Retry-After": retryAt.toUTCString() } });
    const { id } = await store.save(enquiry(), ["webhook"]);
    startOutbox({ store });
    await waitFor(
      async () =>
        ((await webhookOf(store, id))?.attempts ?? 0) === 1 && (await webhookOf(store, id))?.lastError !== null,
      "a first attempt",
    );
    const pending = await webhookOf(store, id);
    expect(pending?.state).toBe("pending");
    expect(pending!.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(retryAt.getTime() - 1_000);
    receiver.setMode("accept");
    await waitFor(async () => (await webhookOf(store, id))?.state === "sent", "sent after the pause", 10_000);
    expect(receiver.forEnquiry(id)).toHaveLength(1);
  });

  it("Discord's 429 body retry_after pauses the whole destination: nothing else is sent to it meanwhile", async () => {
    const store = await freshStore();
    const arrivals: number[] = [];
    let refusedOnce = false;
    receiver.setMode(() => {
      arrivals.push(Date.now());
      if (refusedOnce) return "accept";
      refusedOnce = true;
      return {
        status: 429,
        headers: { "Content-Type": "application/json" },
        body: '{"message": "You are being rate limited.", "retry_after": 2.0, "global": false}',
      };
    });
    const saved = [];
    for (let i = 0; i < 6; i++) saved.push(await store.save(enquiry(), ["webhook"]));
    startOutbox({ store, perDestination: 1 });
    await waitFor(
      async () => (await listAll(store)).every((e) => e.notifications[0]!.state === "sent"),
      "all sent",
      15_000,
    );
    // After the refusal (the first request), the next request came only once the 2 s had passed.
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(1_900);
    for (const { id } of saved) expect(receiver.forEnquiry(id)).toHaveLength(1);
  });
});

describe("the issue's scenario: many failed notifications, then `inbox retry`, against a service that limits", () => {
  it(
    "with a 429 + Retry-After beyond 2 requests in flight: no more than 2 in flight, next to nothing refused, each delivered once",
    { timeout: 60_000 },
    async () => {
      const store = await freshStore();
      const count = 150;
      for (let i = 0; i < count; i++) await store.save(enquiry(), ["webhook"]);
      // They all failed earlier (the service was down): the state `inbox retry` starts from.
      for (;;) {
        const claims = await store.claimDue("earlier", 50);
        if (claims.length === 0) break;
        for (const claim of claims) await store.markFailed(claim, "webhook unreachable: ECONNREFUSED");
      }
      receiver.setDelay(15);
      receiver.setMode(({ inFlight }) =>
        inFlight > 2 ? { status: 429, headers: { "Retry-After": "1" }, body: "rate limited" } : "accept",
      );
      const refusedBefore = receiver.refused();
      const attemptsBefore = receiver.attempts();
      expect(await store.retryFailed()).toBe(count);
      const started = Date.now();
      startOutbox({ store, maxInFlight: 10 }); // ten claims at once, as in the issue
      await waitFor(
        async () => (await listAll(store)).every((e) => e.notifications[0]!.state === "sent"),
        "every notification sent",
        50_000,
      );
      const took = Date.now() - started;
      const refused = receiver.refused() - refusedBefore;
      const requests = receiver.attempts() - attemptsBefore;
      console.info(
        `${count} after retry: ${requests} requests, ${refused} refused, peak ${receiver.peakInFlight()} in flight, ${took} ms`,
      );
      expect(receiver.peakInFlight()).toBeLessThanOrEqual(2);
      expect(refused).toBeLessThanOrEqual(2);
      for (const item of await listAll(store)) expect(receiver.forEnquiry(item.id)).toHaveLength(1);
    },
  );

  it(
    "with a window limit (5 per second, then 429 with retry_after until the window ends): refusals stay few, each delivered once",
    { timeout: 60_000 },
    async () => {
      const store = await freshStore();
      const count = 40;
      for (let i = 0; i < count; i++) await store.save(enquiry(), ["webhook"]);
      for (const claim of await store.claimDue("earlier", count)) await store.markFailed(claim, "HTTP 502");
      let windowStart = 0;
      let used = 0;
      receiver.setMode(() => {
        const now = Date.now();
        if (now - windowStart >= 1_000) {
          windowStart = now;
          used = 0;
        }
        used += 1;
        if (used <= 5) return "accept";
        const left = (1_000 - (now - windowStart)) / 1_000;
        return {
          status: 429,
          headers: { "Content-Type": "application/json", "Retry-After": String(Math.ceil(left)) },
          body: JSON.stringify({ message: "You are being rate limited.", retry_after: left, global: false }),
        };
      });
      const refusedBefore = receiver.refused();
      await store.retryFailed();
      startOutbox({ store, maxInFlight: 10 });
      await waitFor(
        async () => (await listAll(store)).every((e) => e.notifications[0]!.state === "sent"),
        "every notification sent",
        50_000,
      );
      const refused = receiver.refused() - refusedBefore;
      console.info(`${count} against 5/s: ${refused} refused`);
      // At most the requests in flight when a window fills are refused: about 2 per window of 5 accepted.
      expect(refused).toBeLessThanOrEqual(Math.ceil(count / 5) * 2);
      for (const item of await listAll(store)) expect(receiver.forEnquiry(item.id)).toHaveLength(1);
    },
  );
});
