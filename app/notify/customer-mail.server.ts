import type { SendMailOptions } from "nodemailer";
import { createMailTransport } from "~/notify/mail-transport.server";
import type { EmailChannelConfig } from "~/config.server";
import { log as logger } from "~/log.server";
import { DeliveryError, describeFailure } from "~/notify/channels/channel";
import { smtpFailure } from "~/notify/channels/email.server";
import { isSingleMailbox } from "~/text/mailbox";
import { settleSend } from "~/notify/outbox-round.server";
import { defaultSender, signature, type Sender } from "~/notify/sender";
import type { ClaimedOutgoingMail, OutgoingMailStore } from "~/store/outgoing-mail.types";
import { multiLine, oneLine } from "~/text/safety";
import { repliesCopy } from "~/wording/replies";

/**
 * One round of the sender of the mail to customers (replies, build updates, acknowledgements), run by each instance when woken
 * (a reply was just stored) and now and then (server/customer-mail-loop.ts): claim the due mails under a lease (one
 * instance gets each), send each over SMTP_URL with the notifications' settings, and settle it: sent, retried later
 * with the outbox's backoff for a day after it was stored, or failed. Only the holder of a claim settles it, so a
 * mail goes out once.
 */

/** Mails claimed in one round at most. */
export const customerMailBatch = 20;

export interface CustomerMailRound {
  /** Runs one round; resolves with when the next mail is due, if one is pending. */
  run(signal: AbortSignal): Promise<Date | null>;
  close(): void;
}

/** One JSON line per outcome; never the customer's address, the subject or the words. */
function log(entry: Record<string, unknown>): void {
  logger.event("customer-mail", entry, entry.outcome === "failed" || entry.outcome === "error" ? "error" : "info");
}

/** Where the customer's answer goes: the business's public address, else the operator who wrote it. */
function replyToOf(mail: Pick<ClaimedOutgoingMail, "author">, sender: Sender): string | undefined {
  const business = sender.business.email?.trim();
  if (business && isSingleMailbox(business)) return business;
  const author = mail.author?.trim();
  return author && isSingleMailbox(author) ? author : undefined;
}

/**
 * The message for one stored mail: From NOTIFY_EMAIL_FROM under the business's name, to the customer's one mailbox
 * (anything else is refused for good: it could name a second recipient), the owner's words and the business's
 * signature, and the threading headers fixed when it was stored. Recipients come from the stored address alone.
 */
export function composeCustomerMail(
  mail: Pick<
    ClaimedOutgoingMail,
    "to" | "subject" | "body" | "messageId" | "inReplyTo" | "references" | "author" | "enquiryId"
  > &
    Partial<Pick<ClaimedOutgoingMail, "kind">>,
  config: Pick<EmailChannelConfig, "from">,
  sentAt = new Date(),
  sender: Sender = defaultSender,
): SendMailOptions {
  const to = mail.to.trim();
  if (!isSingleMailbox(to)) throw new DeliveryError(repliesCopy.notOneMailbox, { permanent: true });
  const replyTo = replyToOf(mail, sender);
  return {
    from: { name: oneLine(sender.business.name, 100), address: config.from },
    to,
    ...(replyTo ? { replyTo } : {}),
    subject: oneLine(mail.subject, 200),
    text: [multiLine(mail.body), "", ...signature(sender), ""].join("\n"),
    date: sentAt,
    messageId: mail.messageId,
    ...(mail.inReplyTo ? { inReplyTo: mail.inReplyTo } : {}),
    ...(mail.references.length > 0 ? { references: mail.references.join(" ") } : {}),
    headers: {
      "X-Enquiry-Id": mail.enquiryId.replace(/[^A-Za-z0-9.-]/g, ""),
      // The site's own answer to an enquiry (RFC 3834): out-of-office replies and other responders leave it alone.
      ...(mail.kind === "acknowledgement"
        ? { "Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All" }
        : {}),
    },
    envelope: { from: config.from, to: [to] },
  };
}

export function createCustomerMailRound({
  store,
  email,
  ca,
  sender = () => defaultSender,
  now = () => new Date(),
}: {
  store: OutgoingMailStore;
  email: EmailChannelConfig;
  /** A certificate authority to trust besides the system's (tests). */
  ca?: string;
  /** The business as published at the moment of each send. */
  sender?: () => Sender;
  now?: () => Date;
}): CustomerMailRound {
  const { transport, host, authenticated } = createMailTransport(email, { ca });

  async function send(claim: ClaimedOutgoingMail, signal: AbortSignal): Promise<void> {
    const message = composeCustomerMail(claim, email, now(), sender());
    try {
      // `signal` is supported by nodemailer's SMTP transport; its types do not list it yet.
      await transport.sendMail({ ...message, signal } as SendMailOptions);
    } catch (error) {
      throw smtpFailure(error, host, authenticated);
    }
  }

  async function deliver(claim: ClaimedOutgoingMail, signal: AbortSignal): Promise<void> {
    let failure: unknown;
    try {
      // Given up before the lease ends, so the claim is settled by its holder or by nobody.
      const budget = claim.claimUntil.getTime() - now().getTime() - 3_000;
      await send(claim, AbortSignal.any([signal, AbortSignal.timeout(Math.max(budget, 1))]));
    } catch (error) {
      failure = error ?? new Error("send failed");
    }
    // Stopping aborted this send: its lease runs out and the next holder sends it.
    if (failure !== undefined && signal.aborted) return;
    const settled = await settleSend(
      failure,
      { attempts: claim.attempts, since: claim.windowStart, now: now() },
      {
        sent: () => store.markOutgoingMailSent(claim, now()),
        retry: (reason, at) => store.markOutgoingMailRetry(claim, reason, at),
        failed: (reason) => store.markOutgoingMailFailed(claim, reason),
      },
    );
    log({
      ...settled,
      mail: claim.id,
      enquiry: claim.enquiryId,
      kind: claim.kind,
      attempts: claim.attempts,
      ...(settled.outcome === "failed" ? { action: "the customer did not get this mail: see the enquiry's page" } : {}),
    });
  }

  return {
    async run(signal) {
      try {
        const claims = await store.claimOutgoingMail(customerMailBatch, now());
        await Promise.all(claims.map((claim) => deliver(claim, signal)));
        return await store.nextOutgoingMailAt();
      } catch (error) {
        log({ outcome: "error", error: `customer mail round: ${describeFailure(error)}` });
        return null;
      }
    },
    close() {
      transport.close();
    },
  };
}
