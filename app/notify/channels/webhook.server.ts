import { notificationCopy } from "~/content/site";
import type { StoredEnquiry } from "~/store/types";
import { multiLine, oneLine } from "~/text/safety";
import type { NotificationChannel } from "./channel";

/**
 * A chat webhook: one JSON POST per enquiry that Slack (`text`) and Discord (`content`) incoming webhooks both
 * accept, with the whole enquiry alongside for anything else that reads it.
 */

/** Well under the outbox's 30 s lease. */
export const webhookTimeoutMs = 10_000;

/** Discord refuses `content` over 2000 characters; Slack allows far more, so one limit serves both. */
export const summaryMaxLength = 2000;

/** Slack reads <…> as links and mentions (`<!channel>`); escaped, a visitor's words stay words. */
const slackEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function summary(enquiry: StoredEnquiry): string {
  const head = `${notificationCopy.subjectPrefix} ${oneLine(enquiry.name, 100)} <${oneLine(enquiry.email, 254)}> (${enquiry.receivedAt.toISOString()})`;
  const full = `${head}\n\n${multiLine(enquiry.message)}`;
  if (full.length <= summaryMaxLength) return full;
  return `${full.slice(0, summaryMaxLength - notificationCopy.truncated.length)}${notificationCopy.truncated}`;
}

export function webhookPayload(enquiry: StoredEnquiry) {
  const text = summary(enquiry);
  // Escaping lengthens the text: cut again so Slack's copy stays within the same limit.
  const slackText = slackEscape(text);
  return {
    text: slackText.length <= summaryMaxLength ? slackText : `${slackText.slice(0, summaryMaxLength - 1)}…`,
    content: text,
    // Discord: "@everyone" or "<@id>" typed by a visitor must not ping anyone.
    allowed_mentions: { parse: [] },
    enquiry: {
      id: enquiry.id,
      receivedAt: enquiry.receivedAt.toISOString(),
      name: enquiry.name,
      email: enquiry.email,
      message: enquiry.message,
    },
  };
}

export function createWebhookChannel(url: string): NotificationChannel {
  const inFlight = new Set<AbortController>();
  return {
    channel: "webhook",
    async send(enquiry, signal) {
      const controller = new AbortController();
      inFlight.add(controller);
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", "User-Agent": "haunt-site-notify" },
          body: JSON.stringify(webhookPayload(enquiry)),
          // A redirect is a misconfiguration to fix, not something to follow with the enquiry in the body.
          redirect: "manual",
          signal: AbortSignal.any([signal, controller.signal, AbortSignal.timeout(webhookTimeoutMs)]),
        });
        await response.body?.cancel();
        if (response.status < 200 || response.status > 299) {
          // The URL is a secret (it is the credential), so only its host is named.
          throw new Error(`webhook at ${new URL(url).host} answered HTTP ${response.status}`);
        }
      } catch (error) {
        if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
          throw new Error(`webhook at ${new URL(url).host}: no answer (${error.name})`);
        }
        if (error instanceof TypeError) {
          const cause = (error as { cause?: { code?: string; message?: string } }).cause;
          throw new Error(
            `webhook at ${new URL(url).host} unreachable: ${cause?.code ?? cause?.message ?? error.message}`,
          );
        }
        throw error;
      } finally {
        inFlight.delete(controller);
      }
    },
    close() {
      for (const controller of inFlight) controller.abort();
    },
  };
}
