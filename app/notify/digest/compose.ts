import type { EmailChannelConfig, WebhookFormat } from "~/config.server";
import { notificationCopy, spamDigestCopy } from "~/wording/notifications";
import type { StoredEnquiry } from "~/store/records";
import { defaultSender, signature, type Sender } from "~/notify/sender";
import { oneLine } from "~/text/safety";
import { discordEscape, discordLimit, suppressEmbeds } from "~/notify/channels/webhook-formats/discord";
import { googleChatEscape, googleChatLimit } from "~/notify/channels/webhook-formats/googlechat";
import { mattermostEscape, mattermostLimit } from "~/notify/channels/webhook-formats/mattermost";
import { slackEscape, slackLimit } from "~/notify/channels/webhook-formats/slack";
import { adaptiveCardMessage, teamsLimit } from "~/notify/channels/webhook-formats/teams";

/**
 * The daily spam digest's words: one e-mail and one chat message listing what was kept aside (name, address, the
 * message's first line, each made one safe line as every notification's visitor text is), with the Spam folder's
 * address. Each chat format escapes the visitors' words its own way; the list is cut by whole lines to fit.
 */

export interface SpamDigest {
  /** The local day it is for (YYYY-MM-DD). */
  day: string;
  /** Oldest first; possibly fewer than `total`. */
  spam: StoredEnquiry[];
  total: number;
  /** PUBLIC_URL + /inbox?folder=spam */
  spamFolderUrl: string;
}

/** The first line of a message that has words on it, as one safe line. */
export function firstLine(message: string): string {
  const line = message.split(/\r\n?|\n/).find((text) => text.trim() !== "") ?? "";
  return oneLine(line, 100);
}

interface Entry {
  id: string;
  receivedAt: string;
  name: string;
  email: string;
  firstLine: string;
}

const entries = (digest: SpamDigest): Entry[] =>
  digest.spam.map((enquiry) => ({
    id: enquiry.id,
    receivedAt: enquiry.receivedAt.toISOString(),
    name: oneLine(enquiry.name, 100) || spamDigestCopy.noName,
    email: oneLine(enquiry.email, 254),
    firstLine: firstLine(enquiry.message),
  }));

/** One entry's line: `- Name (address): first line`, the visitor's words escaped for where it goes. */
const entryLine = (entry: Entry, escape: (text: string) => string) =>
  `- ${escape(entry.name)} (${escape(entry.email)}): ${escape(entry.firstLine)}`;

/**
 * The lines: head, the entries that fit within `maxLength` with the Spam folder's line kept, then how many more.
 * Our own words and the folder's address are never escaped (an escaped URL is no link).
 */
export function digestLines(
  digest: SpamDigest,
  escape: (text: string) => string,
  maxLength = Infinity,
  head = spamDigestCopy.chatTitle(digest.total),
): string[] {
  const folder = `${spamDigestCopy.folderLabel}: ${digest.spamFolderUrl}`;
  const all = entries(digest).map((entry) => entryLine(entry, escape));
  const room = maxLength - head.length - folder.length - spamDigestCopy.more(digest.total).length - 8;
  const kept: string[] = [];
  let used = 0;
  for (const line of all) {
    if (used + line.length + 1 > room) break;
    kept.push(line);
    used += line.length + 1;
  }
  const left = digest.total - kept.length;
  return [head, "", ...kept, ...(left > 0 ? [spamDigestCopy.more(left)] : []), "", folder];
}

/** The e-mail: to the owner's addresses from the site's sender, the same Message-ID for every attempt of the day. */
export function composeDigestEmail(
  digest: SpamDigest,
  config: Pick<EmailChannelConfig, "to" | "from" | "fromName">,
  sentAt = new Date(),
  sender: Sender = defaultSender,
) {
  const fromDomain = config.from.slice(config.from.lastIndexOf("@") + 1);
  const lines = [
    ...digestLines(digest, (text) => text, Infinity, spamDigestCopy.intro(digest.total)),
    "",
    ...signature(sender),
  ];
  const day = digest.day.replace(/[^0-9-]/g, "");
  return {
    from: { name: config.fromName ?? notificationCopy.fromName(sender.business.name), address: config.from },
    to: config.to,
    subject: spamDigestCopy.subject(digest.total, day),
    text: `${lines.join("\n")}\n`,
    date: sentAt,
    // Should a send be repeated (a process died after the server accepted it), mail clients show it once.
    messageId: `<spam-digest-${day}@${fromDomain}>`,
    headers: { "X-Spam-Digest": day },
    envelope: { from: config.from, to: config.to },
  };
}

const text = (digest: SpamDigest, escape: (text: string) => string, maxLength: number) =>
  digestLines(digest, escape, maxLength).join("\n");

/** The chat message in the format NOTIFY_WEBHOOK_FORMAT names (the same fields each enquiry's message uses). */
export function digestWebhookBody(format: WebhookFormat, digest: SpamDigest): unknown {
  switch (format) {
    case "slack":
      return { text: text(digest, slackEscape, slackLimit.maxLength) };
    case "discord":
      return {
        content: text(digest, discordEscape, discordLimit.maxLength),
        allowed_mentions: { parse: [] as string[] },
        flags: suppressEmbeds,
      };
    case "mattermost":
      return { text: text(digest, mattermostEscape, mattermostLimit.maxLength) };
    case "googlechat":
      return { text: text(digest, googleChatEscape, googleChatLimit.maxLength) };
    case "teams":
      return teamsDigest(digest);
    case "json": {
      const plain = text(digest, (words) => words, 2_000);
      return {
        text: text(digest, slackEscape, 2_000),
        content: plain,
        allowed_mentions: { parse: [] as string[] },
        spamDigest: {
          day: digest.day,
          total: digest.total,
          spamFolderUrl: digest.spamFolderUrl,
          enquiries: entries(digest),
        },
      };
    }
  }
}

/** Teams: the list in a plain TextRun (no markdown, no links from visitors), the folder as the card's one button. */
function teamsDigest(digest: SpamDigest) {
  const [head, , ...rest] = digestLines(digest, (words) => words, teamsLimit.maxLength);
  const list = rest.slice(0, -2).join("\n");
  return adaptiveCardMessage(
    [
      { type: "TextBlock", text: head, weight: "Bolder", size: "Medium", wrap: true },
      { type: "RichTextBlock", inlines: [{ type: "TextRun", text: list }] },
    ],
    [{ type: "Action.OpenUrl", title: spamDigestCopy.folderLabel, url: digest.spamFolderUrl }],
  );
}
