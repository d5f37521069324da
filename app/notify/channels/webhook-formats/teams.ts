import { notificationCopy } from "~/wording/notifications";
import type { StoredEnquiry } from "~/store/records";
import { multiLine } from "~/text/safety";
import { fitText, headLine } from "~/notify/channels/webhook-formats/text";
import { aboutLine } from "~/enquiry/about.server";

/**
 * Microsoft Teams through a Workflows (Power Automate) webhook, or an incoming webhook on *.webhook.office.com: a
 * `message` whose one attachment is an Adaptive Card. The visitor's words go in TextRuns, which Adaptive Cards show as
 * plain text (no markdown, so no links); a mention needs an `msteams.entities` entry, which is never sent. Teams takes
 * messages of at most 28 KB: the message text is kept well within that.
 */

export const teamsLimit = { maxLength: 12_000, maxBytes: 20_000 };

const plainText = (text: string) => ({ type: "RichTextBlock", inlines: [{ type: "TextRun", text }] });

/** A Teams message carrying one Adaptive Card with these body blocks (and, when given, these actions). */
export function adaptiveCardMessage(body: unknown[], actions?: unknown[]) {
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body,
          ...(actions ? { actions } : {}),
        },
      },
    ],
  };
}

export function teamsBody(enquiry: StoredEnquiry, siteUrl: string | null = null) {
  return adaptiveCardMessage([
    { type: "TextBlock", text: notificationCopy.chatTitle, weight: "Bolder", size: "Medium", wrap: true },
    plainText(headLine(enquiry)),
    ...(enquiry.about ? [plainText(aboutLine(enquiry.about, siteUrl))] : []),
    plainText(fitText(multiLine(enquiry.message), teamsLimit)),
  ]);
}
