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
import type { ApiError } from "~/enquiry/status";

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

export class EnquiryRateLimiter {
  private readonly site?: RateLimiterAbstract;
  private readonly client?: RateLimiterAbstract;
  private table?: Promise<unknown>;

  constructor(
    limits: RateLimits,
    private readonly store: RateLimitStore = { kind: "memory" },
  ) {
    const make = (keyPrefix: string, points: number, duration: number) => {
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
    };
    if (limits.sitePerMinute > 0) this.site = make("enquiry-site", limits.sitePerMinute, 60);
    if (limits.clientPerHour > 0) this.client = make("enquiry-client", limits.clientPerHour, 60 * 60);
  }

  /** Counts one enquiry and returns null, or refuses it when a limit is reached (the site's count given back). */
  async take(client: string | undefined): Promise<RateLimitRefusal | null> {
    await this.ensureTable();
    const siteRefusal = await refusedBy(this.site, "site", enquiryMessages.rateLimitedSite);
    if (siteRefusal) return siteRefusal;
    if (client === undefined) return null;
    const clientRefusal = await refusedBy(this.client, clientKey(client), enquiryMessages.rateLimitedClient);
    if (clientRefusal) await this.site?.reward("site", 1).catch(() => {});
    return clientRefusal;
  }

  /** The counts' table, made by the first instance that counts; until it exists, the memory insurance counts. */
  private async ensureTable(): Promise<void> {
    if (this.store.kind !== "postgres") return;
    const { pool, tableName = "rate_limits" } = this.store;
    this.table ??= pool
      .query(
        `CREATE TABLE IF NOT EXISTS "${tableName}" (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint)`,
      )
      .catch((error: { code?: string }) => {
        // 23505: another instance created it at the same moment.
        if (error.code !== "23505") this.table = undefined;
      });
    await this.table;
  }
}

async function refusedBy(limiter: RateLimiterAbstract | undefined, key: string, detail: string) {
  if (!limiter) return null;
  try {
    await limiter.consume(key);
    return null;
  } catch (outcome) {
    if (!(outcome instanceof RateLimiterRes)) throw outcome;
    return {
      error: { title: enquiryMessages.rateLimitedTitle, detail },
      retryAfterSeconds: Math.max(1, Math.ceil(outcome.msBeforeNext / 1000)),
    };
  }
}

/** The process's limiter, as configured (server/services.ts builds one at start). */
export function createEnquiryRateLimiter(config: Config): EnquiryRateLimiter {
  const limits = { sitePerMinute: config.rateLimitSitePerMinute, clientPerHour: config.rateLimitClientPerHour };
  // With API_HOST there is no inbox database: counted in memory.
  const postgresUrl = !config.apiHost && config.database.kind === "postgres" ? config.database.url : undefined;
  if (!postgresUrl) return new EnquiryRateLimiter(limits);
  const pool = new pg.Pool({
    connectionString: postgresUrl,
    max: 2,
    connectionTimeoutMillis: config.storeTimeoutMs,
    query_timeout: config.storeTimeoutMs,
    allowExitOnIdle: true,
  });
  pool.on("error", () => {}); // an idle connection dropped: the next query opens another
  return new EnquiryRateLimiter(limits, { kind: "postgres", pool });
}
