import ipaddr from "ipaddr.js";
import pg from "pg";
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
  type IRateLimiterOptions,
} from "rate-limiter-flexible";
import type { Config } from "~/config.server";
import { enquiryMessages } from "~/content/site";
import type { ApiError } from "~/enquiry/api-answer";

/**
 * Caps how many enquiries are forwarded or stored: so many per minute for the site (a botnet cannot flood the inbox,
 * the upstream or the disk), and so many per hour per client, which is known only when TRUST_PROXY says which proxy's
 * X-Forwarded-For to believe. An enquiry counts when it is about to be sent, after validation, so typos do not use up
 * a visitor's allowance. Counted by rate-limiter-flexible (fixed windows from the first enquiry counted): in the inbox
 * database on PostgreSQL, so every instance shares the limits; in this process's memory otherwise. Should PostgreSQL
 * not answer, the process counts in memory meanwhile rather than refuse or wave everyone through.
 */

export interface RateLimitRefusal {
  error: ApiError;
  /** Seconds until a place frees up (the Retry-After header). */
  retryAfterSeconds: number;
}

export interface RateLimits {
  sitePerMinute: number;
  clientPerHour: number;
}

/**
 * Whom the per-client limit counts: an IPv4 address as it is (an IPv4-mapped IPv6 address, ::ffff:1.2.3.4, as the
 * IPv4 address), an IPv6 address by its /64 (one subscriber's network: a host picks any of its 2^64 addresses).
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address); // IPv4-mapped becomes IPv4
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(":")}::/64`;
}

/** Where the counts live: this process's memory, or a table in the inbox's PostgreSQL database (shared). */
export type RateLimitStore = { kind: "memory" } | { kind: "postgres"; pool: pg.Pool; tableName?: string };

/** A fixed-window counter of `points` per `duration` seconds, in memory or in the shared PostgreSQL table. */
export function makeLimiter(
  store: RateLimitStore,
  keyPrefix: string,
  points: number,
  duration: number,
): RateLimiterAbstract {
  const options: IRateLimiterOptions = { keyPrefix, points, duration };
  if (store.kind === "memory") return new RateLimiterMemory(options);
  return new RateLimiterPostgres({
    ...options,
    storeClient: store.pool,
    storeType: "pool",
    tableName: store.tableName ?? "rate_limits",
    tableCreated: true, // by ensureTable, which tries again after a failure

    insuranceLimiter: new RateLimiterMemory(options),
  });
}

const tables = new WeakMap<pg.Pool, Promise<unknown>>();

/** The counts' table, made by the first instance that counts; until it exists, the memory insurance counts. */
export async function ensureTable(store: RateLimitStore): Promise<void> {
  if (store.kind !== "postgres") return;
  const { pool, tableName = "rate_limits" } = store;
  let table = tables.get(pool);
  if (!table) {
    table = pool
      .query(
        `CREATE TABLE IF NOT EXISTS "${tableName}" (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`,
      )
      .catch((error: { code?: string }) => {
        // 23505: another instance created it at the same moment.
        if (error.code !== "23505") tables.delete(pool);
      });
    tables.set(pool, table);
  }
  await table;
}

/** Counts one for `key` and resolves with null, or with the seconds until a place frees up when none is left. */
export async function secondsUntilFree(limiter: RateLimiterAbstract | undefined, key: string): Promise<number | null> {
  if (!limiter) return null;
  try {
    await limiter.consume(key);
    return null;
  } catch (outcome) {
    if (!(outcome instanceof RateLimiterRes)) throw outcome;
    return Math.max(1, Math.ceil(outcome.msBeforeNext / 1000));
  }
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

/** Where the process's limits count: the inbox's PostgreSQL database (shared by every instance), or memory. */
export function rateLimitStore(config: Config): RateLimitStore {
  // With API_HOST there is no inbox database: counted in memory.
  const postgresUrl = !config.apiHost && config.database.kind === "postgres" ? config.database.url : undefined;
  if (!postgresUrl) return { kind: "memory" };
  const pool = new pg.Pool({
    connectionString: postgresUrl,
    max: 2,
    connectionTimeoutMillis: config.storeTimeoutMs,
    query_timeout: config.storeTimeoutMs,
    allowExitOnIdle: true,
  });
  pool.on("error", () => {}); // an idle connection dropped: the next query opens another
  return { kind: "postgres", pool };
}

/** The process's limiter, as configured (server/services.ts builds one at start). */
export function createEnquiryRateLimiter(config: Config, store = rateLimitStore(config)): EnquiryRateLimiter {
  const limits = { sitePerMinute: config.rateLimitSitePerMinute, clientPerHour: config.rateLimitClientPerHour };
  return new EnquiryRateLimiter(limits, store);
}
