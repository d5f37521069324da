import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { ensureTable, makeLimiter, secondsUntilFree, type RateLimitStore } from "~/http/rate-limit.server";

/**
 * Logins per minute for the whole site (RATE_LIMIT_LOGIN_PER_MINUTE), counted like the enquiry limits: in the inbox's
 * PostgreSQL database when there is one (every instance shares the count), in memory otherwise. It bounds the hashing
 * an attacker with many addresses can make the site do; the owner is one person who logs in a few times a day.
 */
export class LoginRateLimiter {
  private readonly site?: RateLimiterAbstract;

  constructor(
    perMinute: number,
    private readonly store: RateLimitStore = { kind: "memory" },
  ) {
    if (perMinute > 0) this.site = makeLimiter(store, "login-site", perMinute, 60);
  }

  /** Counts one login; null, or the seconds until the next one may be checked. */
  async take(): Promise<number | null> {
    await ensureTable(this.store);
    return secondsUntilFree(this.site, "site");
  }
}
