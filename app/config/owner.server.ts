import { z } from "zod";
import { emptyAsUnset } from "~/config/env.server";

/**
 * The owner area's logins: the site-wide login rate (RATE_LIMIT_LOGIN_PER_MINUTE), whether a second factor is required
 * (INBOX_REQUIRE_2FA) and the key one-time-code secrets are sealed with (SECRETS_KEY, SECRETS_KEY_NEW; ADR 0034).
 */

/** 32 random bytes in base64 (standard or URL-safe, padded or not): what `openssl rand -base64 32` prints. */
const secretsKey = z.preprocess(
  (value) => emptyAsUnset(typeof value === "string" ? value.trim() : value),
  z
    .string()
    .transform((value, context) => {
      const bytes = /^[A-Za-z0-9+/_-]{43}=?$/.test(value) ? Buffer.from(value, "base64") : undefined;
      if (bytes?.length === 32) return new Uint8Array(bytes);
      context.addIssue({
        code: "custom",
        message:
          "must be 32 random bytes in base64 (44 characters), e.g. the output of `openssl rand -base64 32` " +
          "(docs/operating.md#secrets-key)",
      });
      return z.NEVER;
    })
    .optional(),
);

export const ownerEnv = z.object({
  RATE_LIMIT_LOGIN_PER_MINUTE: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(1_000_000).default(30)),
  INBOX_REQUIRE_2FA: z.preprocess(emptyAsUnset, z.enum(["on", "off"], "must be on or off").default("on")),
  SECRETS_KEY: secretsKey,
  // Read only by `npm run inbox -- secrets rotate`: the key the secrets are sealed with next.
  SECRETS_KEY_NEW: secretsKey,
});

export interface OwnerConfig {
  /** Inbox logins per minute for the whole site (shared on PostgreSQL); 0 turns it off. */
  rateLimitLoginPerMinute: number;
  /**
   * INBOX_REQUIRE_2FA (default on): an operator with only a password sets up a passkey or one-time codes before seeing
   * anything. Unset (as in tests built by hand) means on.
   */
  requireSecondFactor?: boolean;
  /**
   * SECRETS_KEY: one-time-code secrets are sealed in the database with it (ADR 0034); undefined: kept in clear (the
   * start warns). Never logged.
   */
  secretsKey?: Uint8Array;
  /** SECRETS_KEY_NEW: only for `secrets rotate`, the key to seal under next. */
  secretsKeyNew?: Uint8Array;
}

export const ownerConfig = (env: z.infer<typeof ownerEnv>): OwnerConfig => ({
  rateLimitLoginPerMinute: env.RATE_LIMIT_LOGIN_PER_MINUTE,
  requireSecondFactor: env.INBOX_REQUIRE_2FA === "on",
  secretsKey: env.SECRETS_KEY,
  secretsKeyNew: env.SECRETS_KEY_NEW,
});
