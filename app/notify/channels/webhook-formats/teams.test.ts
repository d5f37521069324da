import { describe, expect, it } from "vitest";
import { storedEnquiry } from "../../../../tests/support/enquiry";
import { teamsBody } from "~/notify/channels/webhook-formats/teams";

describe("the Teams (Workflows) payload", () => {
  it("is a message with one Adaptive Card attachment; the visitor's words only in plain TextRuns", () => {
    const body = teamsBody(storedEnquiry("[your invoice](https://phish.example) **now**", { name: "<at>Boss</at>" }));
    expect(body.type).toBe("message");
    expect(body.attachments).toHaveLength(1);
    const [attachment] = body.attachments;
    expect(attachment!.contentType).toBe("application/vnd.microsoft.card.adaptive");
    const card = attachment!.content;
    expect(card.type).toBe("AdaptiveCard");
    expect(card).not.toHaveProperty("msteams");
    const [title, head, message] = card.body as {
      type: string;
      text?: string;
      inlines?: { type: string; text: string }[];
    }[];
    expect(title).toMatchObject({ type: "TextBlock", text: "New enquiry" });
    expect(head).toEqual({
      type: "RichTextBlock",
      inlines: [
        { type: "TextRun", text: "New enquiry from <at>Boss</at> <ann@visitor.example> (2026-10-01T18:30:05.123Z)" },
      ],
    });
    expect(message!.inlines).toEqual([{ type: "TextRun", text: "[your invoice](https://phish.example) **now**" }]);
  });

  it("stays well within Teams' 28 KB message size, even all emoji", () => {
    const body = teamsBody(storedEnquiry("👻".repeat(20_000)));
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(28 * 1024);
    expect(JSON.stringify(body)).toMatch(/full message is in the e-mail/);
  });
});
