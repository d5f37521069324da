import { setTimeout } from "node:timers/promises";
import { siteLink } from "~/text/site-link";
import type { SendMailOptions } from "nodemailer";
import type { EmailChannelConfig } from "~/config.server";
import { log as logger } from "~/log.server";
import { DeliveryError, describeFailure } from "~/notify/channels/channel";
import { smtpFailure } from "~/notify/channels/email.server";
import { createMailTransport } from "~/notify/mail-transport.server";
import { settleSend } from "~/notify/outbox-round.server";
import { defaultSender, signature, type Sender } from "~/notify/sender";
import type { ClaimedListMail, WaitlistStore } from "~/store/waitlist.types";
import { mailDomain } from "~/text/message-ids";
import { isSingleMailbox } from "~/text/mailbox";
import { multiLine, oneLine } from "~/text/safety";
import { waitlistMail } from "~/wording/waitlist";
import { announcementText } from "~/wording/announcement";

/**
 * One round of the list's sender (docs/waitlist.md), run by each instance when woken (a visitor just asked) and when
 * the next mail is due (server/list-mail-loop.ts): claim the due list mail under a lease (one instance gets each;
 * announcements one per 60/MAIL_PER_MINUTE seconds for all instances together, decided by the store), send each over
 * SMTP_URL, and settle it: sent, retried with the outbox's backoff for a day after it was stored, or failed for good.
 * Only the holder of a claim settles it, so a mail goes out once.
 */

/** Mails claimed in one round at most (confirmations; announcements are one per round at most by the pace). */
export const listMailBatch = 20;

/** The pause between two announcements for MAIL_PER_MINUTE. */
export const announcementIntervalMs = (mailPerMinute = 60) => Math.ceil(60_000 / Math.max(1, mailPerMinute));

export interface ListMailRound {
  /** Runs one round; resolves with when the next mail is due, if one is pending. */
  run(signal: AbortSignal): Promise<Date | null>;
  close(): void;
}

/** One JSON line per outcome; never the address or the words. */
function log(entry: Record<string, unknown>): void {
  logger.event("list-mail", entry, entry.outcome === "failed" || entry.outcome === "error" ? "error" : "info");
}

/** The links a list mail carries, under PUBLIC_URL. */
export const confirmLink = (publicUrl: string, token: string) => siteLink(publicUrl, `/waitlist/confirm/${token}`);
export const unsubscribeLink = (publicUrl: string, token: string) =>
  siteLink(publicUrl, `/waitlist/unsubscribe/${token}`);

/** The stored Message-ID, completed with the sender's domain when it is only the id part. */
export function listMessageId(stored: string, fromAddress: string): string {
  if (/^<[^<>@\s]+@[^<>@\s]+>$/.test(stored)) return stored;
  return `<${stored.replace(/[^A-Za-z0-9.-]/g, "")}@${mailDomain(fromAddress)}>`;
}

/**
 * The message for one claimed list mail: From NOTIFY_EMAIL_FROM under the business's name, to the stored one mailbox.
 * A confirmation carries its link and when it ends; an announcement the owner's words, the unsubscribe link, and the
 * headers of RFC 2369 and RFC 8058 so that mail programs offer "Unsubscribe" and can do it with one POST.
 */
export function composeListMail(
  mail: Pick<
    ClaimedListMail,
    "kind" | "to" | "messageId" | "confirmToken" | "confirmUntil" | "unsubscribeToken" | "announcement"
  >,
  {
    config,
    publicUrl,
    timeZone,
    sender = defaultSender,
    sentAt = new Date(),
  }: {
    config: Pick<EmailChannelConfig, "from">;
    publicUrl: string;
    timeZone: string;
    sender?: Sender;
    sentAt?: Date;
  },
): SendMailOptions {
  const to = mail.to.trim();
  if (!isSingleMailbox(to)) throw new DeliveryError(waitlistMail.notOneMailbox, { permanent: true });
  const business = oneLine(sender.business.name, 100);
  const common = {
    from: { name: business, address: config.from },
    to,
    date: sentAt,
    messageId: listMessageId(mail.messageId, config.from),
    envelope: { from: config.from, to: [to] },
  };
  if (mail.kind === "confirm") {
    // Its link ended (or was used) since it was stored: nothing to send, and never again.
    if (!mail.confirmToken || !mail.confirmUntil) {
      throw new DeliveryError("the confirmation link ended before it was sent", { permanent: true });
    }
    const until = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone }).format(mail.confirmUntil);
    return {
      ...common,
      subject: waitlistMail.confirmSubject(business),
      text: [
        waitlistMail.confirmBody(business, confirmLink(publicUrl, mail.confirmToken), until),
        "",
        ...signature(sender),
        "",
      ].join("\n"),
    };
  }
  if (!mail.announcement) throw new DeliveryError("the announcement is gone", { permanent: true });
  const unsubscribe = unsubscribeLink(publicUrl, mail.unsubscribeToken);
  return {
    ...common,
    subject: oneLine(mail.announcement.subject, 200),
    text: announcementText(multiLine(mail.announcement.body), unsubscribe, signature(sender)),
    // The list's own headers; nodemailer's `list` option would add List-Unsubscribe only.
    headers: {
      "List-Unsubscribe": `<${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      Precedence: "bulk",
    },
  };
}

export function createListMailRound({
  store,
  email,
  publicUrl,
  timeZone,
  mailPerMinute = 60,
  ca,
  sender = () => defaultSender,
  now = () => new Date(),
}: {
  store: WaitlistStore;
  email: EmailChannelConfig;
  publicUrl: string;
  timeZone: string;
  mailPerMinute?: number;
  /** A certificate authority to trust besides the system's (tests). */
  ca?: string;
  /** The business as published at the moment of each send. */
  sender?: () => Sender;
  now?: () => Date;
}): ListMailRound {
  const { transport, host, authenticated } = createMailTransport(email, { ca, pool: true });
  const intervalMs = announcementIntervalMs(mailPerMinute);

  async function deliver(claim: ClaimedListMail, signal: AbortSignal): Promise<void> {
    let failure: unknown;
    try {
      const message = composeListMail(claim, { config: email, publicUrl, timeZone, sender: sender(), sentAt: now() });
      // Given up before the lease ends, so the claim is settled by its holder or by nobody.
      const budget = claim.claimUntil.getTime() - now().getTime() - 3_000;
      const stop = AbortSignal.any([signal, AbortSignal.timeout(Math.max(budget, 1))]);
      try {
        // `signal` is supported by nodemailer's SMTP transport; its types do not list it yet.
        await transport.sendMail({ ...message, signal: stop } as SendMailOptions);
      } catch (error) {
        throw smtpFailure(error, host, authenticated);
      }
    } catch (error) {
      failure = error ?? new Error("send failed");
    }
    // Stopping aborted this send: its lease runs out and the next holder sends it.
    if (failure !== undefined && signal.aborted) return;
    const settled = await settleSend(
      failure,
      { attempts: claim.attempts, since: claim.createdAt, now: now() },
      {
        sent: () => store.markListMailSent(claim, now()),
        retry: (reason, at) => store.markListMailRetry(claim, reason, at),
        failed: (reason) => store.markListMailFailed(claim, reason),
      },
    );
    log({ ...settled, mail: claim.id, kind: claim.kind, attempts: claim.attempts });
  }

  return {
    async run(signal) {
      try {
        const start = now().getTime();
        const claims = await store.claimListMail(listMailBatch, intervalMs, new Date(start));
        const announcements = claims.filter((claim) => claim.kind === "announcement");
        await Promise.all([
          ...claims.filter((claim) => claim.kind === "confirm").map((claim) => deliver(claim, signal)),
          // Each announcement in its own turn of the pace: an interval apart from the claim on.
          (async () => {
            for (const [turn, claim] of announcements.entries()) {
              const wait = start + turn * intervalMs - now().getTime();
              if (wait > 0) await setTimeout(wait, undefined, { signal }).catch(() => {});
              if (signal.aborted) return;
              await deliver(claim, signal);
            }
          })(),
        ]);
        return await store.nextListMailAt();
      } catch (error) {
        log({ outcome: "error", error: `list mail round: ${describeFailure(error)}` });
        return null;
      }
    },
    close() {
      transport.close();
    },
  };
}
