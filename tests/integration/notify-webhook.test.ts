import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createWebhookChannel, summaryMaxLength, webhookPayload } from "~/notify/channels/webhook.server";
import { storedEnquiry as enquiry } from "../support/enquiry";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.stop());
beforeEach(() => receiver.setMode("accept"));

describe("the webhook post", () => {
  it("is one JSON POST with text, content and the whole enquiry", async () => {
    const e = enquiry();
    const channel = createWebhookChannel(receiver.url);
    await channel.send(e, AbortSignal.timeout(5_000));
    const [post, ...more] = receiver.forEnquiry(e.id);
    expect(more).toHaveLength(0);
    expect(post!.path).toBe("/hooks/T000/B000/secret-token");
    expect(post!.headers["content-type"]).toBe("application/json");
    const body = post!.json as Record<string, unknown>;
    expect(body.enquiry).toEqual({
      id: e.id,
      receivedAt: "2026-10-01T18:30:05.123Z",
      name: "Ann Visitor",
      email: "ann@visitor.example",
      message: "A talking skull for the queue line, please.",
    });
    expect(body.content).toBe(
      "New enquiry from Ann Visitor <ann@visitor.example> (2026-10-01T18:30:05.123Z)\n\nA talking skull for the queue line, please.",
    );
    expect(body.text).toBe(
      "New enquiry from Ann Visitor &lt;ann@visitor.example&gt; (2026-10-01T18:30:05.123Z)\n\nA talking skull for the queue line, please.",
    );
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });

  it("keeps text and content within Discord's 2000 characters, and the full message in enquiry", () => {
    const message = `${"<boo> & ".repeat(600)}end`;
    const payload = webhookPayload(enquiry({ message }));
    expect(payload.content.length).toBeLessThanOrEqual(summaryMaxLength);
    expect(payload.text.length).toBeLessThanOrEqual(summaryMaxLength);
    expect(payload.content).toMatch(/shortened/);
    expect(payload.enquiry.message).toBe(message);
  });

  it("cannot mention or link: Slack's <!channel> is escaped, Discord's @everyone is not parsed", () => {
    const payload = webhookPayload(
      enquiry({ name: "<!channel>", message: "@everyone <https://evil.example|click> <@123>" }),
    );
    expect(payload.text).not.toMatch(/<[!@h]/);
    expect(payload.text).toContain("&lt;!channel&gt;");
    expect(payload.allowed_mentions).toEqual({ parse: [] });
  });

  it("keeps the summary's first line one line, whatever the name holds", () => {
    const payload = webhookPayload(enquiry({ name: "Eve\r\n\r\nFake line\u202e" }));
    expect(payload.content.split("\n")[0]).toBe(
      "New enquiry from Eve Fake line <ann@visitor.example> (2026-10-01T18:30:05.123Z)",
    );
  });
});

describe("delivery", () => {
  it.each([200, 201, 202, 299])("counts HTTP %i as delivered", async (status) => {
    receiver.setMode({ status });
    const channel = createWebhookChannel(receiver.url);
    await expect(channel.send(enquiry(), AbortSignal.timeout(5_000))).resolves.toBeUndefined();
  });

  it.each([500, 404, 429, 400])("fails on HTTP %i, naming the host and not the secret path", async (status) => {
    receiver.setMode({ status });
    const channel = createWebhookChannel(receiver.url);
    const error = await channel.send(enquiry(), AbortSignal.timeout(5_000)).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`HTTP ${status}`);
    expect((error as Error).message).toContain(`127.0.0.1:${receiver.port}`);
    expect((error as Error).message).not.toContain("secret-token");
  });

  it("does not follow a redirect", async () => {
    const other = await startWebhookReceiver();
    try {
      receiver.setMode({ redirect: other.url });
      const channel = createWebhookChannel(receiver.url);
      await expect(channel.send(enquiry(), AbortSignal.timeout(5_000))).rejects.toThrow(/HTTP 307/);
      expect(other.attempts()).toBe(0);
    } finally {
      await other.stop();
    }
  });

  it("fails when the receiver is down, and delivers once it is back", async () => {
    const flaky = await startWebhookReceiver();
    await flaky.stop();
    const channel = createWebhookChannel(flaky.url);
    const e = enquiry();
    await expect(channel.send(e, AbortSignal.timeout(5_000))).rejects.toThrow(/unreachable/);
    await flaky.start();
    await channel.send(e, AbortSignal.timeout(5_000));
    expect(flaky.forEnquiry(e.id)).toHaveLength(1);
    await flaky.stop();
  });

  it("gives up on a receiver that stalls when the signal aborts", async () => {
    receiver.setMode("stall");
    const channel = createWebhookChannel(receiver.url);
    const started = Date.now();
    await expect(channel.send(enquiry(), AbortSignal.timeout(500))).rejects.toThrow(/no answer/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("aborts sends in flight when closed", async () => {
    receiver.setMode("stall");
    const channel = createWebhookChannel(receiver.url);
    const pending = channel.send(enquiry(), AbortSignal.timeout(5_000));
    await new Promise((r) => setTimeout(r, 200));
    channel.close();
    await expect(pending).rejects.toThrow(/no answer/);
  });
});
