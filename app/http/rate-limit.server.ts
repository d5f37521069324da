import ipaddr from "ipaddr.js";
import type pg from "pg";
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
  type IRateLimiterOptions,
} from "rate-limiter-flexible";

/**
 * The counting under every rate limit (the enquiries' and the logins'): fixed windows from rate-limiter-flexible, in
 * the inbox's PostgreSQL database when there is one, so every instance shares the counts, in this process's memory
 * otherwise. Kept apart from what each limit means, so the contact form and the login reach it without reaching
 * each other.
 */

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

/**
 * Where the counts live: this process's memory, or a table in the inbox's PostgreSQL database (shared), reached through
 * the process's one pool (server/database.ts makes it).
 */
export type RateLimitStore = { kind: "memory" } | { kind: "postgres"; pool: pg.Pool };

const tableName = "rate_limits";

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
    tableName,
    tableCreated: true, // by ensureTable, which tries again after a failure

    insuranceLimiter: new RateLimiterMemory(options),
  });
}

const tables = new WeakMap<pg.Pool, Promise<unknown>>();

/** The counts' table, made by the first instance that counts; until it exists, the memory insurance counts. */
export async function ensureTable(store: RateLimitStore): Promise<void> {
  if (store.kind !== "postgres") return;
  const { pool } = store;
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
