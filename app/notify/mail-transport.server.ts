import nodemailer, { type Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import type { DkimConfig, EmailChannelConfig } from "~/config.server";

/**
 * The one place the site opens an SMTP transport: every kind of mail it sends (notifications, digests, alerts,
 * reminders, replies, list mail, acknowledgements) goes through a transport made here, so what every message must
 * carry is added once.
 */
export interface MailTransport {
  transport: Transporter<SMTPTransport.SentMessageInfo>;
  /** `host:port`, for the words of a failure. */
  host: string;
  /** Whether it logs in (a refused login is told apart). */
  authenticated: boolean;
}

/**
 * `email`: the e-mail configuration (config.notify.email): its SMTP_URL, and its DKIM key when DKIM_* are set, so
 * every message sent through the transport is signed without its sender doing anything. `pool`: one connection kept
 * open and used for message after message (the list's announcement), where each message opens its own otherwise.
 */
export function createMailTransport(
  email: Pick<EmailChannelConfig, "smtpUrl" | "dkim">,
  { ca, pool = false }: { ca?: string; pool?: boolean } = {},
): MailTransport {
  const options = smtpOptions(email.smtpUrl, { ca });
  const dkim = email.dkim ? { dkim: dkimOptions(email.dkim) } : {};
  return {
    // A pool's messages are sent the same way; only its connections are kept (its types are a separate transport's).
    transport: pool
      ? (nodemailer.createTransport({
          ...options,
          ...dkim,
          pool: true,
          maxConnections: 1,
        }) as unknown as Transporter<SMTPTransport.SentMessageInfo>)
      : nodemailer.createTransport({ ...options, ...dkim }),
    host: `${options.host}:${options.port}`,
    authenticated: Boolean(options.auth),
  };
}

/** Well under the outbox's 30 s lease, so a slow server fails an attempt instead of outliving the claim. */
export const smtpTimeouts = {
  connectionTimeout: 8_000,
  greetingTimeout: 8_000,
  socketTimeout: 12_000,
  dnsTimeout: 5_000,
};

/**
 * The transport's options from SMTP_URL, built by hand so nothing in the URL can change other options. `ca`: a
 * certificate authority to trust besides the system's (a deployment uses NODE_EXTRA_CA_CERTS; tests pass their own).
 */
export function smtpOptions(smtpUrl: string, { ca }: { ca?: string } = {}): SMTPTransport.Options {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  const credentials = Boolean(url.username);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    // smtp://: STARTTLS whenever the server offers it (nodemailer's default); smtps://: TLS from the first byte.
    secure,
    // With a password to send, TLS is required: a server (or a man in the middle) that offers no STARTTLS gets no
    // AUTH, and the notification fails with a clear error instead of logging in in clear text.
    requireTLS: credentials && !secure,
    auth: credentials ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    ...(ca ? { tls: { ca } } : {}),
    ...smtpTimeouts,
    // Nothing in a message may read files or fetch URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/**
 * The headers signed, when present: nodemailer's list (RFC 4871 5.5: From, To, Subject, Date, Message-ID, Reply-To,
 * the MIME headers, In-Reply-To, References, List-Unsubscribe, …) with what it lacks that this site sends:
 * List-Unsubscribe-Post (RFC 8058 requires it signed, so a one-click unsubscribe cannot be added in transit) and
 * Auto-Submitted (RFC 3834, on acknowledgements). A header a message does not carry is simply left out of `h=`.
 */
export const dkimSignedHeaders = [
  "From", "Sender", "Reply-To", "Subject", "Date", "Message-ID", "To", "Cc", "MIME-Version", "Content-Type",
  "Content-Transfer-Encoding", "Content-ID", "Content-Description", "Resent-Date", "Resent-From", "Resent-Sender",
  "Resent-To", "Resent-Cc", "Resent-Message-ID", "In-Reply-To", "References", "List-Id", "List-Help",
  "List-Unsubscribe", "List-Unsubscribe-Post", "List-Subscribe", "List-Post", "List-Owner", "List-Archive",
  "Auto-Submitted",
]; // prettier-ignore

/** nodemailer's DKIM options: rsa-sha256, relaxed/relaxed, the headers above. */
export function dkimOptions(dkim: DkimConfig) {
  return {
    domainName: dkim.domainName,
    keySelector: dkim.keySelector,
    privateKey: dkim.privateKey,
    headerFieldNames: dkimSignedHeaders.join(":"),
  };
}
