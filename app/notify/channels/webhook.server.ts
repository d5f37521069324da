import type { WebhookFormat } from "~/config.server";
import type { StoredEnquiry } from "~/store/records";
import {
  DeliveryError,
  parseRetryAfter,
  permanentHttpStatuses,
  serviceWordsLength,
  type NotificationChannel,
} from "~/notify/channels/channel";
import { oneLine } from "~/text/safety";
import { formatForUrl, webhookBody } from "~/notify/channels/webhook-formats";

/**
 * A chat webhook: one JSON POST per enquiry in the format its service documents (NOTIFY_WEBHOOK_FORMAT, or chosen from
 * the URL's host). A refusal is reported with the service's own words; a 429 or 503 with when to try again.
 */

/** Well under the outbox's 30 s lease. */
export const webhookTimeoutMs = 10_000;

/** Enough of an error answer for its explanation; the rest is not read. */
const maxErrorBodyBytes = 8_192;

export { webhookBody };

async function readSome(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxErrorBodyBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, maxErrorBodyBytes));
}

/**
 * What a service says when it refuses: Discord and Mattermost answer `{ message }`, Google and Power Automate
 * `{ error: { message } }`, Slack plain text (`invalid_payload`, `channel_is_archived`). Also Discord's `retry_after`.
 */
export function readRefusal(body: string): { words: string; retryAfterMs?: number } {
  let words = body;
  let retryAfterMs: number | undefined;
  try {
    const value = JSON.parse(body) as Record<string, unknown>;
    const error = value.error;
    const found =
      typeof value.message === "string"
        ? value.message
        : typeof error === "object" && error && typeof (error as { message?: unknown }).message === "string"
          ? (error as { message: string }).message
          : typeof error === "string"
            ? error
            : undefined;
    if (found !== undefined) words = found;
    if (typeof value.retry_after === "number" && Number.isFinite(value.retry_after) && value.retry_after >= 0)
      retryAfterMs = Math.ceil(value.retry_after * 1_000);
  } catch {
    // not JSON: the text is the explanation
  }
  return { words: oneLine(words, serviceWordsLength), retryAfterMs };
}

/**
 * POSTs one JSON body to the webhook, resolving once it answered 2xx; a refusal rejects with a DeliveryError in the
 * outbox's terms (the service's words, permanent or not, when to try again). Each enquiry's message and the daily
 * spam digest go out through it.
 */
export async function postWebhook(url: string, body: unknown, signal: AbortSignal): Promise<void> {
  // The URL is a secret (it is the credential), so only its host is ever named.
  const host = new URL(url).host;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": "haunt-site-notify" },
      body: JSON.stringify(body),
      // A redirect is a misconfiguration to fix, not something to follow with the enquiry in the body.
      redirect: "manual",
      signal: AbortSignal.any([signal, AbortSignal.timeout(webhookTimeoutMs)]),
    });
    if (response.status >= 200 && response.status <= 299) {
      await response.body?.cancel();
      return;
    }
    const { words, retryAfterMs: bodyRetryAfter } = readRefusal(await readSome(response));
    const headerRetryAfter = parseRetryAfter(response.headers.get("retry-after"));
    const retryAfterMs =
      headerRetryAfter === undefined && bodyRetryAfter === undefined
        ? undefined
        : Math.max(headerRetryAfter ?? 0, bodyRetryAfter ?? 0);
    throw new DeliveryError(`webhook at ${host} answered HTTP ${response.status}${words ? `: ${words}` : ""}`, {
      permanent: permanentHttpStatuses.has(response.status),
      retryAfterMs,
    });
  } catch (error) {
    if (error instanceof DeliveryError) throw error;
    if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
      throw new Error(`webhook at ${host}: no answer (${error.name})`);
    }
    if (error instanceof TypeError) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(`webhook at ${host} unreachable: ${cause?.code ?? cause?.message ?? error.message}`);
    }
    throw error;
  }
}

/** `siteUrl`: PUBLIC_URL, for the address of the project an enquiry was sent about. */
export function createWebhookChannel(
  url: string,
  format: WebhookFormat = formatForUrl(url),
  siteUrl: string | null = null,
): NotificationChannel {
  const inFlight = new Set<AbortController>();
  return {
    channel: "webhook",
    async send(enquiry: StoredEnquiry, signal) {
      const controller = new AbortController();
      inFlight.add(controller);
      try {
        await postWebhook(url, webhookBody(format, enquiry, siteUrl), AbortSignal.any([signal, controller.signal]));
      } finally {
        inFlight.delete(controller);
      }
    },
    close() {
      for (const controller of inFlight) controller.abort();
    },
  };
}
