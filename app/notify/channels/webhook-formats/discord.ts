import type { StoredEnquiry } from "~/store/records";
import { fitText, summaryText } from "~/notify/channels/webhook-formats/text";

/**
 * Discord's execute-webhook (discord.com/api/webhooks/…): `content` of at most 2,000 characters, rendered as markdown.
 * A visitor's markdown is escaped with backslashes (no masked `[link](https://…)`, headings, quotes or spoilers),
 * `allowed_mentions: { parse: [] }` keeps `@everyone`, `<@id>` and `<@&role>` from pinging anyone, and the
 * SUPPRESS_EMBEDS flag keeps links from unfolding into previews.
 */

export const discordLimit = { maxLength: 2_000 };
/** Discord's message flag SUPPRESS_EMBEDS (1 << 2), one of the two a webhook may set. */
export const suppressEmbeds = 1 << 2;

/** Markdown's active characters, each behind a backslash (Discord shows `\*` as `*`). */
export const discordEscape = (text: string) => text.replace(/[\\*_~`|>#\-[\]()<:]/g, "\\$&");

export function discordBody(enquiry: StoredEnquiry, siteUrl: string | null = null) {
  return {
    content: fitText(summaryText(enquiry, siteUrl), discordLimit, discordEscape),
    allowed_mentions: { parse: [] as string[] },
    flags: suppressEmbeds,
  };
}
