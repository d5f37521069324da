import { z } from "zod";
import { emptyAsUnset } from "~/config/env.server";

/**
 * The spam filter (SPAM_FILTER), how long enquiries and spam are kept (RETENTION_DAYS, SPAM_RETENTION_DAYS) and the
 * daily digest of what was kept aside (SPAM_DIGEST_HOUR, counted in SITE_TIMEZONE: see serving.server.ts).
 */
export const spamEnv = z.object({
  SPAM_FILTER: z.preprocess(emptyAsUnset, z.enum(["on", "off"], "must be on or off").default("on")),
  RETENTION_DAYS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(36_500).default(365)),
  SPAM_RETENTION_DAYS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(36_500).default(30)),
  SPAM_DIGEST_HOUR: z.preprocess(
    (value) => emptyAsUnset(typeof value === "string" ? value.trim().toLowerCase() : value),
    z
      .string()
      .default("8")
      .transform((value, context) => {
        if (value === "off") return null;
        if (/^\d{1,2}$/.test(value) && Number(value) <= 23) return Number(value);
        context.addIssue({ code: "custom", message: "must be an hour from 0 to 23 (in SITE_TIMEZONE), or off" });
        return z.NEVER;
      }),
  ),
});

export interface SpamConfig {
  /** False (SPAM_FILTER=off): every enquiry is stored as new and announced. */
  filter: boolean;
}

export interface RetentionConfig {
  /** Enquiries older than this many days are deleted, with their notifications and activity. */
  retentionDays: number;
  /** Spam older than this many days is deleted. */
  spamRetentionDays: number;
}

export interface SpamDigestConfig {
  /** The local hour (0-23) from which the day's digest is due; null (SPAM_DIGEST_HOUR=off): no digest. */
  hour: number | null;
  /** The business's IANA time zone (SITE_TIMEZONE): the hour and the day are counted in it. */
  timeZone: string;
}

export const defaultRetention: RetentionConfig = { retentionDays: 365, spamRetentionDays: 30 };

/** The filter, the retention and the digest; the digest's time zone is the business's (SITE_TIMEZONE). */
export const spamConfig = (
  env: z.infer<typeof spamEnv>,
  timeZone: string,
): { spam: SpamConfig; retention: RetentionConfig; spamDigest: SpamDigestConfig } => ({
  spam: { filter: env.SPAM_FILTER === "on" },
  retention: { retentionDays: env.RETENTION_DAYS, spamRetentionDays: env.SPAM_RETENTION_DAYS },
  spamDigest: { hour: env.SPAM_DIGEST_HOUR, timeZone },
});
