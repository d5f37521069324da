import { enquiryMessages } from "~/content/site";
import type { ApiError } from "~/enquiry/status";

/**
 * Caps how many enquiries are forwarded or stored: so many per minute for this instance (a botnet cannot flood the
 * inbox, the upstream or the disk), and so many per hour per client address, which is known only when TRUST_PROXY says
 * which proxy's X-Forwarded-For to believe. An enquiry counts when it is about to be sent, after validation, so typos
 * do not use up a visitor's allowance. Sliding windows: the oldest counted enquiry leaving the window frees a place.
 */

const minute = 60_000;
const hour = 60 * minute;
// Clients seen in the last hour are kept; past this many, the ones with nothing in their window are forgotten.
const sweepAbove = 10_000;

export interface RateLimitRefusal {
  error: ApiError;
  /** Seconds until a place frees up (the Retry-After header). */
  retryAfterSeconds: number;
}

export class RateLimiter {
  private site: number[] = [];
  private clients = new Map<string, number[]>();

  constructor(
    private readonly limits: { sitePerMinute: number; clientPerHour: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one enquiry and returns null, or refuses it (counting nothing) when a limit is reached. */
  take(client: string | undefined): RateLimitRefusal | null {
    const now = this.now();
    const { sitePerMinute, clientPerHour } = this.limits;
    if (sitePerMinute > 0) {
      this.site = this.site.filter((time) => time > now - minute);
      if (this.site.length >= sitePerMinute)
        return refusal(enquiryMessages.rateLimitedSite, this.site[0]! + minute - now);
    }
    const perClient = clientPerHour > 0 && client !== undefined;
    const times = perClient ? (this.clients.get(client) ?? []).filter((time) => time > now - hour) : [];
    if (perClient && times.length >= clientPerHour)
      return refusal(enquiryMessages.rateLimitedClient, times[0]! + hour - now);

    if (sitePerMinute > 0) this.site.push(now);
    if (perClient) {
      times.push(now);
      this.clients.set(client, times);
      if (this.clients.size > sweepAbove) this.sweep(now);
    }
    return null;
  }

  private sweep(now: number): void {
    for (const [client, times] of this.clients) if (times.at(-1)! <= now - hour) this.clients.delete(client);
  }
}

const refusal = (detail: string, waitMs: number): RateLimitRefusal => ({
  error: { title: enquiryMessages.rateLimitedTitle, detail },
  retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
});
