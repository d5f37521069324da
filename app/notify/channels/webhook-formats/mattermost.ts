import type { StoredEnquiry } from "~/store/records";
import { fitText, summaryText } from "~/notify/channels/webhook-formats/text";

/**
 * Mattermost incoming webhooks (self-hosted, so chosen with NOTIFY_WEBHOOK_FORMAT=mattermost): `{ text }` in markdown,
 * at most 16,383 characters per post. A visitor's `@channel`, `@here`, `@all` or `@someone` would notify people: a
 * zero-width space after the @ keeps the word and drops the mention. Mattermost also reads Slack's `<!channel>`, and
 * markdown links: those are broken the same way and escaped with backslashes.
 */

export const mattermostLimit = { maxLength: 16_383 };

const zeroWidthSpace = "\u200b";

export function mattermostEscape(text: string): string {
  return (
    text
      .replace(/[\\*_~`|>#\-[\]()]/g, "\\$&")
      // An @ that starts a word is a mention; inside a word (an e-mail address) it is not.
      .replace(/(^|[^\p{L}\p{N}_.-])@(?=[\p{L}\p{N}_])/gu, `$1@${zeroWidthSpace}`)
      .replace(/<(?=[!@#])/g, `<${zeroWidthSpace}`)
  );
}

/** Escaped as a whole (a mention is judged by the character before it), then cut: a cut that lands inside an escape
 * leaves a lone backslash or @ before the note, which neither formats nor mentions anything. */
export function mattermostBody(enquiry: StoredEnquiry, siteUrl: string | null = null) {
  return { text: fitText(mattermostEscape(summaryText(enquiry, siteUrl)), mattermostLimit) };
}
