import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { refusal } from "../../tests/support/config-refusal";

describe("parseConfig: notifications", () => {
  const email = {
    SMTP_URL: "smtp://mail.example.com:587",
    NOTIFY_EMAIL_TO: "owner@example.com",
    NOTIFY_EMAIL_FROM: "site@example.com",
  };

  it("has no channel when none is configured", () => {
    expect(parseConfig({}).notify).toEqual({ email: undefined, webhookUrl: undefined, mailPerMinute: 60 });
  });

  it("reads the e-mail channel, with every NOTIFY_EMAIL_TO address (blanks around commas ignored)", () => {
    const config = parseConfig({ ...email, NOTIFY_EMAIL_TO: " owner@example.com, shop@example.com ,x@example.org" });
    expect(config.notify?.email).toEqual({
      smtpUrl: "smtp://mail.example.com:587",
      to: ["owner@example.com", "shop@example.com", "x@example.org"],
      from: "site@example.com",
    });
  });

  it.each([
    "smtp://mail.example.com",
    "smtps://mail.example.com:465",
    "smtp://user:p%40ss@127.0.0.1:2525",
    "smtp://[::1]:25",
  ])("accepts SMTP_URL %s", (value) => {
    expect(parseConfig({ ...email, SMTP_URL: value }).notify?.email?.smtpUrl).toBe(value);
  });

  it.each([
    "mail.example.com",
    "not a url",
    "http://mail.example.com",
    "smtp://",
    "smtp://mail.example.com/path",
    "smtp://mail.example.com?tls=false",
  ])("refuses SMTP_URL %s, naming it", (value) => {
    const message = refusal({ ...email, SMTP_URL: value });
    expect(message).toContain("SMTP_URL");
    expect(message).not.toContain("NOTIFY_EMAIL_TO");
  });

  it("does not echo the password of a refused SMTP_URL", () => {
    expect(refusal({ ...email, SMTP_URL: "smtp://user:hunter2@mail.example.com/x" })).not.toContain("hunter2");
  });

  it.each([
    "",
    " , ",
    "owner",
    "owner@example.com, nobody",
    "Owner <owner@example.com>",
    "owner@example.com;shop@example.com",
  ])("refuses NOTIFY_EMAIL_TO %j when the rest of e-mail is set", (value) => {
    expect(refusal({ ...email, NOTIFY_EMAIL_TO: value })).toContain("NOTIFY_EMAIL_TO");
  });

  it.each([
    ["site@example.com", { from: "site@example.com" }],
    ["Haunt website <website@haunt.example>", { from: "website@haunt.example", fromName: "Haunt website" }],
    ['"Grimforge, the site" <site@example.com>', { from: "site@example.com", fromName: "Grimforge, the site" }],
    ["<site@example.com>", { from: "site@example.com" }],
  ])("reads NOTIFY_EMAIL_FROM %j", (value, expected) => {
    const read = parseConfig({ ...email, NOTIFY_EMAIL_FROM: value }).notify?.email;
    expect({ from: read?.from, ...(read?.fromName ? { fromName: read.fromName } : {}) }).toEqual(expected);
  });

  it.each([
    "site",
    "Site <site>",
    "a@example.com,b@example.com",
    "a@example.com b@example.com",
    "Site <a@example.com> <b@example.com>",
    'Bad "quote" <site@example.com>',
  ])("refuses NOTIFY_EMAIL_FROM %j", (value) => {
    expect(refusal({ ...email, NOTIFY_EMAIL_FROM: value })).toContain("NOTIFY_EMAIL_FROM");
  });

  it.each([
    [{ SMTP_URL: email.SMTP_URL }, ["NOTIFY_EMAIL_TO", "NOTIFY_EMAIL_FROM"]],
    [{ NOTIFY_EMAIL_TO: email.NOTIFY_EMAIL_TO }, ["SMTP_URL", "NOTIFY_EMAIL_FROM"]],
    [{ SMTP_URL: email.SMTP_URL, NOTIFY_EMAIL_TO: email.NOTIFY_EMAIL_TO }, ["NOTIFY_EMAIL_FROM"]],
  ])("refuses e-mail half configured (%j), naming what is missing", (env, missing) => {
    const message = refusal(env);
    for (const name of missing) expect(message).toMatch(new RegExp(`^\\s+${name}: must be set too`, "m"));
  });

  it("reads NOTIFY_WEBHOOK_URL on its own, and refuses one that is not http(s)", () => {
    expect(parseConfig({ NOTIFY_WEBHOOK_URL: "https://hooks.slack.com/services/T0/B0/x" }).notify).toEqual({
      email: undefined,
      webhookUrl: "https://hooks.slack.com/services/T0/B0/x",
      mailPerMinute: 60,
    });
    expect(refusal({ NOTIFY_WEBHOOK_URL: "hooks.slack.com/services/x" })).toContain("NOTIFY_WEBHOOK_URL");
    expect(refusal({ NOTIFY_WEBHOOK_URL: "ftp://example.com/x" })).toContain("NOTIFY_WEBHOOK_URL");
  });

  it("reads NOTIFY_WEBHOOK_FORMAT (any case), and refuses a format it does not know, listing the ones it does", () => {
    const url = "https://chat.example.com/hooks/abc";
    expect(parseConfig({ NOTIFY_WEBHOOK_URL: url, NOTIFY_WEBHOOK_FORMAT: " Mattermost " }).notify).toEqual({
      email: undefined,
      webhookUrl: url,
      webhookFormat: "mattermost",
      mailPerMinute: 60,
    });
    expect(parseConfig({ NOTIFY_WEBHOOK_URL: url, NOTIFY_WEBHOOK_FORMAT: "" }).notify).not.toHaveProperty(
      "webhookFormat",
    );
    expect(refusal({ NOTIFY_WEBHOOK_URL: url, NOTIFY_WEBHOOK_FORMAT: "msteams" })).toMatch(
      /NOTIFY_WEBHOOK_FORMAT.*slack, discord, mattermost, googlechat, teams, json/,
    );
  });

  it("reads MAIL_PER_MINUTE (default 60), and refuses one that is not a whole number from 1 to 6000, naming it", () => {
    expect(parseConfig({ MAIL_PER_MINUTE: "120" }).notify?.mailPerMinute).toBe(120);
    expect(parseConfig({ MAIL_PER_MINUTE: "" }).notify?.mailPerMinute).toBe(60);
    for (const value of ["0", "-1", "1.5", "ten", "6001"]) {
      expect(refusal({ MAIL_PER_MINUTE: value })).toMatch(/MAIL_PER_MINUTE: must be/);
    }
  });
});
