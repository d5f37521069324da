import { z } from "zod";
import { parseDatabaseUrl, type DatabaseLocation } from "~/inbox/store.server";

/**
 * The environment, read and checked once. An invalid value stops the server at start with a message that names the
 * variable, rather than failing on the first enquiry.
 */
const emptyAsUnset = (value: unknown) => (value === "" ? undefined : value);

const envSchema = z.object({
  PORT: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1).max(65535).default(3000)),
  API_HOST: z.preprocess(
    emptyAsUnset,
    z
      // abort: zod 4 runs later checks even after one fails, and `new URL` below throws on a value that is no URL.
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL, e.g. http://127.0.0.1:4010", abort: true })
      .refine((value) => {
        const url = new URL(value);
        return (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash && !url.username;
      }, "must be an origin only (scheme, host and port), without a path, query or credentials")
      .transform((value) => new URL(value).origin)
      .optional(),
  ),
  API_TIMEOUT_MS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(100).max(120_000).default(10_000)),
  DATABASE_URL: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .default("file:data/enquiries.db")
      .transform((value, context) => {
        const location = parseDatabaseUrl(value);
        if (!location) context.addIssue({ code: "custom", message: "must be file:PATH (SQLite) or postgres://… / postgresql://…" });
        return location ?? z.NEVER;
      }),
  ),
  STORE_TIMEOUT_MS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(100).max(60_000).default(5_000)),
  INBOX_FILE: z.preprocess(emptyAsUnset, z.string().default("data/enquiries.jsonl")),
  PUBLIC_URL: z.preprocess(
    emptyAsUnset,
    z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL, e.g. https://haunt.example", abort: true })
      .refine((value) => {
        const url = new URL(value);
        return (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash && !url.username;
      }, "must be an origin only (scheme, host and port), without a path, query or credentials")
      .transform((value) => new URL(value).origin)
      .optional(),
  ),
  TRUST_PROXY: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(10).default(0)),
  RATE_LIMIT_SITE_PER_MINUTE: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(1_000_000).default(30)),
  RATE_LIMIT_CLIENT_PER_HOUR: z.preprocess(emptyAsUnset, z.coerce.number().int().min(0).max(1_000_000).default(10)),
});

export interface Config {
  port: number;
  /** Origin of the upstream API; undefined means the site's own embedded back-end takes the enquiries. */
  apiHost: string | undefined;
  apiTimeoutMs: number;
  /** The embedded inbox's database: SQLite file or PostgreSQL. */
  database: DatabaseLocation;
  /** How long a request waits for the database before the visitor is told to try again later. */
  storeTimeoutMs: number;
  /** The v1 JSON-lines inbox, imported into the database at start when it exists. */
  inboxFile: string;
  /** The site's one public origin (sitemap, robots.txt, canonical links); never taken from a request's headers. */
  publicUrl: string;
  /** False when PUBLIC_URL was not set and publicUrl is the local default. */
  publicUrlSet: boolean;
  /** How many reverse proxies in front of the site to believe about X-Forwarded-For/-Proto (0: none). */
  trustProxy: number;
  /** Enquiries per minute for this instance, and per client address per hour; 0 turns a limit off. */
  rateLimitSitePerMinute: number;
  rateLimitClientPerHour: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid environment, the site will not start:\n${problems.join("\n")}`);
  }
  const { PORT, API_HOST, API_TIMEOUT_MS, DATABASE_URL, STORE_TIMEOUT_MS, INBOX_FILE } = result.data;
  return {
    port: PORT,
    apiHost: API_HOST,
    apiTimeoutMs: API_TIMEOUT_MS,
    database: DATABASE_URL,
    storeTimeoutMs: STORE_TIMEOUT_MS,
    inboxFile: INBOX_FILE,
    ...servingConfig(result.data),
  };
}

function servingConfig(env: z.infer<typeof envSchema>) {
  return {
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    publicUrlSet: env.PUBLIC_URL !== undefined,
    trustProxy: env.TRUST_PROXY,
    rateLimitSitePerMinute: env.RATE_LIMIT_SITE_PER_MINUTE,
    rateLimitClientPerHour: env.RATE_LIMIT_CLIENT_PER_HOUR,
  };
}

let config: Config | undefined;

/** The process's configuration; the first call reads process.env and exits the process when it is invalid. */
export function getConfig(): Config {
  if (config) return config;
  try {
    config = parseConfig(process.env);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
