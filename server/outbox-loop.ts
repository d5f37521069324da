import { loopSlot } from "~/background-loop.server";
import { dkimWarnings, type NotifyConfig } from "~/config.server";
import type { NotificationChannel } from "~/notify/channels/channel";
import { createEmailChannel } from "~/notify/channels/email.server";
import { formatForUrl } from "~/notify/channels/webhook-formats";
import { createWebhookChannel } from "~/notify/channels/webhook.server";
import { createOutbox, type Outbox, type OutboxOptions } from "~/notify/outbox-round.server";
import type { Sender } from "~/notify/sender";
import type { Channel } from "~/store/records";
import type { NotificationStore } from "~/store/notifications.types";
import { getConfig } from "./environment";
import { currentSite } from "./site-content-poll";
import { log } from "~/log.server";

/**
 * The server process's notification sender: one outbox (app/notify/outbox-round.server.ts) for the configured channels,
 * started once the inbox database is open, woken by each enquiry this process stores, stopped at the shutdown signal.
 */

/** The channels the configuration asks for, in the store's terms: save() creates one notification for each. */
export function configuredChannels(notify: NotifyConfig | undefined): Channel[] {
  const result: Channel[] = [];
  if (notify?.email) result.push("email");
  if (notify?.webhookUrl) result.push("webhook");
  return result;
}

/** Where notifications go, for the start log: hosts and counts only (URLs and credentials are secrets). */
function describeChannels(notify: NotifyConfig): string {
  const parts: string[] = [];
  if (notify.email) {
    const smtp = new URL(notify.email.smtpUrl);
    const dkim = notify.email.dkim;
    parts.push(
      `e-mail to ${notify.email.to.length} address(es) through ${smtp.protocol}//${smtp.host}` +
        (dkim ? `, DKIM-signed (d=${dkim.domainName}, s=${dkim.keySelector})` : ", not DKIM-signed (DKIM_* unset)"),
    );
  }
  if (notify.webhookUrl)
    parts.push(
      `webhook at ${new URL(notify.webhookUrl).host} (${notify.webhookFormat ?? formatForUrl(notify.webhookUrl)} format)`,
    );
  return parts.join(", ");
}

/** The business as this process serves it now (the published version it holds), for each e-mail's words and signature. */
export const publishedSender =
  (publicUrl: string): (() => Sender) =>
  () => ({ business: currentSite().content.business, siteUrl: publicUrl });

const running = loopSlot<Outbox>();

/**
 * Starts this process's sender for the configured channels. With none configured, enquiries are still stored, and
 * the log says plainly that nobody will hear of them.
 */
export function startOutbox(
  store: NotificationStore,
  notify: NotifyConfig | undefined,
  options: Partial<OutboxOptions> = {},
): Outbox | undefined {
  return running.start(() => {
    // Once per process: a signing domain that does not align with the From address (or nothing to sign).
    const { dkim } = getConfig();
    for (const warning of dkimWarnings({ dkim, from: notify?.email?.from })) log.warn(warning);
    if (!notify || configuredChannels(notify).length === 0) {
      log.warn(
        "notify: no notification channel is configured (SMTP_URL + NOTIFY_EMAIL_TO + NOTIFY_EMAIL_FROM, or NOTIFY_WEBHOOK_URL): " +
          "enquiries are stored, but nobody will be notified. Read them with `npm run inbox`.",
      );
      return undefined;
    }
    const channels: NotificationChannel[] = [];
    if (notify.email)
      channels.push(createEmailChannel(notify.email, { sender: publishedSender(getConfig().publicUrl) }));
    if (notify.webhookUrl)
      channels.push(createWebhookChannel(notify.webhookUrl, notify.webhookFormat, getConfig().publicUrl));
    const outbox = createOutbox({ store, channels, ...options });
    outbox.start();
    log.info(`notify: each new enquiry is announced by ${describeChannels(notify)}`);
    return outbox;
  });
}

/** Tells the sender that this process has just stored an enquiry, so it goes out now rather than at the next poll. */
export const wakeOutbox = running.wake;

export const stopOutbox = running.stop;
