import type { Channel, StoredEnquiry } from "~/store/records";
import { oneLine } from "~/text/safety";

/** One way of telling the business about an enquiry. Adding a channel is one file that implements this. */
export interface NotificationChannel {
  channel: Channel;
  /**
   * Delivers one enquiry, resolving once the far side has accepted it. Rejects when it was not accepted, with a
   * message that is safe to store and log (it never carries the visitor's words). Gives up when `signal` aborts.
   */
  send(enquiry: StoredEnquiry, signal: AbortSignal): Promise<void>;
  /** Releases connections; sends still in flight fail. */
  close(): void;
}

/** Room for our words around a service's own (at most serviceWordsLength of them). */
const failureTextLength = 500;

/** A failure as a short one-line text for the store and the log. */
export function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return oneLine(
      typeof code === "string" && !error.message.includes(code) ? `${code}: ${error.message}` : error.message,
      failureTextLength,
    );
  }
  return oneLine(String(error), failureTextLength);
}

/** How much of a service's own explanation of a refusal is kept. */
export const serviceWordsLength = 300;

/**
 * A send that did not go through, with what the far side said about trying again: `permanent` (the request itself is
 * refused: a deleted channel, a bad address, wrong credentials; trying again cannot help) or `retryAfterMs` (the
 * service asked for a pause before the next request to it).
 */
export class DeliveryError extends Error {
  override name = "DeliveryError";
  readonly permanent: boolean;
  readonly retryAfterMs: number | undefined;
  constructor(
    message: string,
    { permanent = false, retryAfterMs }: { permanent?: boolean; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.permanent = permanent;
    this.retryAfterMs = retryAfterMs;
  }
}

/** HTTP answers that mean "this request will never be accepted": the notification fails at once. */
export const permanentHttpStatuses: ReadonlySet<number> = new Set([400, 401, 403, 404, 410]);

/** A Retry-After header (RFC 9110: delay-seconds or an HTTP-date) as milliseconds from `now`; undefined if neither. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1_000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
