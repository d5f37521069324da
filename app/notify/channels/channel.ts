import type { Channel, StoredEnquiry } from "~/store/types";
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

/** A failure as a short one-line text for the store and the log. */
export function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return oneLine(
      typeof code === "string" && !error.message.includes(code) ? `${code}: ${error.message}` : error.message,
      300,
    );
  }
  return oneLine(String(error), 300);
}
