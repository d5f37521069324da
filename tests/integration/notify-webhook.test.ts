import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { WebhookFormat } from "~/config.server";
import { DeliveryError } from "~/notify/channels/channel";
import { createWebhookChannel, webhookBody } from "~/notify/channels/webhook.server";
import type { StoredEnquiry } from "~/store/records";
import { storedEnquiry } from "../support/enquiry";
import { startWebhookReceiver, type Answer, type WebhookReceiver } from "../support/webhook-receiver";

const enquiry = (overrides: Partial<StoredEnquiry> = {}) => storedEnquiry(undefined, overrides);

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.stop());
beforeEach(() => receiver.setMode("accept"));

describe("the webhook post", () => {
  it("is, in the json format, one JSON POST with text, content and the whole enquiry", async () => {
    const e = enquiry();
    const channel = createWebhookChannel(receiver.url, "json");
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

  it.each<[WebhookFormat, string[]]>([
    ["slack", ["text"]],
    ["discord", ["allowed_mentions", "content", "flags"]],
    ["mattermost", ["text"]],
    ["googlechat", ["text"]],
    ["teams", ["attachments", "type"]],
  ])("posts the %s format, with only the fields that service documents", async (format, fields) => {
    const e = enquiry({ message: `A fog machine for ${format}, please.` });
    await createWebhookChannel(receiver.url, format).send(e, AbortSignal.timeout(5_000));
    const post = receiver.posts.find((p) => p.body.includes(`A fog machine for ${format}, please.`));
    expect(post?.headers["content-type"]).toBe("application/json");
    expect(Object.keys(post!.json as object).sort()).toEqual(fields);
    expect(post!.json).toEqual(JSON.parse(JSON.stringify(webhookBody(format, e))));
  });
});

/**
 * What each service checks before it accepts a post, as its documentation says, answering with its own error body
 * when a check fails (the receiver then plays that service).
 */
const serviceChecks: Record<Exclude<WebhookFormat, "json">, (body: Record<string, unknown>) => Answer> = {
  slack: (body) =>
    typeof body.text === "string" && body.text.length <= 40_000 && !/<[!@#]/.test(body.text)
      ? { status: 200, body: "ok" }
      : { status: 400, body: "invalid_payload" },
  discord: (body) =>
    typeof body.content === "string" &&
    body.content.length <= 2_000 &&
    !/[\ud800-\udbff](?![\udc00-\udfff])/.test(body.content) &&
    JSON.stringify(body.allowed_mentions) === '{"parse":[]}'
      ? { status: 204 }
      : { status: 400, body: '{"message": "Invalid Form Body", "code": 50035}' },
  mattermost: (body) =>
    typeof body.text === "string" && [...body.text].length <= 16_383 && !/(^|\s)@(channel|here|all)\b/i.test(body.text)
      ? { status: 200, body: "ok" }
      : { status: 400, body: '{"id": "web.incoming_webhook.text.app_error", "message": "Unable to post."}' },
  googlechat: (body) =>
    Object.keys(body).every((key) => key === "text") && typeof body.text === "string" && body.text.length <= 4_096
      ? { status: 200, body: "{}" }
      : {
          status: 400,
          body: '{"error": {"code": 400, "message": "Invalid JSON payload received. Unknown name", "status": "INVALID_ARGUMENT"}}',
        },
  teams: (body) => {
    const attachments = body.attachments as { contentType?: string; content?: { type?: string } }[] | undefined;
    return body.type === "message" &&
      attachments?.length === 1 &&
      attachments[0]!.contentType === "application/vnd.microsoft.card.adaptive" &&
      attachments[0]!.content?.type === "AdaptiveCard" &&
      Buffer.byteLength(JSON.stringify(body)) <= 28 * 1024
      ? { status: 202 }
      : {
          status: 400,
          body: '{"error": {"code": "TriggerInputSchemaMismatch", "message": "The input body for trigger did not match its schema definition."}}',
        };
  },
};

describe("each service, as it answers", () => {
  const hostile = enquiry({
    name: "@channel <!channel> =?UTF-8?B?DQo=?=",
    message: `@here @all <users/all> [invoice](https://phish.example) ${"👻🎃".repeat(12_000)}`,
  });
  it.each(Object.keys(serviceChecks) as (keyof typeof serviceChecks)[])(
    "%s accepts a long, hostile enquiry in its format",
    async (format) => {
      receiver.setMode(({ body }) => serviceChecks[format](JSON.parse(body) as Record<string, unknown>));
      await expect(
        createWebhookChannel(receiver.url, format).send(hostile, AbortSignal.timeout(5_000)),
      ).resolves.toBeUndefined();
      // Google Chat refuses unknown fields, Teams anything but a card message: the old body was refused there.
      if (format === "googlechat" || format === "teams") {
        await expect(
          createWebhookChannel(receiver.url, "json").send(hostile, AbortSignal.timeout(5_000)),
        ).rejects.toMatchObject({ permanent: true });
      }
    },
  );

  it("a slow service (2 s) that answers in the end: delivered once", async () => {
    receiver.setDelay(2_000);
    try {
      const e = enquiry();
      await createWebhookChannel(receiver.url, "json").send(e, AbortSignal.timeout(8_000));
      expect(receiver.forEnquiry(e.id)).toHaveLength(1);
    } finally {
      receiver.setDelay(0);
    }
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

  const refusal = async (answer: Parameters<WebhookReceiver["setMode"]>[0]) => {
    receiver.setMode(answer);
    const error = await createWebhookChannel(receiver.url, "json")
      .send(enquiry(), AbortSignal.timeout(5_000))
      .then(
        () => new Error("delivered"),
        (e: Error) => e,
      );
    expect(error).toBeInstanceOf(DeliveryError);
    return error as DeliveryError;
  };

  it.each([
    [400, "invalid_payload", "Slack"],
    [403, "action_prohibited", "Slack"],
    [404, "no_service", "Slack"],
    [410, "channel_is_archived", "Slack"],
    [401, '{"message": "401: Unauthorized", "code": 0}', "Discord"],
  ])("HTTP %i (%s) is permanent, with the service's own words", async (status, body) => {
    const error = await refusal({ status, body });
    expect(error.permanent).toBe(true);
    expect(error.message).toBe(
      `webhook at 127.0.0.1:${receiver.port} answered HTTP ${status}: ${body.startsWith("{") ? "401: Unauthorized" : body}`,
    );
  });

  it("reads the reason from Discord's, Mattermost's, Google's and Power Automate's JSON errors", async () => {
    const discord = await refusal({
      status: 400,
      headers: { "Content-Type": "application/json" },
      body: '{"message": "Invalid Form Body", "code": 50035, "errors": {"content": {}}}',
    });
    expect(discord.message).toMatch(/HTTP 400: Invalid Form Body$/);
    const google = await refusal({
      status: 400,
      body: '{"error": {"code": 400, "message": "Invalid JSON payload received. Unknown name \\"content\\"", "status": "INVALID_ARGUMENT"}}',
    });
    expect(google.message).toMatch(/HTTP 400: Invalid JSON payload received\. Unknown name "content"$/);
    const teams = await refusal({
      status: 400,
      body: '{"error":{"code":"TriggerInputSchemaMismatch","message":"The input body for trigger \'manual\' of type \'Request\' did not match its schema definition."}}',
    });
    expect(teams.message).toMatch(/did not match its schema definition\.$/);
  });

  it("keeps the first 300 characters of a long explanation, on one line", async () => {
    const error = await refusal({ status: 400, body: `${"why ".repeat(200)}\r\nX-Evil: 1` });
    const words = error.message.slice(error.message.indexOf(": ") + 2);
    expect(words.length).toBeLessThanOrEqual(300);
    expect(words).toMatch(/^why why/);
    expect(error.message).not.toMatch(/[\r\n]/);
  });

  it.each([429, 500, 502, 503])("HTTP %i is temporary (retried)", async (status) => {
    const error = await refusal({ status });
    expect(error.permanent).toBe(false);
  });

  it("reads Retry-After in seconds and as an HTTP date, and Discord's retry_after", async () => {
    expect((await refusal({ status: 429, headers: { "Retry-After": "7" } })).retryAfterMs).toBe(7_000);
    const at = new Date(Date.now() + 60_000);
    at.setMilliseconds(0);
    const dated = await refusal({ status: 503, headers: { "Retry-After": at.toUTCString() } });
    expect(dated.retryAfterMs).toBeGreaterThan(55_000);
    expect(dated.retryAfterMs).toBeLessThanOrEqual(60_000);
    const discord = await refusal({
      status: 429,
      headers: { "Content-Type": "application/json", "Retry-After": "1" },
      body: '{"message": "You are being rate limited.", "retry_after": 1.5, "global": false}',
    });
    expect(discord.retryAfterMs).toBe(1_500);
    expect(discord.message).toMatch(/HTTP 429: You are being rate limited\.$/);
    expect((await refusal({ status: 429 })).retryAfterMs).toBeUndefined();
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
