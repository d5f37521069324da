import { dirname, join as joinPath } from "node:path";
import { z } from "zod";
import { defaultLogFormat, logFormats, type LogFormat } from "~/log.server";
import type { DatabaseLocation } from "~/store/store.types";

/**
 * The environment, checked once at start (server/config.ts reads it): every variable the site and `npm run inbox` use,
 * each validated here. An invalid value stops the start with a message that names the variable, rather than failing
 * on the first enquiry.
 */
const emptyAsUnset = (value: unknown) => (value === "" ? undefined : value);

// --- Notifications (SMTP_URL, NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM, NOTIFY_WEBHOOK_URL, NOTIFY_WEBHOOK_FORMAT) ---------

/** A plain address (no display name, comments or lists): one mailbox, nothing a header could be built from. */
const plainAddress = z.email();

/** One or more plain addresses separated by commas; blanks around them are ignored. */
const addressList = z
  .string()
  .transform((value) => value.split(",").map((part) => part.trim()))
  .refine(
    (parts) => parts.length > 0 && parts.every((part) => plainAddress.safeParse(part).success),
    "must be one or more e-mail addresses separated by commas, e.g. owner@example.com,shop@example.com",
  );

/** `site@example.com` or `Display Name <site@example.com>` (the name optionally in double quotes). */
function parseSender(value: string): { name: string | undefined; address: string } | null {
  const match = /^(?:(.*?)\s*<([^<>]*)>|([^<>]*))$/.exec(value);
  if (!match) return null;
  const address = (match[2] ?? match[3] ?? "").trim();
  const name = match[1]?.replace(/^"(.*)"$/, "$1").trim() || undefined;
  // eslint-disable-next-line no-control-regex -- a display name is one line of text
  if (!plainAddress.safeParse(address).success || (name && /[\u0000-\u001f\u007f"\\<>]/.test(name))) return null;
  return { name, address };
}

/** The payload formats NOTIFY_WEBHOOK_FORMAT names (app/notify/channels/webhook-formats/: one file each). */
export const webhookFormats = ["slack", "discord", "mattermost", "googlechat", "teams", "json"] as const;
export type WebhookFormat = (typeof webhookFormats)[number];

function notifyEnvShape() {
  return {
    SMTP_URL: z.preprocess(
      emptyAsUnset,
      z
        .url({
          protocol: /^smtps?$/,
          hostname: /.+/,
          error: "must be smtp://[user:password@]host[:port] (STARTTLS when offered) or smtps://… (TLS from the start)",
          abort: true,
        })
        .refine((value) => {
          const url = new URL(value);
          return (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash;
        }, "must be scheme, optional user:password, host and port only, without a path, query or fragment")
        .refine((value) => {
          const url = new URL(value);
          try {
            decodeURIComponent(url.username);
            decodeURIComponent(url.password);
            return true;
          } catch {
            return false;
          }
        }, "the user or password has a % that is not percent-encoding: write % as %25")
        .optional(),
    ),
    NOTIFY_EMAIL_TO: z.preprocess(emptyAsUnset, addressList.optional()),
    NOTIFY_EMAIL_FROM: z.preprocess(
      (value) => emptyAsUnset(typeof value === "string" ? value.trim() : value),
      z
        .string()
        .transform((value, context) => {
          const sender = parseSender(value);
          if (!sender) {
            context.addIssue({
              code: "custom",
              message: 'must be one e-mail address, e.g. site@example.com or "Haunt website <site@example.com>"',
            });
            return z.NEVER;
          }
          return sender;
        })
        .optional(),
    ),
    NOTIFY_WEBHOOK_URL: z.preprocess(
      emptyAsUnset,
      z
        .url({
          protocol: /^https?$/,
          error: "must be an http:// or https:// URL (a Slack, Discord, Mattermost, Google Chat or Teams webhook)",
        })
        .optional(),
    ),
    // Unset: chosen from the webhook URL's host (see docs/notifications.md).
    NOTIFY_WEBHOOK_FORMAT: z.preprocess(
      (value) => emptyAsUnset(typeof value === "string" ? value.trim().toLowerCase() : value),
      z.enum(webhookFormats, { error: `must be one of ${webhookFormats.join(", ")}` }).optional(),
    ),
  };
}

/** E-mail needs all three of its variables or none: a half-configured channel would silently notify nobody. */
function notifyEnvProblems(env: Record<string, string | undefined>): string[] {
  const set = (name: string) => Boolean(env[name]);
  const emailVariables = ["SMTP_URL", "NOTIFY_EMAIL_TO", "NOTIFY_EMAIL_FROM"];
  const given = emailVariables.filter(set);
  if (given.length === 0 || given.length === emailVariables.length) return [];
  return emailVariables
    .filter((name) => !set(name))
    .map(
      (name) =>
        `  ${name}: must be set too, because ${given.join(" and ")} ${given.length > 1 ? "are" : "is"} (e-mail needs SMTP_URL, NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM)`,
    );
}

export interface EmailChannelConfig {
  /** smtp:// or smtps:// with optional credentials. Never logged: it may hold a password. */
  smtpUrl: string;
  to: string[];
  /** The sender's address. */
  from: string;
  /** The sender's display name, when NOTIFY_EMAIL_FROM gives one. */
  fromName?: string;
}

export interface NotifyConfig {
  email: EmailChannelConfig | undefined;
  /** Never logged whole: Slack's and Discord's webhook URLs are secrets. */
  webhookUrl: string | undefined;
  /** The payload format NOTIFY_WEBHOOK_FORMAT names; undefined: chosen from the URL's host. */
  webhookFormat?: WebhookFormat;
}

function notifyConfig(data: {
  SMTP_URL?: string;
  NOTIFY_EMAIL_TO?: string[];
  NOTIFY_EMAIL_FROM?: { name: string | undefined; address: string };
  NOTIFY_WEBHOOK_URL?: string;
  NOTIFY_WEBHOOK_FORMAT?: WebhookFormat;
}): NotifyConfig {
  const { SMTP_URL, NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM, NOTIFY_WEBHOOK_URL, NOTIFY_WEBHOOK_FORMAT } = data;
  const email =
    SMTP_URL && NOTIFY_EMAIL_TO && NOTIFY_EMAIL_FROM
      ? {
          smtpUrl: SMTP_URL,
          to: NOTIFY_EMAIL_TO,
          from: NOTIFY_EMAIL_FROM.address,
          ...(NOTIFY_EMAIL_FROM.name ? { fromName: NOTIFY_EMAIL_FROM.name } : {}),
        }
      : undefined;
  return {
    email,
    webhookUrl: NOTIFY_WEBHOOK_URL,
    ...(NOTIFY_WEBHOOK_FORMAT ? { webhookFormat: NOTIFY_WEBHOOK_FORMAT } : {}),
  };
}

// --- Spam filter and retention (SPAM_FILTER, RETENTION_DAYS, SPAM_RETENTION_DAYS) --------------------------------

function spamEnvShape() {
  return {
    SPAM_FILTER: z.preprocess(emptyAsUnset, z.enum(["on", "off"], "must be on or off").default("on")),
    RETENTION_DAYS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(36_500).default(365)),
    SPAM_RETENTION_DAYS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(36_500).default(30)),
  };
}

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

const spamConfig = (env: { SPAM_FILTER: "on" | "off" }): SpamConfig => ({ filter: env.SPAM_FILTER === "on" });

const retentionConfig = (env: { RETENTION_DAYS: number; SPAM_RETENTION_DAYS: number }): RetentionConfig => ({
  retentionDays: env.RETENTION_DAYS,
  spamRetentionDays: env.SPAM_RETENTION_DAYS,
});

// --- The daily spam digest (SITE_TIMEZONE, SPAM_DIGEST_HOUR) ----------------------------------------------------

/** An IANA time zone name the runtime knows (Europe/Berlin, America/New_York, UTC). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function digestEnvShape() {
  return {
    SITE_TIMEZONE: z.preprocess(
      (value) => emptyAsUnset(typeof value === "string" ? value.trim() : value),
      z
        .string()
        .default("UTC")
        .refine(isTimeZone, "must be an IANA time zone name, e.g. Europe/London, America/New_York or UTC"),
    ),
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
  };
}

export interface SpamDigestConfig {
  /** The local hour (0-23) from which the day's digest is due; null (SPAM_DIGEST_HOUR=off): no digest. */
  hour: number | null;
  /** The business's IANA time zone (SITE_TIMEZONE): the hour and the day are counted in it. */
  timeZone: string;
}

// --- Backups of the SQLite inbox (BACKUP_INTERVAL, BACKUP_DIR, BACKUP_KEEP_HOURLY, BACKUP_KEEP_DAILY, BACKUP_KEY) ----

const durationUnits = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `90s`, `30m`, `1h`, `2d` in milliseconds; null when it is none of these. */
export function parseDuration(value: string): number | null {
  const match = /^(\d{1,6})\s*([smhd])$/.exec(value.trim().toLowerCase());
  return match ? Number(match[1]) * durationUnits[match[2] as keyof typeof durationUnits] : null;
}

// Shorter than this and a large database would be copied again before the last copy was checked.
const minBackupIntervalMs = 10_000;

function backupEnvShape() {
  return {
    BACKUP_INTERVAL: z.preprocess(
      (value) => emptyAsUnset(typeof value === "string" ? value.trim().toLowerCase() : value),
      z
        .string()
        .default("1h")
        .transform((value, context) => {
          if (value === "off") return null;
          const ms = parseDuration(value);
          if (ms !== null && ms >= minBackupIntervalMs && ms <= 7 * durationUnits.d) return ms;
          context.addIssue({
            code: "custom",
            message: "must be a time from 10s to 7d such as 30m, 1h or 1d (s, m, h or d), or off",
          });
          return z.NEVER;
        }),
    ),
    BACKUP_DIR: z.preprocess(emptyAsUnset, z.string().optional()),
    BACKUP_KEEP_HOURLY: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(10_000).default(24)),
    BACKUP_KEEP_DAILY: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(3_650).default(30)),
    BACKUP_KEY: z.preprocess(
      emptyAsUnset,
      z
        .string()
        .transform((value, context) => {
          const trimmed = value.trim();
          const key = Buffer.from(trimmed, "base64");
          // Buffer.from skips what is not base64: a value it does not give back exactly was not base64.
          if (key.length === 32 && key.toString("base64").replace(/=+$/, "") === trimmed.replace(/=+$/, "")) return key;
          context.addIssue({
            code: "custom",
            message: "must be 32 random bytes in base64 (44 characters), e.g. from: openssl rand -base64 32",
          });
          return z.NEVER;
        })
        .optional(),
    ),
  };
}

export interface BackupConfig {
  /** How often the server takes a backup; null (BACKUP_INTERVAL=off): never by itself (the command still works). */
  intervalMs: number | null;
  /** Where backups go (BACKUP_DIR, default `backups/` beside the SQLite file); undefined on PostgreSQL. */
  dir: string | undefined;
  /** How many of the newest backups are kept, and for how many days one a day (the day's first) beyond them. */
  keepHourly: number;
  keepDaily: number;
  /** BACKUP_KEY: backups are encrypted (AES-256-GCM) with it. Never logged. */
  key: Buffer | undefined;
}

function backupConfig(env: {
  BACKUP_INTERVAL: number | null;
  BACKUP_DIR?: string;
  BACKUP_KEEP_HOURLY: number;
  BACKUP_KEEP_DAILY: number;
  BACKUP_KEY?: Buffer;
  DATABASE_URL: DatabaseLocation;
}): BackupConfig {
  const database = env.DATABASE_URL;
  return {
    intervalMs: env.BACKUP_INTERVAL,
    dir:
      database.kind === "sqlite" ? (env.BACKUP_DIR ?? joinPath(dirname(database.path) || ".", "backups")) : undefined,
    keepHourly: env.BACKUP_KEEP_HOURLY,
    keepDaily: env.BACKUP_KEEP_DAILY,
    key: env.BACKUP_KEY,
  };
}

// --- Serving, the enquiry API, the inbox database and the rate limits ----------------------------------------------

/** Where DATABASE_URL points: `file:PATH` (SQLite) or `postgres://` / `postgresql://`. */
export type { DatabaseLocation };

export function parseDatabaseUrl(value: string): DatabaseLocation | null {
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      const url = new URL(value);
      // A server to talk to: a host name, or a socket directory as ?host=
      return url.hostname || url.searchParams.get("host") ? { kind: "postgres", url: value } : null;
    } catch {
      return null;
    }
  }
  const path = value.startsWith("file:") ? value.slice("file:".length).replace(/^\/\/(?=\/)/, "") : "";
  return path ? { kind: "sqlite", path } : null;
}

/** Where the database is, for logs: never the password. */
export function describeDatabase(location: DatabaseLocation): string {
  if (location.kind === "sqlite") return `SQLite ${location.path}`;
  const url = new URL(location.url);
  return `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}`;
}

/** An http(s) origin (scheme, host, port) and nothing else, normalised (e.g. `HTTP://A.example:80/` -> `http://a.example`). */
const httpOrigin = (example: string) =>
  z
    // abort: zod 4 runs later checks even after one fails, and `new URL` below throws on a value that is no URL.
    .url({ protocol: /^https?$/, error: `must be an http:// or https:// URL, e.g. ${example}`, abort: true })
    .refine((value) => {
      const url = new URL(value);
      return (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash && !url.username;
    }, "must be an origin only (scheme, host and port), without a path, query or credentials")
    .transform((value) => new URL(value).origin);

// --- Secrets sealed at rest (SECRETS_KEY, SECRETS_KEY_NEW; ADR 0034) ----------------------------------------------

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

const envSchema = z.object({
  PORT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(65535).default(3000)),
  HOST: z.preprocess(
    emptyAsUnset,
    z
      .union([z.ipv4(), z.ipv6(), z.hostname()], {
        error: "must be an address or host name to listen on, e.g. 127.0.0.1, 0.0.0.0, :: or localhost",
      })
      .optional(),
  ),
  API_HOST: z.preprocess(emptyAsUnset, httpOrigin("http://127.0.0.1:4010").optional()),
  API_TIMEOUT_MS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(100).max(120_000).default(10_000)),
  DATABASE_URL: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .default("file:data/enquiries.db")
      .transform((value, context) => {
        const location = parseDatabaseUrl(value);
        if (!location)
          context.addIssue({ code: "custom", message: "must be file:PATH (SQLite) or postgres://… / postgresql://…" });
        return location ?? z.NEVER;
      }),
  ),
  STORE_TIMEOUT_MS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(100).max(60_000).default(5_000)),
  PHOTO_LEASE_MS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1_000).max(3_600_000).default(60_000)),
  INBOX_FILE: z.preprocess(emptyAsUnset, z.string().default("data/enquiries.jsonl")),
  PUBLIC_URL: z.preprocess(emptyAsUnset, httpOrigin("https://haunt.example").optional()),
  TRUST_PROXY: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(10).default(0)),
  RATE_LIMIT_SITE_PER_MINUTE: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(1_000_000).default(30)),
  RATE_LIMIT_CLIENT_PER_HOUR: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(1_000_000).default(10)),
  RATE_LIMIT_LOGIN_PER_MINUTE: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(1_000_000).default(30)),
  INBOX_REQUIRE_2FA: z.preprocess(emptyAsUnset, z.enum(["on", "off"], "must be on or off").default("on")),
  SECRETS_KEY: secretsKey,
  // Read only by `npm run inbox -- secrets rotate`: the key the secrets are sealed with next.
  SECRETS_KEY_NEW: secretsKey,
  LOG_FORMAT: z.preprocess(emptyAsUnset, z.enum(logFormats, "must be json or text").optional()),
  // Unset: no metrics listener at all. Never the public port: /metrics there is the 404 page.
  METRICS_PORT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(65535).optional()),
  METRICS_HOST: z.preprocess(
    emptyAsUnset,
    z
      .union([z.ipv4(), z.ipv6(), z.hostname()], {
        error: "must be an address or host name to listen on, e.g. 127.0.0.1 (the default) or 0.0.0.0",
      })
      .default("127.0.0.1"),
  ),
  ...notifyEnvShape(),
  ...spamEnvShape(),
  ...digestEnvShape(),
  ...backupEnvShape(),
});

export interface Config {
  port: number;
  /** The address to listen on; undefined: every interface. */
  host: string | undefined;
  /** Origin of the upstream API; undefined means the site's own embedded back-end takes the enquiries. */
  apiHost: string | undefined;
  apiTimeoutMs: number;
  /** The embedded inbox's database: SQLite file or PostgreSQL. */
  database: DatabaseLocation;
  /** How long a request waits for the database before the visitor is told to try again later. */
  storeTimeoutMs: number;
  /** The v1 JSON-lines inbox, imported into the database at start when it exists. */
  inboxFile: string;
  /**
   * How long an instance holds a photo it is encoding without writing a file (renewed with each file): after it, an
   * instance that died while encoding is taken over. Unset (as in tests built by hand) means the default.
   */
  photoLeaseMs?: number;
  /** The site's one public origin (sitemap, robots.txt, canonical links); never taken from a request's headers. */
  publicUrl: string;
  /** False when PUBLIC_URL was not set and publicUrl is the local default. */
  publicUrlSet: boolean;
  /**
   * The business's IANA time zone (SITE_TIMEZONE, default UTC): the order window closes at midnight there, the stale
   * season is judged there, the spam digest's hour is counted there.
   */
  timeZone: string;
  /** How many reverse proxies in front of the site to believe about X-Forwarded-For/-Proto (0: none). */
  trustProxy: number;
  /** Enquiries per minute for this instance, and per client address per hour; 0 turns a limit off. */
  rateLimitSitePerMinute: number;
  rateLimitClientPerHour: number;
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
  /**
   * LOG_FORMAT: one JSON object per line (`json`) or today's human lines (`text`); unset, text under a terminal and
   * JSON otherwise. Unset here (as in tests built by hand) means that default.
   */
  logFormat?: LogFormat;
  /** Which notification channels are configured; unset (as in tests built by hand) means none. */
  notify?: NotifyConfig;
  /** Where /metrics (Prometheus) listens, apart from the site (METRICS_PORT, METRICS_HOST); unset: no metrics. */
  metrics?: { port: number; host: string };
  /** Whether the spam filter judges enquiries; unset (as in tests built by hand) means on. */
  spam?: SpamConfig;
  /** How long enquiries and spam are kept; unset (as in tests built by hand) means the defaults. */
  retention?: RetentionConfig;
  /** When the daily digest of what was kept aside as spam goes out; unset (as in tests built by hand) means none. */
  spamDigest?: SpamDigestConfig;
  /** The SQLite inbox's backups; unset (as in tests built by hand) means none taken by the server. */
  backup?: BackupConfig;
}

export const defaultRetention: RetentionConfig = { retentionDays: 365, spamRetentionDays: 30 };

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = envSchema.safeParse(env);
  const problems = [
    ...(result.success ? [] : result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`)),
    ...notifyEnvProblems(env),
    ...(result.success && result.data.METRICS_PORT === result.data.PORT
      ? ["  METRICS_PORT: must differ from PORT: the metrics are never served on the site's own port"]
      : []),
  ];
  if (!result.success || problems.length > 0) {
    throw new ConfigError(`Invalid environment, the site will not start:\n${problems.join("\n")}`);
  }
  const { PORT, API_HOST, API_TIMEOUT_MS, DATABASE_URL, STORE_TIMEOUT_MS, INBOX_FILE, PHOTO_LEASE_MS } = result.data;
  return {
    port: PORT,
    apiHost: API_HOST,
    apiTimeoutMs: API_TIMEOUT_MS,
    database: DATABASE_URL,
    storeTimeoutMs: STORE_TIMEOUT_MS,
    inboxFile: INBOX_FILE,
    photoLeaseMs: PHOTO_LEASE_MS,
    secretsKey: result.data.SECRETS_KEY,
    secretsKeyNew: result.data.SECRETS_KEY_NEW,
    ...servingConfig(result.data),
    notify: notifyConfig(result.data),
    spam: spamConfig(result.data),
    retention: retentionConfig(result.data),
    spamDigest: { hour: result.data.SPAM_DIGEST_HOUR, timeZone: result.data.SITE_TIMEZONE },
    backup: backupConfig(result.data),
  };
}

function servingConfig(env: z.infer<typeof envSchema>) {
  return {
    host: env.HOST,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    publicUrlSet: env.PUBLIC_URL !== undefined,
    timeZone: env.SITE_TIMEZONE,
    trustProxy: env.TRUST_PROXY,
    rateLimitSitePerMinute: env.RATE_LIMIT_SITE_PER_MINUTE,
    rateLimitClientPerHour: env.RATE_LIMIT_CLIENT_PER_HOUR,
    rateLimitLoginPerMinute: env.RATE_LIMIT_LOGIN_PER_MINUTE,
    requireSecondFactor: env.INBOX_REQUIRE_2FA === "on",
    logFormat: env.LOG_FORMAT ?? defaultLogFormat(),
    metrics: env.METRICS_PORT === undefined ? undefined : { port: env.METRICS_PORT, host: env.METRICS_HOST },
  };
}
