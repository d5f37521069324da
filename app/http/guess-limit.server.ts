import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { ensureTable, makeLimiter, type RateLimitStore } from "~/http/rate-limit.server";

/**
 * Throttles guessing of private addresses (the customer's build page, /build/{token}): each client's misses (an
 * unknown, revoked or expired token) are counted per hour in the rate-limit store (shared by every instance on
 * PostgreSQL); past the limit the client is answered 429 whatever it asks for, so a hit cannot be told from a miss.
 */

/** Misses per client per hour before it is refused. */
export const guessesPerHour = 20;

export interface GuessLimiter {
  /** Seconds until the client may try again, or null when it may. Counts nothing. */
  blocked(client: string): Promise<number | null>;
  /** Counts one miss; seconds to wait when that was one too many, else null. */
  miss(client: string): Promise<number | null>;
}

export function createGuessLimiter(store: RateLimitStore, perHour = guessesPerHour): GuessLimiter {
  const limiter: RateLimiterAbstract = makeLimiter(store, "build-guess", perHour, 60 * 60);
  const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
  return {
    async blocked(client) {
      await ensureTable(store);
      const state = await limiter.get(client);
      return state && state.consumedPoints >= perHour ? seconds(state.msBeforeNext) : null;
    },
    async miss(client) {
      await ensureTable(store);
      const state = await limiter.penalty(client, 1);
      return state.consumedPoints > perHour ? seconds(state.msBeforeNext) : null;
    },
  };
}
