import { describe, expect, it } from "vitest";
import { storedEnquiry } from "../../../../tests/support/enquiry";
import { mattermostBody, mattermostEscape, mattermostLimit } from "~/notify/channels/webhook-formats/mattermost";

describe("the Mattermost payload", () => {
  it("is { text } only", () => {
    expect(Object.keys(mattermostBody(storedEnquiry("hi")))).toEqual(["text"]);
  });

  it.each(["@channel", "@here", "@all", "@ALL", "hey @all!", "(@channel)", "@someone"])(
    "neutralises the mention in %j",
    (text) => {
      const out = mattermostEscape(text);
      expect(out).not.toMatch(/(^|[^\p{L}\p{N}_.-])@[\p{L}\p{N}_]/u);
      expect(out.replace(/\u200b/g, "").replace(/\\(.)/g, "$1")).toBe(text);
    },
  );

  it("leaves an e-mail address as it is, and breaks Slack-style <!channel> and markdown links", () => {
    expect(mattermostEscape("ann@visitor.example")).toBe("ann@visitor.example");
    expect(mattermostEscape("<!channel>")).toBe("<\u200b!channel\\>");
    expect(mattermostEscape("[x](https://phish.example)")).toBe("\\[x\\]\\(https://phish.example\\)");
  });

  it("stays within 16,383 characters", () => {
    const body = mattermostBody(storedEnquiry("@all ".repeat(5_000)));
    expect(body.text.length).toBeLessThanOrEqual(mattermostLimit.maxLength);
    expect(body.text).toMatch(/full message is in the e-mail/);
  });
});
