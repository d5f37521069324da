import type { StoredEnquiry } from "~/store/records";
import { slackEscape } from "~/notify/channels/webhook-formats/slack";
import { fitText, summaryText } from "~/notify/channels/webhook-formats/text";

/**
 * Any other receiver (an automation service, your own endpoint): the whole enquiry as JSON, with a short `text`
 * (Slack-escaped) and `content` beside it, as the site has always sent.
 */

const summaryLimit = { maxLength: 2_000 };

export function jsonBody(enquiry: StoredEnquiry) {
  const summary = summaryText(enquiry);
  return {
    text: fitText(summary, summaryLimit, slackEscape),
    content: fitText(summary, summaryLimit),
    allowed_mentions: { parse: [] as string[] },
    enquiry: {
      id: enquiry.id,
      receivedAt: enquiry.receivedAt.toISOString(),
      name: enquiry.name,
      email: enquiry.email,
      message: enquiry.message,
    },
  };
}
