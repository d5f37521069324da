import type { StoredEnquiry } from "~/store/records";
import { slackEscape } from "~/notify/channels/webhook-formats/slack";
import { fitText, summaryText } from "~/notify/channels/webhook-formats/text";
import { projectAddress } from "~/enquiry/about.server";

/**
 * Any other receiver (an automation service, your own endpoint): the whole enquiry as JSON, with a short `text`
 * (Slack-escaped) and `content` beside it, as the site has always sent.
 */

const summaryLimit = { maxLength: 2_000 };

export function jsonBody(enquiry: StoredEnquiry, siteUrl: string | null = null) {
  const summary = summaryText(enquiry, siteUrl);
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
      // Only for an enquiry sent from a project's page, so every other body stays as it always was.
      ...(enquiry.about ? { about: { ...enquiry.about, url: projectAddress(siteUrl, enquiry.about.slug) } } : {}),
    },
  };
}
