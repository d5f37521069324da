import { z } from "zod";
import type { DkimConfig } from "~/config/dkim.server";
import { emptyAsUnset } from "~/config/env.server";

/**
 * Notifications: e-mail (SMTP_URL, NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM: all three or none) and a chat webhook
 * (NOTIFY_WEBHOOK_URL, NOTIFY_WEBHOOK_FORMAT); the list's pace (MAIL_PER_MINUTE).
 */

/** A plain address (no display name, comments or lists): one mailbox, nothing a header could be built from. */
const plainAddress = z.email();

/** One or more plain addresses separated by commas; blanks around them are ignored. */
const addressList = z
  .string()
  .transform((value) => value.split(",").map((part) => part.trim()))
  .refine(
    (parts) => parts.length > 0 && parts.every((part) => plainAddress.safeParse(part).success),
    "must be one or more e-mail addresses separated by commas, e.g. owner@example.com,shop@example.com",
  );

/** `site@example.com` or `Display Name <site@example.com>` (the name optionally in double quotes). */
function parseSender(value: string): { name: string | undefined; address: string } | null {
  const match = /^(?:(.*?)\s*<([^<>]*)>|([^<>]*))$/.exec(value);
  if (!match) return null;
  const address = (match[2] ?? match[3] ?? "").trim();
  const name = match[1]?.replace(/^"(.*)"$/, "$1").trim() || undefined;
  // eslint-disable-next-line no-control-regex -- a display name is one line of text
  if (!plainAddress.safeParse(address).success || (name && /[\u0000-\u001f\u007f"\\<>]/.test(name))) return null;
  return { name, address };
}

/** The payload formats NOTIFY_WEBHOOK_FORMAT names (app/notify/channels/webhook-formats/: one file each). */
export const webhookFormats = ["slack", "discord", "mattermost", "googlechat", "teams", "json"] as const;
export type WebhookFormat = (typeof webhookFormats)[number];

export const notifyEnv = z.object({
  SMTP_URL: z.preprocess(
    emptyAsUnset,
    z
      .url({
        protocol: /^smtps?$/,
        hostname: /.+/,
        error: "must be smtp://[user:password@]host[:port] (STARTTLS when offered) or smtps://… (TLS from the start)",
        abort: true,
      })
      .refine((value) => {
        const url = new URL(value);
        return (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash;
      }, "must be scheme, optional user:password, host and port only, without a path, query or fragment")
      .refine((value) => {
        const url = new URL(value);
        try {
          decodeURIComponent(url.username);
          decodeURIComponent(url.password);
          return true;
        } catch {
          return false;
        }
      }, "the user or password has a % that is not percent-encoding: write % as %25")
      .optional(),
  ),
  NOTIFY_EMAIL_TO: z.preprocess(emptyAsUnset, addressList.optional()),
  NOTIFY_EMAIL_FROM: z.preprocess(
    (value) => emptyAsUnset(typeof value === "string" ? value.trim() : value),
    z
      .string()
      .transform((value, context) => {
        const sender = parseSender(value);
        if (!sender) {
          context.addIssue({
            code: "custom",
            message: 'must be one e-mail address, e.g. site@example.com or "Haunt website <site@example.com>"',
          });
          return z.NEVER;
        }
        return sender;
      })
      .optional(),
  ),
  NOTIFY_WEBHOOK_URL: z.preprocess(
    emptyAsUnset,
    z
      .url({
        protocol: /^https?$/,
        error: "must be an http:// or https:// URL (a Slack, Discord, Mattermost, Google Chat or Teams webhook)",
      })
      .optional(),
  ),
  // The list's announcements: at most this many e-mails a minute for all instances together (docs/waitlist.md).
  MAIL_PER_MINUTE: z.preprocess(
    emptyAsUnset,
    z.coerce
      .number({ error: "must be a whole number of e-mails a minute, 1 to 6000, e.g. 60" })
      .int("must be a whole number of e-mails a minute, 1 to 6000, e.g. 60")
      .min(1, "must be at least 1 (an announcement must be able to go out)")
      .max(6000, "must be at most 6000 (one every 10 ms)")
      .default(60),
  ),
  // Unset: chosen from the webhook URL's host (see docs/notifications.md).
  NOTIFY_WEBHOOK_FORMAT: z.preprocess(
    (value) => emptyAsUnset(typeof value === "string" ? value.trim().toLowerCase() : value),
    z.enum(webhookFormats, { error: `must be one of ${webhookFormats.join(", ")}` }).optional(),
  ),
});

/** E-mail needs all three of its variables or none: a half-configured channel would silently notify nobody. */
export function notifyProblems(env: Record<string, string | undefined>): string[] {
  const set = (name: string) => Boolean(env[name]);
  const emailVariables = ["SMTP_URL", "NOTIFY_EMAIL_TO", "NOTIFY_EMAIL_FROM"];
  const given = emailVariables.filter(set);
  if (given.length === 0 || given.length === emailVariables.length) return [];
  return emailVariables
    .filter((name) => !set(name))
    .map(
      (name) =>
        `  ${name}: must be set too, because ${given.join(" and ")} ${given.length > 1 ? "are" : "is"} (e-mail needs SMTP_URL, NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM)`,
    );
}

export interface EmailChannelConfig {
  /** smtp:// or smtps:// with optional credentials. Never logged: it may hold a password. */
  smtpUrl: string;
  to: string[];
  /** The sender's address. */
  from: string;
  /** The sender's display name, when NOTIFY_EMAIL_FROM gives one. */
  fromName?: string;
  /**
   * DKIM_*: every message sent with this configuration is signed (createMailTransport adds it to the transport);
   * unset: not signed. Never logged: it holds the private key.
   */
  dkim?: DkimConfig;
}

export interface NotifyConfig {
  email: EmailChannelConfig | undefined;
  /** Never logged whole: Slack's and Discord's webhook URLs are secrets. */
  webhookUrl: string | undefined;
  /** The payload format NOTIFY_WEBHOOK_FORMAT names; undefined: chosen from the URL's host. */
  webhookFormat?: WebhookFormat;
  /** MAIL_PER_MINUTE: the list's announcements, for all instances together; unset (tests built by hand): 60. */
  mailPerMinute?: number;
}

export function notifyConfig(data: z.infer<typeof notifyEnv>, dkim?: DkimConfig): NotifyConfig {
  const { SMTP_URL, NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM, NOTIFY_WEBHOOK_URL, NOTIFY_WEBHOOK_FORMAT, MAIL_PER_MINUTE } =
    data;
  const email =
    SMTP_URL && NOTIFY_EMAIL_TO && NOTIFY_EMAIL_FROM
      ? {
          smtpUrl: SMTP_URL,
          to: NOTIFY_EMAIL_TO,
          from: NOTIFY_EMAIL_FROM.address,
          ...(NOTIFY_EMAIL_FROM.name ? { fromName: NOTIFY_EMAIL_FROM.name } : {}),
          ...(dkim ? { dkim } : {}),
        }
      : undefined;
  return {
    email,
    webhookUrl: NOTIFY_WEBHOOK_URL,
    ...(NOTIFY_WEBHOOK_FORMAT ? { webhookFormat: NOTIFY_WEBHOOK_FORMAT } : {}),
    mailPerMinute: MAIL_PER_MINUTE,
  };
}
