import type { StoredEnquiry } from "~/store/records";
import { fitText, summaryText } from "~/notify/channels/webhook-formats/text";

/**
 * Slack incoming webhooks (hooks.slack.com): `{ text }` in mrkdwn. Slack reads `<…>` as links and mentions
 * (`<!channel>`, `<@U123>`, `<https://x|label>`), so `& < >` are escaped as its formatting reference asks: a visitor's
 * words stay words. Slack advises keeping `text` within 4,000 characters (it truncates far longer ones).
 */

export const slackLimit = { maxLength: 4_000 };

export const slackEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function slackBody(enquiry: StoredEnquiry, siteUrl: string | null = null) {
  return { text: fitText(summaryText(enquiry, siteUrl), slackLimit, slackEscape) };
}
