import nodemailer, { type Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";

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

export function createMailTransport(smtpUrl: string, { ca }: { ca?: string } = {}): MailTransport {
  const options = smtpOptions(smtpUrl, { ca });
  return {
    transport: nodemailer.createTransport(options),
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
