import { describe, expect, it } from "vitest";
import { storedEnquiry } from "../../../../tests/support/enquiry";
import { slackBody, slackLimit } from "~/notify/channels/webhook-formats/slack";

describe("the Slack payload", () => {
  it("is { text } only, with & < > escaped so no mention or link is made", () => {
    const body = slackBody(
      storedEnquiry("@channel <!channel> <!here|x> <https://phish.example|your invoice> & <@U123>", {
        name: "<!everyone>",
      }),
    );
    expect(Object.keys(body)).toEqual(["text"]);
    expect(body.text).toBe(
      "New enquiry from &lt;!everyone&gt; &lt;ann@visitor.example&gt; (2026-10-01T18:30:05.123Z)\n\n" +
        "@channel &lt;!channel&gt; &lt;!here|x&gt; &lt;https://phish.example|your invoice&gt; &amp; &lt;@U123&gt;",
    );
    expect(body.text).not.toMatch(/<[!@h]/);
  });

  it("stays within 4,000 characters, cut with the note", () => {
    const body = slackBody(storedEnquiry("<&>".repeat(3_000)));
    expect(body.text.length).toBeLessThanOrEqual(slackLimit.maxLength);
    expect(body.text).toMatch(/full message is in the e-mail and in `npm run inbox`\)$/);
    expect(body.text).not.toMatch(/&(?!amp;|lt;|gt;)/);
  });
});
