import { describe, expect, it } from "vitest";
import { storedEnquiry } from "../../../../tests/support/enquiry";
import { discordBody, discordLimit, suppressEmbeds } from "~/notify/channels/webhook-formats/discord";

describe("the Discord payload", () => {
  it("is content, no mentions parsed, embeds suppressed: nothing else", () => {
    const body = discordBody(storedEnquiry("hi"));
    expect(Object.keys(body).sort()).toEqual(["allowed_mentions", "content", "flags"]);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.flags).toBe(suppressEmbeds);
    expect(suppressEmbeds).toBe(4);
  });

  it("escapes markdown: a masked link, headings, spoilers and emphasis stay text", () => {
    const body = discordBody(storedEnquiry("[your invoice](https://phish.example) # big ||spoiler|| *b* __u__ `c`"));
    const message = body.content.split("\n\n")[1];
    expect(message).toBe(
      "\\[your invoice\\]\\(https\\://phish.example\\) \\# big \\|\\|spoiler\\|\\| \\*b\\* \\_\\_u\\_\\_ \\`c\\`",
    );
    // Undone, the escapes give back exactly what the visitor typed.
    expect(message!.replace(/\\(.)/g, "$1")).toBe(
      "[your invoice](https://phish.example) # big ||spoiler|| *b* __u__ `c`",
    );
  });

  it("keeps content within 2,000 characters on a character boundary, with the note", () => {
    const body = discordBody(storedEnquiry(`${"a".repeat(1_990)}🎃🎃🎃 ***`));
    expect(body.content.length).toBeLessThanOrEqual(discordLimit.maxLength);
    expect(body.content).toMatch(/full message is in the e-mail/);
    expect(body.content).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
