import type { SendMailOptions } from "nodemailer";
import { createMailTransport } from "~/notify/mail-transport.server";
import type { EmailChannelConfig, NotifyConfig, WebhookFormat } from "~/config.server";
import type { Channel } from "~/store/records";
import { smtpFailure } from "~/notify/channels/email.server";
import { postWebhook } from "~/notify/channels/webhook.server";
import { formatForUrl } from "~/notify/channels/webhook-formats";

export type ChannelSend<Item> = (item: Item, signal: AbortSignal) => Promise<void>;

/**
 * One send function per configured channel, over the same transport settings as each enquiry's notification, for a
 * message that is not an enquiry (the spam digest, a login alert): `email` composes the mail, `webhook` the body.
 */
export function channelSenders<Item>(
  notify: NotifyConfig,
  compose: {
    email: (item: Item, config: EmailChannelConfig) => SendMailOptions;
    webhook: (item: Item, format: WebhookFormat) => unknown;
  },
): { senders: Map<Channel, ChannelSend<Item>>; close(): void } {
  const senders = new Map<Channel, ChannelSend<Item>>();
  const closers: (() => void)[] = [];
  const email = notify.email;
  if (email) {
    const { transport, host, authenticated } = createMailTransport(email);
    closers.push(() => transport.close());
    senders.set("email", async (item, signal) => {
      try {
        await transport.sendMail({ ...compose.email(item, email), signal } as SendMailOptions);
      } catch (error) {
        throw smtpFailure(error, host, authenticated);
      }
    });
  }
  const url = notify.webhookUrl;
  if (url) {
    const format = notify.webhookFormat ?? formatForUrl(url);
    senders.set("webhook", (item, signal) => postWebhook(url, compose.webhook(item, format), signal));
  }
  return { senders, close: () => closers.forEach((close) => close()) };
}
