import { describe, expect, it } from "vitest";
import { DeliveryError } from "~/notify/channels/channel";
import { composeCustomerMail } from "~/notify/customer-mail.server";
import { defaultSender, type Sender } from "~/notify/sender";
import { customerMailMessageId, enquiryMessageId } from "~/text/message-ids";

const root = enquiryMessageId("4c1e-enquiry", "site@grimforge.example");
const mail = {
  enquiryId: "4c1e-enquiry",
  to: "ann@visitor.example",
  subject: "Re: Your enquiry to Grimforge",
  body: "Thanks!\r\nIt is about $400.",
  messageId: customerMailMessageId("reply", "m-1", "site@grimforge.example"),
  inReplyTo: root,
  references: [root],
  author: "owner@grimforge.example",
};
const business = (email: string | null): Sender => ({
  business: { ...defaultSender.business, name: "Hollow Hill Haunts", email },
  siteUrl: "https://haunt.example",
});
const at = new Date("2026-10-31T22:05:00Z");

describe("a mail to the customer", () => {
  it("has the site's ids: the enquiry's as its notification carries it, and the mail's own", () => {
    expect(root).toBe("<enquiry-4c1e-enquiry@grimforge.example>");
    expect(mail.messageId).toBe("<reply-m-1@grimforge.example>");
    expect(enquiryMessageId("a b<c>@d", "Site@Mail.Example")).toBe("<enquiry-abcd@Mail.Example>");
  });

  it("comes from NOTIFY_EMAIL_FROM under the business's name, to the customer alone, threaded, signed", () => {
    const message = composeCustomerMail(mail, { from: "site@grimforge.example" }, at, business("shop@hollow.example"));
    expect(message).toMatchObject({
      from: { name: "Hollow Hill Haunts", address: "site@grimforge.example" },
      to: "ann@visitor.example",
      replyTo: "shop@hollow.example",
      subject: "Re: Your enquiry to Grimforge",
      messageId: "<reply-m-1@grimforge.example>",
      inReplyTo: root,
      references: root,
      envelope: { from: "site@grimforge.example", to: ["ann@visitor.example"] },
      date: at,
    });
    expect(message.text).toBe(
      "Thanks!\nIt is about $400.\n\n-- \nHollow Hill Haunts\nshop@hollow.example\nhttps://haunt.example\n",
    );
  });

  it("takes the operator's address as Reply-To when the business has no public one (or not one mailbox)", () => {
    expect(composeCustomerMail(mail, { from: "site@g.example" }, at, business(null)).replyTo).toBe(
      "owner@grimforge.example",
    );
    expect(
      composeCustomerMail(mail, { from: "site@g.example" }, at, business("a@b.example, c@d.example")).replyTo,
    ).toBe("owner@grimforge.example");
    expect(
      composeCustomerMail({ ...mail, author: null }, { from: "s@g.example" }, at, business(null)),
    ).not.toHaveProperty("replyTo");
  });

  it("refuses for good an address that is not one plain mailbox, and keeps the subject on one line", () => {
    for (const to of ["ann@visitor.example, eve@evil.example", "Ann <ann@visitor.example>", "not an address"]) {
      expect(() => composeCustomerMail({ ...mail, to }, { from: "s@g.example" })).toThrow(DeliveryError);
      try {
        composeCustomerMail({ ...mail, to }, { from: "s@g.example" });
      } catch (error) {
        expect((error as DeliveryError).permanent).toBe(true);
      }
    }
    expect(
      composeCustomerMail({ ...mail, subject: "Re: a\r\nBcc: eve@evil.example" }, { from: "s@g.example" }).subject,
    ).not.toMatch(/[\r\n]/);
  });
});
