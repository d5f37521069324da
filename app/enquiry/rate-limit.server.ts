import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { Config } from "~/config.server";
import { enquiryMessages } from "~/wording";
import { clientKey, ensureTable, makeLimiter, secondsUntilFree, type RateLimitStore } from "~/http/rate-limit.server";
import type { RateLimitRefusal } from "~/site-services.server";

/**
 * Caps how many enquiries are forwarded or stored: so many per minute for the site (a botnet cannot flood the inbox,
 * the upstream or the disk), and so many per hour per client, which is known only when TRUST_PROXY says which proxy's
 * X-Forwarded-For to believe. An enquiry counts when it is about to be sent, after validation, so typos do not use up
 * a visitor's allowance. Counted by rate-limiter-flexible (fixed windows from the first enquiry counted): in the inbox
 * database on PostgreSQL, so every instance shares the limits; in this process's memory otherwise. Should PostgreSQL
 * not answer, the process counts in memory meanwhile rather than refuse or wave everyone through.
 */

export interface RateLimits {
  sitePerMinute: number;
  clientPerHour: number;
}

export class EnquiryRateLimiter {
  private readonly site?: RateLimiterAbstract;
  private readonly client?: RateLimiterAbstract;

  constructor(
    limits: RateLimits,
    private readonly store: RateLimitStore = { kind: "memory" },
  ) {
    if (limits.sitePerMinute > 0) this.site = makeLimiter(store, "enquiry-site", limits.sitePerMinute, 60);
    if (limits.clientPerHour > 0) this.client = makeLimiter(store, "enquiry-client", limits.clientPerHour, 60 * 60);
  }

  /** Counts one enquiry and returns null, or refuses it when a limit is reached (the site's count given back). */
  async take(client: string | undefined): Promise<RateLimitRefusal | null> {
    await ensureTable(this.store);
    const siteRefusal = refusal(await secondsUntilFree(this.site, "site"), enquiryMessages.rateLimitedSite);
    if (siteRefusal) return siteRefusal;
    if (client === undefined) return null;
    const clientRefusal = refusal(
      await secondsUntilFree(this.client, clientKey(client)),
      enquiryMessages.rateLimitedClient,
    );
    if (clientRefusal) await this.site?.reward("site", 1).catch(() => {});
    return clientRefusal;
  }
}

const refusal = (seconds: number | null, detail: string): RateLimitRefusal | null =>
  seconds === null ? null : { error: { title: enquiryMessages.rateLimitedTitle, detail }, retryAfterSeconds: seconds };

/** The process's limiter, as configured (server/service-lifecycle.ts builds one at start). */
export function createEnquiryRateLimiter(config: Config, store: RateLimitStore): EnquiryRateLimiter {
  const limits = { sitePerMinute: config.rateLimitSitePerMinute, clientPerHour: config.rateLimitClientPerHour };
  return new EnquiryRateLimiter(limits, store);
}
