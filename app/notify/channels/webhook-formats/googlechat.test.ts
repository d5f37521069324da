import { describe, expect, it } from "vitest";
import { storedEnquiry } from "../../../../tests/support/enquiry";
import { googleChatBody, googleChatLimit } from "~/notify/channels/webhook-formats/googlechat";

describe("the Google Chat payload", () => {
  it("is { text } and nothing else (Chat rejects unknown fields)", () => {
    expect(Object.keys(googleChatBody(storedEnquiry("hi")))).toEqual(["text"]);
  });

  it("cannot mention everyone or make a link", () => {
    const { text } = googleChatBody(storedEnquiry("<users/all> <https://phish.example|your invoice>"));
    expect(text).not.toMatch(/<[^\u200b]/);
    expect(text.replace(/\u200b/g, "")).toContain("<users/all> <https://phish.example|your invoice>");
  });

  it("stays within 4,096 characters", () => {
    const { text } = googleChatBody(storedEnquiry("<".repeat(5_000)));
    expect(text.length).toBeLessThanOrEqual(googleChatLimit.maxLength);
    expect(text).toMatch(/full message is in the e-mail/);
  });
});
