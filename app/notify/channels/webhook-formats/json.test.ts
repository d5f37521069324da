import { describe, expect, it } from "vitest";
import { storedEnquiry } from "../../../../tests/support/enquiry";
import { jsonBody } from "~/notify/channels/webhook-formats/json";

describe("the json payload", () => {
  it("keeps the whole enquiry, with a short text and content beside it", () => {
    const message = `${"<boo> & ".repeat(600)}end`;
    const e = storedEnquiry(message);
    const body = jsonBody(e);
    expect(body.enquiry).toEqual({
      id: e.id,
      receivedAt: "2026-10-01T18:30:05.123Z",
      name: "Ann Visitor",
      email: "ann@visitor.example",
      message,
    });
    expect(body.content.length).toBeLessThanOrEqual(2_000);
    expect(body.text.length).toBeLessThanOrEqual(2_000);
    expect(body.text).not.toMatch(/<[!@h]/);
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });
});
