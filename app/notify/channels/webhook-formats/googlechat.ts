import type { StoredEnquiry } from "~/store/records";
import { fitText, summaryText } from "~/notify/channels/webhook-formats/text";

/**
 * Google Chat incoming webhooks (chat.googleapis.com): `{ text }` and nothing else (the API rejects unknown fields).
 * Chat reads `<users/all>` as a mention of everyone and `<https://…|label>` as a link; a zero-width space after a `<`
 * keeps both as text. Chat takes messages of at most 32,000 bytes: 4,096 characters (16 KB at most in UTF-8) stay well
 * within that and readable.
 */

export const googleChatLimit = { maxLength: 4_096 };

export const googleChatEscape = (text: string) => text.replace(/</g, "<\u200b");

export function googleChatBody(enquiry: StoredEnquiry, siteUrl: string | null = null) {
  return { text: fitText(summaryText(enquiry, siteUrl), googleChatLimit, googleChatEscape) };
}
