import { describe, expect, it } from "vitest";
import { formatForUrl } from "~/notify/channels/webhook-formats/index";

describe("the format chosen from the webhook URL's host", () => {
  it.each([
    ["https://hooks.slack.com/services/T0/B0/x", "slack"],
    ["https://discord.com/api/webhooks/1/x", "discord"],
    ["https://ptb.discord.com/api/webhooks/1/x", "discord"],
    ["https://discordapp.com/api/webhooks/1/x", "discord"],
    ["https://contoso.webhook.office.com/webhookb2/x", "teams"],
    ["https://prod-00.westus.logic.azure.com:443/workflows/x/triggers/manual/paths/invoke?sig=x", "teams"],
    ["https://default0123.45.environment.api.powerplatform.com:443/powerautomate/automations/x", "teams"],
    ["https://chat.googleapis.com/v1/spaces/AAA/messages?key=x&token=y", "googlechat"],
    ["https://chat.example.com/hooks/abc", "json"],
    ["https://evil.example/hooks.slack.com/x", "json"],
    ["https://hooks.slack.com.evil.example/x", "json"],
    ["https://notdiscord.com/api/webhooks/1/x", "json"],
  ])("%s -> %s", (url, format) => {
    expect(formatForUrl(url)).toBe(format);
  });
});
