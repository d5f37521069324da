import type { EmailChannelConfig, WebhookFormat } from "~/config.server";
import { siteLink } from "~/text/site-link";
import { notificationCopy } from "~/wording/notifications";
import { reminderCopy } from "~/wording/reminders";
import { oneLine } from "~/text/safety";
import { discordEscape, suppressEmbeds } from "~/notify/channels/webhook-formats/discord";
import { googleChatEscape } from "~/notify/channels/webhook-formats/googlechat";
import { mattermostEscape } from "~/notify/channels/webhook-formats/mattermost";
import { slackEscape } from "~/notify/channels/webhook-formats/slack";
import { adaptiveCardMessage } from "~/notify/channels/webhook-formats/teams";
import { defaultSender, signature, type Sender } from "~/notify/sender";

/**
 * The reminder's message: "Reminder: {customer}", the day it was set for, and the enquiry's address in the inbox.
 * The customer's name is what they typed: only ever one safe line (oneLine), escaped for each chat format.
 */

const words = reminderCopy.message;

export interface ReminderFacts {
  id: string;
  enquiryId: string;
  dueOn: string;
  /** The customer's name, as they wrote it. */
  name: string;
}

/** The customer's name as one safe line, or "a customer" when they left nothing readable. */
export const customerName = (name: string) => oneLine(name, 100) || words.nameless;

/** PUBLIC_URL/inbox/{id}. */
export const enquiryUrl = (publicUrl: string, enquiryId: string) =>
  siteLink(publicUrl, `/inbox/${encodeURIComponent(enquiryId)}`);

/** The lines: head, what it is about, the link. Our own words and the link are never escaped. */
export function reminderLines(reminder: ReminderFacts, publicUrl: string, escape: (text: string) => string): string[] {
  const name = escape(customerName(reminder.name));
  return [
    words.head(name),
    "",
    words.body(name, reminder.dueOn),
    words.open(enquiryUrl(publicUrl, reminder.enquiryId)),
  ];
}

/** The e-mail: to the owner's addresses (NOTIFY_EMAIL_TO) from the site's sender, one Message-ID for every attempt. */
export function composeReminderEmail(
  reminder: ReminderFacts,
  publicUrl: string,
  config: Pick<EmailChannelConfig, "to" | "from" | "fromName">,
  sentAt = new Date(),
  sender: Sender = defaultSender,
) {
  const fromDomain = config.from.slice(config.from.lastIndexOf("@") + 1);
  const lines = [...reminderLines(reminder, publicUrl, (text) => text).slice(2), "", ...signature(sender)];
  const id = reminder.id.replace(/[^A-Za-z0-9-]/g, "");
  return {
    from: { name: config.fromName ?? notificationCopy.fromName(sender.business.name), address: config.from },
    to: config.to,
    subject: words.subject(customerName(reminder.name)),
    text: `${lines.join("\n")}\n`,
    date: sentAt,
    // A send repeated (a process died after the server took it, a retry after one channel failed): shown once.
    messageId: `<reminder-${id}-${reminder.dueOn}@${fromDomain}>`,
    headers: { "X-Reminder": id },
    envelope: { from: config.from, to: config.to },
  };
}

const text = (reminder: ReminderFacts, publicUrl: string, escape: (text: string) => string) =>
  reminderLines(reminder, publicUrl, escape).join("\n");

/** The chat message in the format NOTIFY_WEBHOOK_FORMAT names (the same fields each enquiry's message uses). */
export function reminderWebhookBody(format: WebhookFormat, reminder: ReminderFacts, publicUrl: string): unknown {
  switch (format) {
    case "slack":
      return { text: text(reminder, publicUrl, slackEscape) };
    case "discord":
      return {
        content: text(reminder, publicUrl, discordEscape),
        allowed_mentions: { parse: [] as string[] },
        flags: suppressEmbeds,
      };
    case "mattermost":
      return { text: text(reminder, publicUrl, mattermostEscape) };
    case "googlechat":
      return { text: text(reminder, publicUrl, googleChatEscape) };
    case "teams": {
      const [head, , ...rest] = reminderLines(reminder, publicUrl, (plain) => plain);
      return adaptiveCardMessage(
        [
          { type: "TextBlock", text: head, weight: "Bolder", size: "Medium", wrap: true },
          { type: "RichTextBlock", inlines: [{ type: "TextRun", text: rest.join("\n") }] },
        ],
        [{ type: "Action.OpenUrl", title: words.button, url: enquiryUrl(publicUrl, reminder.enquiryId) }],
      );
    }
    case "json":
      return {
        text: text(reminder, publicUrl, slackEscape),
        content: text(reminder, publicUrl, (plain) => plain),
        allowed_mentions: { parse: [] as string[] },
        reminder: {
          id: reminder.id,
          enquiryId: reminder.enquiryId,
          dueOn: reminder.dueOn,
          name: customerName(reminder.name),
          url: enquiryUrl(publicUrl, reminder.enquiryId),
        },
      };
  }
}
