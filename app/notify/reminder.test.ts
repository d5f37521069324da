import { describe, expect, it } from "vitest";
import { composeReminderEmail, reminderWebhookBody } from "~/notify/reminder";

const reminder = {
  id: "7f3a-reminder",
  enquiryId: "e-42",
  dueOn: "2026-11-27",
  name: "Ann <!channel>\n**Lee**\u202e",
};
const publicUrl = "https://haunt.example/";

describe("the reminder's message", () => {
  it('e-mails "Reminder: {customer}" with the day and the enquiry\'s link, one Message-ID per reminder and day', () => {
    const mail = composeReminderEmail(reminder, publicUrl, {
      to: ["owner@grimforge.example"],
      from: "site@grimforge.example",
    });
    expect(mail.subject).toBe("Reminder: Ann <!channel> **Lee**");
    expect(mail.messageId).toBe("<reminder-7f3a-reminder-2026-11-27@grimforge.example>");
    expect(mail.headers).toEqual({ "X-Reminder": "7f3a-reminder" });
    expect(mail.text).toContain(
      "You asked to be reminded about Ann <!channel> **Lee**'s enquiry on Friday, 27 November 2026.",
    );
    expect(mail.text).toContain("Open the enquiry: https://haunt.example/inbox/e-42\n");
    expect(mail.text).not.toContain("\u202e");
    expect(
      composeReminderEmail({ ...reminder, name: "\u0007\n" }, publicUrl, { to: [], from: "a@b.example" }).subject,
    ).toBe("Reminder: a customer");
  });

  it("escapes the customer's name for each chat format, never the link", () => {
    const slack = (reminderWebhookBody("slack", reminder, publicUrl) as { text: string }).text;
    expect(slack).not.toContain("<!channel>");
    expect(slack).toContain("Reminder: Ann &lt;!channel&gt; **Lee**");
    expect(slack).toContain("https://haunt.example/inbox/e-42");
    const discord = reminderWebhookBody("discord", reminder, publicUrl) as {
      content: string;
      allowed_mentions: unknown;
    };
    expect(discord.content).toContain("\\*\\*Lee\\*\\*");
    expect(discord.allowed_mentions).toEqual({ parse: [] });
    for (const format of ["mattermost", "googlechat"] as const) {
      const body = reminderWebhookBody(format, reminder, publicUrl) as { text: string };
      expect(body.text).not.toContain("<!channel>");
      expect(body.text).toContain("https://haunt.example/inbox/e-42");
    }
    const teams = JSON.stringify(reminderWebhookBody("teams", reminder, publicUrl));
    expect(teams).toContain('"url":"https://haunt.example/inbox/e-42"');
    const json = reminderWebhookBody("json", reminder, publicUrl) as { reminder: Record<string, string> };
    expect(json.reminder).toEqual({
      id: "7f3a-reminder",
      enquiryId: "e-42",
      dueOn: "2026-11-27",
      name: "Ann <!channel> **Lee**",
      url: "https://haunt.example/inbox/e-42",
    });
  });
});
