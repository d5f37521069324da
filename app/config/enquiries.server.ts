import { z } from "zod";
import { emptyAsUnset, httpOrigin } from "~/config/env.server";

/**
 * Where enquiries go and how many are taken: the upstream API (API_HOST, API_TIMEOUT_MS) or, without one, the
 * embedded back-end, and the rate limits on the contact form (RATE_LIMIT_SITE_PER_MINUTE, RATE_LIMIT_CLIENT_PER_HOUR).
 */
export const enquiriesEnv = z.object({
  API_HOST: z.preprocess(emptyAsUnset, httpOrigin("http://127.0.0.1:4010").optional()),
  API_TIMEOUT_MS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(100).max(120_000).default(10_000)),
  RATE_LIMIT_SITE_PER_MINUTE: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(1_000_000).default(30)),
  RATE_LIMIT_CLIENT_PER_HOUR: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(1_000_000).default(10)),
});

export interface EnquiriesConfig {
  /** Origin of the upstream API; undefined means the site's own embedded back-end takes the enquiries. */
  apiHost: string | undefined;
  apiTimeoutMs: number;
  /** Enquiries per minute for this instance, and per client address per hour; 0 turns a limit off. */
  rateLimitSitePerMinute: number;
  rateLimitClientPerHour: number;
}

export const enquiriesConfig = (env: z.infer<typeof enquiriesEnv>): EnquiriesConfig => ({
  apiHost: env.API_HOST,
  apiTimeoutMs: env.API_TIMEOUT_MS,
  rateLimitSitePerMinute: env.RATE_LIMIT_SITE_PER_MINUTE,
  rateLimitClientPerHour: env.RATE_LIMIT_CLIENT_PER_HOUR,
});
