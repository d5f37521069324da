import { describe, expect, it } from "vitest";
import { webhookFormats } from "~/config.server";
import type { StoredEnquiry } from "~/store/records";
import { composeDigestEmail, digestWebhookBody, firstLine, type SpamDigest } from "~/notify/digest/compose";

const spam = (n: number, overrides: Partial<StoredEnquiry> = {}): StoredEnquiry => ({
  id: `e-${n}`,
  receivedAt: new Date("2026-10-20T06:00:00Z"),
  name: `Sender ${n}`,
  email: `sender${n}@spam.example`,
  message: `Offer number ${n}\nmore words`,
  status: "spam",
  spamVerdict: "spam",
  spamScore: 1,
  spamReasons: ["hidden field filled"],
  spamDecision: null,
  ...overrides,
});

const folder = "https://haunt.example/inbox?folder=spam";
const digest = (items: StoredEnquiry[], total = items.length): SpamDigest => ({
  day: "2026-10-20",
  spam: items,
  total,
  spamFolderUrl: folder,
});

const hostile = spam(1, {
  name: "<!channel> @here [x](https://evil.example) =?UTF-8?B?QQ==?=",
  message: "\n  \nBuy\u202e now\u0007 <users/all>\r\nsecond line",
});

/** The text each format carries, wherever it keeps it. */
function textOf(body: unknown): string {
  return JSON.stringify(body);
}

describe("the spam digest's words", () => {
  it("takes each message's first line with words, as one safe line", () => {
    expect(firstLine("\n \r\n  Hello there\nsecond")).toBe("Hello there");
    expect(firstLine("a\u202eb\u0007c")).toBe("a b c");
    expect(firstLine("x".repeat(300))).toHaveLength(100);
  });

  it("e-mails names, addresses, first lines and the Spam folder, one message id per day", () => {
    const mail = composeDigestEmail(digest([hostile, spam(2)]), { to: ["owner@x.example"], from: "site@x.example" });
    expect(mail.subject).toBe("Spam digest: 2 enquiries kept aside (2026-10-20)");
    expect(mail.messageId).toBe("<spam-digest-2026-10-20@x.example>");
    expect(mail.envelope).toEqual({ from: "site@x.example", to: ["owner@x.example"] });
    expect(mail.text).toContain("- Sender 2 (sender2@spam.example): Offer number 2\n");
    expect(mail.text).toContain("): Buy now <users/all>\n");
    expect(mail.text).toContain("= ?UTF-8?B?QQ==? ="); // an encoded word left inert
    expect(mail.text).not.toMatch(/second line|more words|\u202e/);
    expect(mail.text).toContain(`Spam folder: ${folder}`);
  });

  it("comes from the published business and ends with its signature: the details that are set and the site", () => {
    const business = {
      name: "Hollow Hill Haunts",
      email: "hi@hollowhill.example",
      phone: null,
      region: null,
      links: [],
      currency: "USD",
    };
    const config = { to: ["owner@x.example"], from: "site@x.example" };
    const mail = composeDigestEmail(digest([spam(1)]), config, new Date(), { business, siteUrl: "https://x.example" });
    expect(mail.from).toEqual({ name: "Hollow Hill Haunts website", address: "site@x.example" });
    expect(mail.text.endsWith("\n\n-- \nHollow Hill Haunts\nhi@hollowhill.example\nhttps://x.example\n")).toBe(true);
    // NOTIFY_EMAIL_FROM's own display name wins.
    expect(composeDigestEmail(digest([spam(1)]), { ...config, fromName: "Site" }).from.name).toBe("Site");
  });

  it("escapes the visitors' words for each chat service and never the folder's address", () => {
    const bodies = Object.fromEntries(
      webhookFormats.map((format) => [format, digestWebhookBody(format, digest([hostile]))]),
    );
    for (const body of Object.values(bodies)) expect(textOf(body)).toContain(folder);
    expect(textOf(bodies.slack)).toContain("&lt;!channel&gt;");
    expect(textOf(bodies.slack)).not.toContain("<!channel>");
    expect(textOf(bodies.discord)).toContain("\\\\[x\\\\]\\\\(https\\\\:");
    expect(bodies.discord).toMatchObject({ allowed_mentions: { parse: [] } });
    expect(textOf(bodies.mattermost)).toContain("@\u200bhere");
    expect(textOf(bodies.googlechat)).toContain("<\u200busers/all>");
    expect(bodies.teams).toMatchObject({
      attachments: [{ content: { actions: [{ type: "Action.OpenUrl", url: folder }] } }],
    });
    expect(bodies.json).toMatchObject({
      spamDigest: { day: "2026-10-20", total: 1, enquiries: [{ id: "e-1", email: "sender1@spam.example" }] },
    });
  });

  it("lists what fits the service by whole lines and counts the rest", () => {
    const many = Array.from({ length: 50 }, (_, n) => spam(n, { message: `${"long offer ".repeat(9)}${n}` }));
    const body = digestWebhookBody("discord", digest(many, 80)) as { content: string };
    expect(body.content.length).toBeLessThanOrEqual(2_000);
    const listed = body.content.split("\n").filter((line) => line.startsWith("- "));
    expect(listed.length).toBeGreaterThan(5);
    expect(body.content).toContain(`… and ${80 - listed.length} more in the Spam folder.`);
    expect(body.content.endsWith(`Spam folder: ${folder}`)).toBe(true);
  });
});
