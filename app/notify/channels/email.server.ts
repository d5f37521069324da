import type { SendMailOptions } from "nodemailer";
import { createMailTransport } from "~/notify/mail-transport.server";
import type { EmailChannelConfig } from "~/config.server";
import { notificationCopy } from "~/wording";
import type { StoredEnquiry } from "~/store/records";
import { multiLine, oneLine } from "~/text/safety";
import { defaultSender, signature, type Sender } from "~/notify/sender";
import { aboutLine } from "~/enquiry/about.server";
import { DeliveryError, serviceWordsLength, type NotificationChannel } from "~/notify/channels/channel";
import { isSingleMailbox } from "~/text/mailbox";
import { enquiryMessageId } from "~/text/message-ids";

/**
 * E-mail over SMTP: one message per enquiry to every NOTIFY_EMAIL_TO address at once. The visitor's address is
 * only ever the Reply-To (when it is one plain mailbox) and a line of the body: never a recipient.
 */

/** Also here, beside the transport it guards (its tests import it from this module). */
export { isSingleMailbox };

function receivedText(receivedAt: Date): string {
  return receivedAt
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC");
}

/**
 * The message for one enquiry: headers from fixed values and one-line texts, the visitor's words in the body. `Date`
 * is when it is sent (a mail client sorts by it); when the enquiry arrived is in the body.
 */
export function composeEmail(
  enquiry: StoredEnquiry,
  config: Pick<EmailChannelConfig, "to" | "from" | "fromName">,
  sentAt = new Date(),
  sender: Sender = defaultSender,
) {
  const name = oneLine(enquiry.name, 100) || "(no name)";
  const visitorAddress = enquiry.email.trim();
  const replyTo = isSingleMailbox(visitorAddress) ? { name, address: visitorAddress } : undefined;
  const possibleSpam = enquiry.spamVerdict === "possible";
  const text = [
    notificationCopy.intro(sender.business.name),
    ...(possibleSpam ? ["", oneLine(notificationCopy.possibleSpamLine(enquiry.spamReasons.join("; ")), 2_000)] : []),
    "",
    `${notificationCopy.nameLabel}: ${name}`,
    `${notificationCopy.emailLabel}: ${oneLine(enquiry.email, 254)}`,
    `${notificationCopy.receivedLabel}: ${receivedText(enquiry.receivedAt)}`,
    `${notificationCopy.idLabel}: ${enquiry.id}`,
    ...(enquiry.about ? [aboutLine(enquiry.about, sender.siteUrl)] : []),
    "",
    `${notificationCopy.messageLabel}:`,
    multiLine(enquiry.message),
    "",
    ...signature(sender),
    "",
  ].join("\n");
  return {
    from: { name: config.fromName ?? notificationCopy.fromName(sender.business.name), address: config.from },
    to: config.to,
    replyTo,
    subject: `${possibleSpam ? `${notificationCopy.possibleSpam} ` : ""}${notificationCopy.subjectPrefix} ${name}`,
    text,
    date: sentAt,
    // The same id for every attempt: should a send be repeated (the process died after the server accepted it),
    // mail clients that merge by Message-ID show it once.
    messageId: enquiryMessageId(enquiry.id, config.from),
    headers: { "X-Enquiry-Id": enquiry.id.replace(/[^A-Za-z0-9.-]/g, "") },
    // Recipients come from the configuration alone, whatever the headers say.
    envelope: { from: config.from, to: config.to },
  };
}

/**
 * A nodemailer failure in the outbox's terms: the server's 5xx reply (a refused recipient or sender, failed
 * credentials) is permanent, with the server's own words; a server that would not upgrade to TLS when a password is
 * to be sent is permanent too (a setting to fix); everything else (4xx, timeouts, connection errors) is retried.
 */
export function smtpFailure(error: unknown, host: string, credentials: boolean): unknown {
  if (!(error instanceof Error)) return error;
  const { code, responseCode, response } = error as { code?: string; responseCode?: number; response?: string };
  if (credentials && code === "ETLS") {
    return new DeliveryError(
      `SMTP server at ${host} does not offer STARTTLS (TLS): the password in SMTP_URL is not sent in clear text; ` +
        "use a server or port with TLS (smtps:// or STARTTLS)",
      { permanent: true },
    );
  }
  if (typeof responseCode === "number" && responseCode >= 500 && responseCode <= 599) {
    const words = oneLine(response ?? error.message, serviceWordsLength);
    return new DeliveryError(`SMTP server at ${host} refused: ${words}`, { permanent: true });
  }
  return error;
}

/** `sender`: the business as published at the moment of each send (the defaults when not given). */
export function createEmailChannel(
  config: EmailChannelConfig,
  { ca, sender = () => defaultSender }: { ca?: string; sender?: () => Sender } = {},
): NotificationChannel {
  const { transport, host, authenticated } = createMailTransport(config, { ca });
  return {
    channel: "email",
    async send(enquiry, signal) {
      try {
        // `signal` is supported by nodemailer's SMTP transport; its types do not list it yet.
        await transport.sendMail({ ...composeEmail(enquiry, config, new Date(), sender()), signal } as SendMailOptions);
      } catch (error) {
        throw smtpFailure(error, host, authenticated);
      }
    },
    close() {
      transport.close();
    },
  };
}
