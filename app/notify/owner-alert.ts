import type { EmailChannelConfig, WebhookFormat } from "~/config.server";
import { notificationCopy } from "~/wording/notifications";
import { securityCopy } from "~/wording/security";
import { buildPageCopy } from "~/wording/build-page";
import type { NewOwnerAlert } from "~/store/owner-alerts.types";
import { oneLine } from "~/text/safety";
import { discordEscape, suppressEmbeds } from "~/notify/channels/webhook-formats/discord";
import { googleChatEscape } from "~/notify/channels/webhook-formats/googlechat";
import { mattermostEscape } from "~/notify/channels/webhook-formats/mattermost";
import { slackEscape } from "~/notify/channels/webhook-formats/slack";
import { adaptiveCardMessage } from "~/notify/channels/webhook-formats/teams";
import { defaultSender, signature, type Sender } from "~/notify/sender";

/**
 * The owner's alerts' words. A new login: "New login to the inbox", when (in SITE_TIMEZONE, written out), which
 * browser, from which approximate address, and what to do if it was not the owner; never the password, the session or
 * the browser cookie: they are not even given to this module. A factor added, likewise. A customer's answer on their
 * build page: their name, their words and the link to the enquiry.
 */

const words = securityCopy.loginAlert;
const factorWords = securityCopy.factorAlert;

/** "Thursday 26 November 2026 at 14:05 (Europe/London)". */
export function alertTime(at: Date, timeZone: string): string {
  const text = new Intl.DateTimeFormat("en-GB", { timeZone, dateStyle: "full", timeStyle: "short" }).format(at);
  return `${text} (${timeZone})`;
}

export interface AlertFacts {
  timeZone: string;
  /** PUBLIC_URL + /inbox/security */
  securityUrl: string;
  /** PUBLIC_URL + /inbox (a customer's answer links to /inbox/{id}); default: beside securityUrl. */
  inboxUrl?: string;
}

const answerWords = buildPageCopy.answerAlert;

/** A customer's answer on the build page: who, the enquiry's id and the text. */
export function customerAnswerOf(alert: NewOwnerAlert): { name: string; enquiryId: string; text: string } | null {
  if (alert.kind !== "customer-answer") return null;
  return { name: alert.customerName ?? "", enquiryId: alert.enquiryId ?? "", text: alert.detail ?? "" };
}

const enquiryUrl = (facts: AlertFacts, enquiryId: string) =>
  `${facts.inboxUrl ?? facts.securityUrl.replace(/\/security$/, "")}/${encodeURIComponent(enquiryId)}`;

/** The announcement's lines: head, the customer's name, their text, the link to the enquiry. Nothing else. */
function answerLines(alert: NewOwnerAlert, facts: AlertFacts, escape: (text: string) => string): string[] {
  const answer = customerAnswerOf(alert)!;
  return [
    answerWords.head,
    "",
    answerWords.intro(escape(oneLine(answer.name, 200))),
    "",
    escape(answer.text),
    "",
    `${answerWords.open} ${enquiryUrl(facts, answer.enquiryId)}`,
  ];
}

/** The alert's head (and the e-mail's subject): a new login, or a factor added to the account. */
export function alertHead(alert: NewOwnerAlert): string {
  if (alert.kind === "customer-answer") return answerWords.head;
  if (alert.kind === "passkey-added") return factorWords.head.passkey;
  if (alert.kind === "codes-added") return factorWords.head.codes;
  return words.head;
}

/** The lines: head, who, when, browser, address, then what to do. Our own words and the link are never escaped. */
export function alertLines(alert: NewOwnerAlert, facts: AlertFacts, escape: (text: string) => string): string[] {
  if (alert.kind === "customer-answer") return answerLines(alert, facts, escape);
  const email = escape(oneLine(alert.operatorEmail ?? "", 254));
  const factor = alert.kind === "passkey-added" || alert.kind === "codes-added";
  // The passkey's name is whatever the session that added it typed: escaped like any text from outside.
  const intro =
    alert.kind === "passkey-added"
      ? factorWords.intro.passkey(email, escape(oneLine(alert.detail ?? "", 60)))
      : alert.kind === "codes-added"
        ? factorWords.intro.codes(email)
        : words.intro(email);
  return [
    alertHead(alert),
    "",
    intro,
    `${words.when}: ${alertTime(alert.at, facts.timeZone)}`,
    `${words.browser}: ${escape(oneLine(alert.browser, 100))}`,
    `${words.address}: ${escape(oneLine(alert.address, 100))}`,
    "",
    words.ifYou,
    words.ifNotYou,
    ...(factor ? factorWords.steps(facts.securityUrl, email) : words.steps(facts.securityUrl, email)),
  ];
}

/** The e-mail: to the owner's addresses (NOTIFY_EMAIL_TO) from the site's sender, one Message-ID for every attempt. */
export function composeOwnerAlertEmail(
  alert: NewOwnerAlert,
  facts: AlertFacts,
  config: Pick<EmailChannelConfig, "to" | "from" | "fromName">,
  sentAt = new Date(),
  sender: Sender = defaultSender,
) {
  const fromDomain = config.from.slice(config.from.lastIndexOf("@") + 1);
  const lines = [...alertLines(alert, facts, (text) => text).slice(2), "", ...signature(sender)];
  const id = alert.id.replace(/[^A-Za-z0-9-]/g, "");
  return {
    from: { name: config.fromName ?? notificationCopy.fromName(sender.business.name), address: config.from },
    to: config.to,
    subject:
      alert.kind === "passkey-added" || alert.kind === "codes-added" || alert.kind === "customer-answer"
        ? alertHead(alert)
        : words.subject,
    text: `${lines.join("\n")}\n`,
    date: sentAt,
    // Should a send be repeated (a process died after the server accepted it), mail clients show it once. (Named
    // login-alert for every kind since before schema v20: kept, so an alert sent again across the update is one mail.)
    messageId: `<login-alert-${id}@${fromDomain}>`,
    headers: { "X-Login-Alert": id },
    envelope: { from: config.from, to: config.to },
  };
}

const text = (alert: NewOwnerAlert, facts: AlertFacts, escape: (text: string) => string) =>
  alertLines(alert, facts, escape).join("\n");

/** The chat message in the format NOTIFY_WEBHOOK_FORMAT names (the same fields each enquiry's message uses). */
export function ownerAlertWebhookBody(format: WebhookFormat, alert: NewOwnerAlert, facts: AlertFacts): unknown {
  switch (format) {
    case "slack":
      return { text: text(alert, facts, slackEscape) };
    case "discord":
      return {
        content: text(alert, facts, discordEscape),
        allowed_mentions: { parse: [] as string[] },
        flags: suppressEmbeds,
      };
    case "mattermost":
      return { text: text(alert, facts, mattermostEscape) };
    case "googlechat":
      return { text: text(alert, facts, googleChatEscape) };
    case "teams": {
      const [head, , ...rest] = alertLines(alert, facts, (words) => words);
      return adaptiveCardMessage(
        [
          { type: "TextBlock", text: head, weight: "Bolder", size: "Medium", wrap: true },
          { type: "RichTextBlock", inlines: [{ type: "TextRun", text: rest.join("\n") }] },
        ],
        [
          customerAnswerOf(alert)
            ? {
                type: "Action.OpenUrl",
                title: answerWords.button,
                url: enquiryUrl(facts, customerAnswerOf(alert)!.enquiryId),
              }
            : { type: "Action.OpenUrl", title: words.securityButton, url: facts.securityUrl },
        ],
      );
    }
    case "json": {
      const answer = customerAnswerOf(alert);
      if (answer)
        return {
          text: text(alert, facts, slackEscape),
          content: text(alert, facts, (words) => words),
          allowed_mentions: { parse: [] as string[] },
          customerAnswer: {
            name: answer.name,
            text: answer.text,
            at: alert.at.toISOString(),
            enquiryUrl: enquiryUrl(facts, answer.enquiryId),
          },
        };
      return {
        text: text(alert, facts, slackEscape),
        content: text(alert, facts, (words) => words),
        allowed_mentions: { parse: [] as string[] },
        loginAlert: {
          kind: alert.kind ?? "login",
          operator: alert.operatorEmail,
          at: alert.at.toISOString(),
          browser: alert.browser,
          address: alert.address,
          securityUrl: facts.securityUrl,
        },
      };
    }
  }
}
