import type { WebhookFormat } from "~/config.server";
import type { StoredEnquiry } from "~/store/records";
import { discordBody } from "~/notify/channels/webhook-formats/discord";
import { googleChatBody } from "~/notify/channels/webhook-formats/googlechat";
import { jsonBody } from "~/notify/channels/webhook-formats/json";
import { mattermostBody } from "~/notify/channels/webhook-formats/mattermost";
import { slackBody } from "~/notify/channels/webhook-formats/slack";
import { teamsBody } from "~/notify/channels/webhook-formats/teams";

/** Each format NOTIFY_WEBHOOK_FORMAT names: one file each, a pure function from an enquiry to a JSON body. */
const bodies: Record<WebhookFormat, (enquiry: StoredEnquiry, siteUrl: string | null) => unknown> = {
  slack: slackBody,
  discord: discordBody,
  mattermost: mattermostBody,
  googlechat: googleChatBody,
  teams: teamsBody,
  json: jsonBody,
};

/** `siteUrl`: PUBLIC_URL, for the address of the project an enquiry was sent about. */
export const webhookBody = (format: WebhookFormat, enquiry: StoredEnquiry, siteUrl: string | null = null): unknown =>
  bodies[format](enquiry, siteUrl);

const under = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/**
 * The format a URL's host calls for when NOTIFY_WEBHOOK_FORMAT is not set. Mattermost runs on the owner's own host,
 * so it is never guessed: it falls to `json` (whose `text` Mattermost also reads) until the variable says so.
 */
export function formatForUrl(url: string): WebhookFormat {
  const host = new URL(url).hostname.toLowerCase();
  if (host === "hooks.slack.com") return "slack";
  if (under(host, "discord.com") || under(host, "discordapp.com")) return "discord";
  if (host === "chat.googleapis.com") return "googlechat";
  if (
    host.endsWith(".webhook.office.com") ||
    under(host, "logic.azure.com") ||
    under(host, "powerplatform.com") ||
    under(host, "powerautomate.com") ||
    host === "flow.microsoft.com"
  )
    return "teams";
  return "json";
}
