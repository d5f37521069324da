import { describe, expect, it } from "vitest";
import { acknowledgementWords } from "~/notify/acknowledgement";
import { composeCustomerMail } from "~/notify/customer-mail.server";
import { defaultSiteContent, type SiteContent } from "~/site-content/schema.server";
import { customerMailMessageId } from "~/text/message-ids";

const now = new Date("2026-11-27T10:00:00Z");
const content = (change: (content: SiteContent) => void): SiteContent => {
  const copy = structuredClone(defaultSiteContent);
  copy.business.name = "Hollow Hill Haunts";
  copy.acknowledgement = { enabled: true, text: "Thanks! We answer within {days} working days.", replyDays: 4 };
  change(copy);
  return copy;
};

describe("the acknowledgement's words", () => {
  it("are the owner's text with the working days, and the season's close date when one is set", () => {
    const words = acknowledgementWords(
      content((c) => (c.season = { year: 2027, ordersOpen: true, closesOn: "2027-09-01", closedLine: "" })),
      now,
      "UTC",
    );
    expect(words).toEqual({
      subject: "Your enquiry to Hollow Hill Haunts",
      body: "Thanks! We answer within 4 working days.\n\nOrders for the 2027 haunt season close on September 1, 2027.",
    });
  });

  it("leave the season out while orders are open without a date, and say they are closed when they are", () => {
    const open = content((c) => (c.season = { year: 2027, ordersOpen: true, closesOn: null, closedLine: "" }));
    expect(acknowledgementWords(open, now, "UTC").body).toBe("Thanks! We answer within 4 working days.");
    const closed = content(
      (c) => (c.season = { year: 2026, ordersOpen: false, closesOn: null, closedLine: "Enquiries for 2027 welcome." }),
    );
    expect(acknowledgementWords(closed, now, "UTC").body).toBe(
      "Thanks! We answer within 4 working days.\n\nOrders for the 2026 haunt season are closed. Enquiries for 2027 welcome.",
    );
    // The close date has begun in the business's time zone: closed.
    const passed = content(
      (c) => (c.season = { year: 2026, ordersOpen: true, closesOn: "2026-11-27", closedLine: "" }),
    );
    expect(acknowledgementWords(passed, now, "Europe/Berlin").body).toContain(
      "Orders for the 2026 haunt season are closed.",
    );
  });

  it("make a mail marked auto-replied (RFC 3834), From the site under the business, Reply-To its public address", () => {
    const words = acknowledgementWords(
      content((c) => (c.business.email = "shop@hollowhill.example")),
      now,
      "UTC",
    );
    const message = composeCustomerMail(
      {
        kind: "acknowledgement",
        enquiryId: "e-1",
        to: "ann@visitor.example",
        ...words,
        messageId: customerMailMessageId("acknowledgement", "m-1", "site@grimforge.example"),
        inReplyTo: null,
        references: [],
        author: "site",
      },
      { from: "site@grimforge.example" },
      now,
      {
        business: { ...defaultSiteContent.business, name: "Hollow Hill Haunts", email: "shop@hollowhill.example" },
        siteUrl: null,
      },
    );
    expect(message).toMatchObject({
      from: { name: "Hollow Hill Haunts", address: "site@grimforge.example" },
      to: "ann@visitor.example",
      replyTo: "shop@hollowhill.example",
      subject: "Your enquiry to Hollow Hill Haunts",
      headers: { "Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All" },
    });
    expect(message.inReplyTo).toBeUndefined();
    expect(message.references).toBeUndefined();
    // Without a public address there is no Reply-To (never an operator's, nor the visitor's).
    const plain = composeCustomerMail(
      {
        kind: "acknowledgement",
        enquiryId: "e-1",
        to: "ann@visitor.example",
        ...words,
        messageId: "<a@b>",
        inReplyTo: null,
        references: [],
        author: "site",
      },
      { from: "site@grimforge.example" },
    );
    expect(plain.replyTo).toBeUndefined();
    // A reply is no auto-reply.
    const reply = composeCustomerMail(
      {
        kind: "reply",
        enquiryId: "e-1",
        to: "ann@visitor.example",
        ...words,
        messageId: "<a@b>",
        inReplyTo: null,
        references: [],
        author: null,
      },
      { from: "site@grimforge.example" },
    );
    expect(reply.headers).not.toHaveProperty("Auto-Submitted");
  });
});
