import type { SendMailOptions } from "nodemailer";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseConfig, type EmailChannelConfig, type NotifyConfig } from "~/config.server";
import { channelSenders } from "~/notify/channel-senders.server";
import { createEmailChannel } from "~/notify/channels/email.server";
import { createCustomerMailRound } from "~/notify/customer-mail.server";
import { createListMailRound } from "~/notify/list-mail.server";
import { composeDigestEmail } from "~/notify/digest/compose";
import { composeOwnerAlertEmail } from "~/notify/owner-alert";
import { createMailTransport } from "~/notify/mail-transport.server";
import { composeReminderEmail } from "~/notify/reminder";
import type { StoredEnquiry } from "~/store/records";
import type { ClaimedOutgoingMail, CustomerMailKind, OutgoingMailStore } from "~/store/outgoing-mail.types";
import type { OwnerAlertKind } from "~/store/owner-alerts.types";
import type { ClaimedListMail, WaitlistStore } from "~/store/waitlist.types";
import { customerMailMessageId, enquiryMessageId } from "~/text/message-ids";
import { expectDkimPass, testDkim, verifyDkim } from "../support/dkim";
import { storedEnquiry } from "../support/enquiry";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../support/smtp-sink";

/**
 * DKIM: every kind of message the site sends, through its own sender and a real SMTP server, arrives signed for
 * DKIM_DOMAIN with DKIM_SELECTOR, and a real verifier (mailauth) passes it against the public key the TXT record
 * publishes; a message changed in transit fails; without DKIM_* nothing is signed.
 */

const owners = ["owner@grimforge.example"];
const from = "site@grimforge.example";
const publicUrl = "https://haunt.example";
const dkim = testDkim({ domain: "grimforge.example", selector: "site2026" });

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.stop());
beforeEach(() => {
  sink.messages.splice(0);
});

const email = (signing = true): EmailChannelConfig => ({
  smtpUrl: sink.url,
  to: owners,
  from,
  ...(signing ? { dkim: dkim.config } : {}),
});

/** The one message that arrived with this Message-ID. */
function arrived(messageId: string): ReceivedMail {
  const found = sink.messages.filter((mail) => mail.headers.get("message-id")?.[0] === messageId);
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** Sends one item through channelSenders (the path of the digest, the login alerts and the reminders). */
async function sendThroughChannel<Item>(
  notify: NotifyConfig,
  item: Item,
  compose: (item: Item, config: EmailChannelConfig) => SendMailOptions,
): Promise<void> {
  const { senders, close } = channelSenders<Item>(notify, { email: compose, webhook: () => ({}) });
  try {
    await senders.get("email")!(item, AbortSignal.timeout(10_000));
  } finally {
    close();
  }
}

/** A store that hands the customer-mail round one claimed mail and records how it was settled. */
function oneMailStore(mail: ClaimedOutgoingMail): OutgoingMailStore & { settled: string[] } {
  let claimed = false;
  const settled: string[] = [];
  const unused = () => Promise.reject(new Error("not used by the round"));
  return {
    settled,
    queueReply: unused,
    queueAcknowledgement: unused,
    outgoingMailOf: unused,
    claimOutgoingMail: async () => (claimed ? [] : ((claimed = true), [mail])),
    markOutgoingMailSent: async () => (settled.push("sent"), true),
    markOutgoingMailRetry: async (_claim, error) => (settled.push(`retry: ${error}`), true),
    markOutgoingMailFailed: async (_claim, error) => (settled.push(`failed: ${error}`), true),
    nextOutgoingMailAt: async () => null,
  } as OutgoingMailStore & { settled: string[] };
}

function customerMail(kind: CustomerMailKind): ClaimedOutgoingMail {
  const id = `m-${kind}-${Date.now()}`;
  const root = enquiryMessageId("e-42", from);
  const now = new Date();
  return {
    id,
    enquiryId: "e-42",
    eventId: null,
    kind,
    to: "ann@visitor.example",
    subject: kind === "reply" ? "Re: Your enquiry to Grimforge" : "New photos of your build",
    body: kind === "reply" ? "Thanks!\nIt is about $400." : "Fins on.\nhttps://haunt.example/build/t0k3n",
    messageId: customerMailMessageId(kind, id, from),
    inReplyTo: root,
    references: [root],
    createdAt: now,
    state: "pending",
    attempts: 1,
    nextAttemptAt: now,
    lastError: null,
    sentAt: null,
    author: "owner@grimforge.example",
    windowStart: now,
    claimToken: "t",
    claimUntil: new Date(now.getTime() + 30_000),
  };
}

const spam = (n: number): StoredEnquiry =>
  storedEnquiry(`Offer number ${n}\nmore words`, {
    name: `Sender ${n}`,
    email: `sender${n}@spam.example`,
    status: "spam",
    spamVerdict: "spam",
    spamScore: 1,
    spamReasons: ["hidden field filled"],
  });

describe("every kind of message is DKIM-signed and verifies against the published key", () => {
  it("the notification of an enquiry (and of a possible-spam one)", async () => {
    for (const enquiry of [
      storedEnquiry("We need a 9 ft scarecrow.\nBudget around $4k."),
      storedEnquiry("Cheap followers", { spamVerdict: "possible", spamReasons: ["link-heavy"] }),
    ]) {
      const channel = createEmailChannel(email());
      try {
        await channel.send(enquiry, AbortSignal.timeout(10_000));
      } finally {
        channel.close();
      }
      const [mail] = sink.forEnquiry(enquiry.id);
      const verdict = await expectDkimPass(dkim, mail!.raw);
      expect(verdict.signedHeaders).toEqual(expect.arrayContaining(["reply-to", "content-type"]));
      expect(mail!.headers.get("dkim-signature")?.[0]).toMatch(
        /a=rsa-sha256; c=relaxed\/relaxed; d=grimforge\.example/,
      );
    }
  });

  it("the spam digest", async () => {
    const digest = {
      day: "2026-10-20",
      spam: [spam(1), spam(2)],
      total: 2,
      spamFolderUrl: `${publicUrl}/inbox?folder=spam`,
    };
    await sendThroughChannel({ email: email(), webhookUrl: undefined }, digest, (item, config) =>
      composeDigestEmail(item, config),
    );
    await expectDkimPass(dkim, arrived(`<spam-digest-2026-10-20@grimforge.example>`).raw);
  });

  it.each<OwnerAlertKind>(["login", "passkey-added", "customer-answer", "codes-added"])(
    "the owner's alert (%s)",
    async (kind) => {
      const alert = {
        id: `alert-${kind}`,
        operatorEmail: "ann@grimforge.example",
        at: new Date("2026-10-31T22:05:00Z"),
        browser: "Chrome on Android",
        address: "2001:db8:1:2::/64",
        kind,
        ...(kind === "passkey-added" ? { detail: "Ann's phone" } : {}),
        ...(kind === "customer-answer"
          ? { operatorEmail: null, customerName: "Pugsley", enquiryId: "e-42", detail: "Can it fly?" }
          : {}),
      };
      const facts = {
        timeZone: "Europe/London",
        securityUrl: `${publicUrl}/inbox/security`,
        inboxUrl: `${publicUrl}/inbox`,
      };
      await sendThroughChannel({ email: email(), webhookUrl: undefined }, alert, (item, config) =>
        composeOwnerAlertEmail(item, facts, config),
      );
      await expectDkimPass(dkim, arrived(`<login-alert-alert-${kind}@grimforge.example>`).raw);
    },
  );

  it("the reminder", async () => {
    const reminder = { id: "7f3a-reminder", enquiryId: "e-42", dueOn: "2026-11-27", name: "Ann Lee" };
    await sendThroughChannel({ email: email(), webhookUrl: undefined }, reminder, (item, config) =>
      composeReminderEmail(item, publicUrl, config),
    );
    await expectDkimPass(dkim, arrived("<reminder-7f3a-reminder-2026-11-27@grimforge.example>").raw);
  });

  it.each<CustomerMailKind>(["reply", "build-update", "acknowledgement"])(
    "the mail to a customer (%s)",
    async (kind) => {
      const mail = customerMail(kind);
      const store = oneMailStore(mail);
      const round = createCustomerMailRound({ store, email: email() });
      try {
        await round.run(AbortSignal.timeout(10_000));
      } finally {
        round.close();
      }
      expect(store.settled).toEqual(["sent"]);
      const verdict = await expectDkimPass(dkim, arrived(mail.messageId).raw);
      expect(verdict.signedHeaders).toEqual(expect.arrayContaining(["in-reply-to", "references", "reply-to"]));
      if (kind === "acknowledgement") expect(verdict.signedHeaders).toContain("auto-submitted");
    },
  );
});

/** A list mail of `kind`, claimed: what the list's sender is handed by its store. */
function listMail(kind: ClaimedListMail["kind"]): ClaimedListMail {
  const now = new Date();
  const id = `l-${kind}-${Date.now()}`;
  return {
    id,
    kind,
    waitlistId: "w1",
    to: "fan@fans.example",
    messageId: `<list-${kind}-${id}@grimforge.example>`,
    confirmToken: kind === "confirm" ? "c".repeat(64) : null,
    confirmUntil: kind === "confirm" ? new Date(now.getTime() + 7 * 86_400_000) : null,
    unsubscribeToken: "u".repeat(64),
    announcement:
      kind === "announcement" ? { season: "2027", subject: "Orders for 2027 are open", body: "Come and see." } : null,
    attempts: 1,
    createdAt: now,
    claimToken: "t",
    claimUntil: new Date(now.getTime() + 20_000),
  };
}

describe("the list's mail is DKIM-signed too, its unsubscribe headers covered", () => {
  it.each<ClaimedListMail["kind"]>(["confirm", "announcement"])("the waitlist's %s mail", async (kind) => {
    const mail = listMail(kind);
    const settled: string[] = [];
    let claimed = false;
    const store = {
      claimListMail: async () => (claimed ? [] : ((claimed = true), [mail])),
      markListMailSent: async () => (settled.push("sent"), true),
      markListMailRetry: async () => (settled.push("retry"), true),
      markListMailFailed: async () => (settled.push("failed"), true),
      nextListMailAt: async () => null,
    } as unknown as WaitlistStore;
    const round = createListMailRound({ store, email: email(), publicUrl, timeZone: "UTC" });
    try {
      await round.run(AbortSignal.timeout(10_000));
    } finally {
      round.close();
    }
    expect(settled).toEqual(["sent"]);
    const verdict = await expectDkimPass(dkim, arrived(mail.messageId).raw);
    if (kind === "announcement")
      expect(verdict.signedHeaders).toEqual(expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post"]));
  });
});

describe("what the signature covers", () => {
  /** A message as the list mail and the acknowledgements send it: with the unsubscribe and auto-reply headers. */
  async function sendListLike(): Promise<ReceivedMail> {
    const messageId = `<list-${Date.now()}@grimforge.example>`;
    const { transport } = createMailTransport(email());
    try {
      await transport.sendMail({
        from,
        to: "fan@visitor.example",
        subject: "Orders for the 2027 haunt season are open",
        text: "Orders are open.\nUnsubscribe: https://haunt.example/unsubscribe/t0k3n\n",
        messageId,
        headers: {
          "List-Unsubscribe": "<https://haunt.example/unsubscribe/t0k3n>",
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          "Auto-Submitted": "auto-generated",
        },
      });
    } finally {
      transport.close();
    }
    return arrived(messageId);
  }

  it("signs List-Unsubscribe, List-Unsubscribe-Post and Auto-Submitted when a message carries them", async () => {
    const mail = await sendListLike();
    const verdict = await expectDkimPass(dkim, mail.raw);
    expect(verdict.signedHeaders).toEqual(
      expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post", "auto-submitted"]),
    );
    // A one-click address swapped in transit breaks the signature.
    const swapped = mail.raw.replace(
      "List-Unsubscribe: <https://haunt.example/unsubscribe/t0k3n>",
      "List-Unsubscribe: <https://evil.example/unsubscribe/t0k3n>",
    );
    expect(swapped).not.toBe(mail.raw);
    expect((await verifyDkim(dkim, swapped)).statuses).toEqual(["fail"]);
  });

  it("fails when the body or a signed header was changed in transit, or the key published is another", async () => {
    const enquiry = storedEnquiry("We need a 9 ft scarecrow.\nBudget around $4k.");
    const channel = createEmailChannel(email());
    await channel.send(enquiry, AbortSignal.timeout(10_000));
    channel.close();
    const raw = sink.forEnquiry(enquiry.id)[0]!.raw;
    await expectDkimPass(dkim, raw);

    const body = raw.replace("Budget around $4k.", "Budget around $40k.");
    expect(body).not.toBe(raw);
    const altered = await verifyDkim(dkim, body);
    expect(altered.statuses).toEqual(["fail"]);
    expect(altered.comment).toMatch(/body hash/i);

    const subject = raw.replace("Subject: New enquiry from", "Subject: Urgent enquiry from");
    expect(subject).not.toBe(raw);
    expect((await verifyDkim(dkim, subject)).statuses).toEqual(["fail"]);

    const otherKey = testDkim({ domain: "grimforge.example", selector: "site2026" });
    const { generateDkimKeyPair } = await import("~/notify/dkim-key.server");
    const stranger = { ...otherKey, txtValue: generateDkimKeyPair().txtValue };
    expect((await verifyDkim(stranger, raw)).statuses).toEqual(["fail"]);
  });

  it("signs nothing without DKIM_* (no DKIM-Signature header at all)", async () => {
    const enquiry = storedEnquiry();
    const channel = createEmailChannel(email(false));
    await channel.send(enquiry, AbortSignal.timeout(10_000));
    channel.close();
    const [mail] = sink.forEnquiry(enquiry.id);
    expect(mail!.headers.has("dkim-signature")).toBe(false);
    expect((await verifyDkim(dkim, mail!.raw)).statuses).toEqual(["none"]);
  });

  it("signs with the key parsed from the environment (DKIM_PRIVATE_KEY pasted on one line with \\n)", async () => {
    const config = parseConfig({
      SMTP_URL: sink.url,
      NOTIFY_EMAIL_TO: owners.join(","),
      NOTIFY_EMAIL_FROM: `Grimforge <${from}>`,
      DKIM_DOMAIN: "GrimForge.example",
      DKIM_SELECTOR: "site2026",
      DKIM_PRIVATE_KEY: dkim.privateKeyPem.trim().replace(/\n/g, "\\n"),
    });
    const enquiry = storedEnquiry();
    const channel = createEmailChannel(config.notify!.email!);
    await channel.send(enquiry, AbortSignal.timeout(10_000));
    channel.close();
    await expectDkimPass(dkim, sink.forEnquiry(enquiry.id)[0]!.raw);
  });
});
