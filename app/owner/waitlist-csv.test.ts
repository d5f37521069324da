import { describe, expect, it } from "vitest";
import { waitlistCsv } from "~/owner/waitlist-csv";

describe("waitlistCsv", () => {
  it("writes a header and one row per address, no cell a formula", async () => {
    let text = "";
    for await (const line of waitlistCsv([
      {
        id: "1",
        email: "=hyperlink(1)@x.example",
        state: "confirmed",
        createdAt: new Date("2026-11-01T10:00:00Z"),
        confirmedAt: new Date("2026-11-01T10:05:00Z"),
        unsubscribedAt: null,
      },
      {
        id: "2",
        email: "ann@example.com",
        state: "pending",
        createdAt: new Date("2026-11-02T10:00:00Z"),
        confirmedAt: null,
        unsubscribedAt: null,
      },
    ]))
      text += line;
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("email,state,askedAt,confirmedAt,unsubscribedAt");
    expect(lines[1]).toBe("'=hyperlink(1)@x.example,confirmed,2026-11-01T10:00:00.000Z,2026-11-01T10:05:00.000Z,");
    expect(lines[2]).toBe("ann@example.com,pending,2026-11-02T10:00:00.000Z,,");
    expect(lines).toHaveLength(4);
  });
});
