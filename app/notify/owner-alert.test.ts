import { describe, expect, it } from "vitest";
import { alertTime, composeOwnerAlertEmail, ownerAlertWebhookBody } from "~/notify/owner-alert";
import type { NewOwnerAlert } from "~/store/owner-alerts.types";

const alert: NewOwnerAlert = {
  id: "4c1e-alert",
  operatorEmail: "ann_<b>@grimforge.example",
  at: new Date("2026-10-31T22:05:00Z"),
  browser: "Chrome on Android",
  address: "2001:db8:1:2::/64",
};
const facts = { timeZone: "Europe/London", securityUrl: "https://haunt.example/inbox/security" };

describe("the owner's alerts' words", () => {
  it("gives the time in SITE_TIMEZONE, written out", () => {
    expect(alertTime(alert.at, "Europe/London")).toBe("Saturday, 31 October 2026 at 22:05 (Europe/London)");
    expect(alertTime(alert.at, "America/New_York")).toBe("Saturday, 31 October 2026 at 18:05 (America/New_York)");
  });

  it("e-mails who, when, which browser, where from and what to do, once per alert id", () => {
    const mail = composeOwnerAlertEmail(alert, facts, {
      to: ["owner@grimforge.example"],
      from: "site@grimforge.example",
    });
    expect(mail.subject).toBe("New login to the inbox");
    expect(mail.messageId).toBe("<login-alert-4c1e-alert@grimforge.example>");
    expect(mail.text).toContain("When: Saturday, 31 October 2026 at 22:05 (Europe/London)\n");
    expect(mail.text).toContain("Browser: Chrome on Android\nApproximate address: 2001:db8:1:2::/64\n");
    expect(mail.text).toContain("1. Open the Security page: https://haunt.example/inbox/security\n");
    expect(mail.text).toContain("npm run inbox -- operator add ann_<b>@grimforge.example\n");
  });

  it("escapes the operator's address for each chat format, never the Security page's link", () => {
    const slack = ownerAlertWebhookBody("slack", alert, facts) as { text: string };
    expect(slack.text).toContain("ann_&lt;b&gt;@grimforge.example");
    expect(slack.text).toContain("https://haunt.example/inbox/security");
    const discord = ownerAlertWebhookBody("discord", alert, facts) as { content: string; allowed_mentions: unknown };
    expect(discord.content).toContain("ann\\_\\<b\\>@grimforge.example");
    expect(discord.content).toContain("https://haunt.example/inbox/security");
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    const teams = JSON.stringify(ownerAlertWebhookBody("teams", alert, facts));
    expect(teams).toContain('"url":"https://haunt.example/inbox/security"');
    const json = ownerAlertWebhookBody("json", alert, facts) as { loginAlert: Record<string, string> };
    expect(json.loginAlert).toEqual({
      kind: "login",
      operator: "ann_<b>@grimforge.example",
      at: "2026-10-31T22:05:00.000Z",
      browser: "Chrome on Android",
      address: "2001:db8:1:2::/64",
      securityUrl: "https://haunt.example/inbox/security",
    });
  });

  it("escapes the browser and the address too: a hostile value (stored before the check on the way in) mentions and links nothing", () => {
    const hostile = { ...alert, browser: "<!here> **now**", address: "<!channel> [click me](http://evil.example)" };
    const slack = (ownerAlertWebhookBody("slack", hostile, facts) as { text: string }).text;
    expect(slack).not.toMatch(/<!(channel|here)>/);
    expect(slack).toContain("&lt;!channel&gt; [click me](http://evil.example)");
    for (const format of ["discord", "mattermost"] as const) {
      const body = ownerAlertWebhookBody(format, hostile, facts) as { content?: string; text?: string };
      const text = body.content ?? body.text!;
      expect(text).toContain("\\[click me\\]\\(http");
      expect(text).toContain("\\*\\*now\\*\\*");
      expect(text).not.toMatch(/<!(channel|here)>/);
    }
    const googleChat = (ownerAlertWebhookBody("googlechat", hostile, facts) as { text: string }).text;
    expect(googleChat).not.toMatch(/<!(channel|here)>/);
  });

  it("announces a passkey added, its name escaped like any text from outside, and one-time codes set up", () => {
    const added = { ...alert, kind: "passkey-added" as const, detail: "<!channel> *key*" };
    const mail = composeOwnerAlertEmail(added, facts, {
      to: ["owner@grimforge.example"],
      from: "site@grimforge.example",
    });
    expect(mail.subject).toBe("A passkey was added to your account");
    expect(mail.text).toContain('A passkey named "<!channel> *key*" was added to the inbox account');
    expect(mail.text).toContain("2. Remove the passkey or the one-time codes you do not know.\n");
    const slack = ownerAlertWebhookBody("slack", added, facts) as { text: string };
    expect(slack.text.startsWith("A passkey was added to your account\n")).toBe(true);
    expect(slack.text).toContain("&lt;!channel&gt;");
    const codes = composeOwnerAlertEmail({ ...alert, kind: "codes-added" }, facts, {
      to: ["owner@grimforge.example"],
      from: "site@grimforge.example",
    });
    expect(codes.subject).toBe("One-time codes were set up for your account");
  });

  it("announces a customer's answer with their name, their words and the enquiry's link, nothing of an operator", () => {
    const answer: NewOwnerAlert = {
      id: "7b2d-answer",
      kind: "customer-answer",
      at: alert.at,
      operatorEmail: null,
      browser: "",
      address: "",
      customerName: "Pugsley <!here>",
      enquiryId: "e-42",
      detail: "Can it *fly*?",
    };
    const mail = composeOwnerAlertEmail(
      answer,
      { ...facts, inboxUrl: "https://haunt.example/inbox" },
      {
        to: ["owner@grimforge.example"],
        from: "site@grimforge.example",
      },
    );
    expect(mail.subject).toBe("Your customer answered on the build page");
    expect(mail.text).toContain(
      "Pugsley <!here> wrote:\n\nCan it *fly*?\n\nOpen the enquiry: https://haunt.example/inbox/e-42\n",
    );
    expect(mail.messageId).toBe("<login-alert-7b2d-answer@grimforge.example>");
    const slack = ownerAlertWebhookBody("slack", answer, facts) as { text: string };
    expect(slack.text).toContain("Pugsley &lt;!here&gt; wrote:");
    expect(slack.text).toContain("https://haunt.example/inbox/e-42");
    expect((ownerAlertWebhookBody("json", answer, facts) as { customerAnswer: unknown }).customerAnswer).toEqual({
      name: "Pugsley <!here>",
      text: "Can it *fly*?",
      at: "2026-10-31T22:05:00.000Z",
      enquiryUrl: "https://haunt.example/inbox/e-42",
    });
  });
});
