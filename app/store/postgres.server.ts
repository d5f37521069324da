import pg from "pg";
import { withTimeout, type Migration, type Params, type Row, type SqlClient, type Statement } from "~/store/sql.server";
import { log } from "~/log.server";

/**
 * PostgreSQL through node-postgres, for several site instances on one database. A bounded pool; every call is bounded
 * in time (a server that is down or stuck fails the call, and the next call reconnects). BIGINT columns (times in
 * milliseconds) are read as numbers.
 */

export interface PostgresOptions {
  timeoutMs: number;
  /** Connections per process. */
  poolSize?: number;
  /** The process's pool, given by the server (the rate limits count in it too): used as it is, left open by close(). */
  pool?: pg.Pool;
}

/** Numbered placeholders from the store's `?` (no statement of ours has a `?` inside a string literal). */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

// One advisory lock number for migrations, so two instances starting together apply them one after the other.
const migrationLock = 0x6861756e; // "haun"

const bigintAsNumber: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8
      ? Number
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * The server said it is shutting down or not up (57P01-03), or refused the connection: the statement did not run, so
 * it can run again on a new connection. A connection that broke mid-statement is not retried: it may have committed.
 */
function connectionLost(error: unknown): boolean {
  const { code } = error as { code?: string };
  return ["57P01", "57P02", "57P03", "ECONNREFUSED"].includes(code ?? "");
}

/** The bounded pool every statement goes through, each bounded in time as the store's are. */
export function createPostgresPool(url: string, { timeoutMs, poolSize = 10 }: PostgresOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    idleTimeoutMillis: 30_000,
    // The server gives up too when we do, so a stuck lock does not pile up waiting backends.
    options: `-c statement_timeout=${timeoutMs} -c lock_timeout=${timeoutMs}`,
    types: bigintAsNumber,
  });
  // An idle connection the server dropped (restart): log it; the pool opens a new one on the next call.
  pool.on("error", (error) => log.error(`database: idle connection lost: ${error.message}`));
  return pool;
}

export function openPostgres(url: string, options: PostgresOptions): SqlClient {
  const { timeoutMs, pool: shared } = options;
  const pool = shared ?? createPostgresPool(url, options);

  const inTransaction = async <T>(work: (client: pg.PoolClient) => Promise<T>, retry = true): Promise<T> => {
    const client = await pool.connect();
    // A connection lost while checked out is reported on the client: the query in progress fails with it already.
    const ignore = () => {};
    client.on("error", ignore);
    const release = (destroy?: boolean) => {
      client.off("error", ignore);
      client.release(destroy);
    };
    try {
      await client.query("BEGIN");
    } catch (error) {
      release(true);
      // A pooled connection that died while idle (database restart): once more on a fresh one.
      if (retry && connectionLost(error)) return inTransaction(work, false);
      throw error;
    }
    try {
      const result = await work(client);
      await client.query("COMMIT");
      release();
      return result;
    } catch (error) {
      // A broken connection is thrown away rather than returned to the pool.
      await client.query("ROLLBACK").then(
        () => release(),
        () => release(true),
      );
      throw error;
    }
  };

  const transaction = (statements: readonly Statement[]) =>
    withTimeout(
      inTransaction(async (client) => {
        const results: Row[][] = [];
        for (const { sql, params = [] } of statements)
          results.push((await client.query(numbered(sql), [...params])).rows);
        return results;
      }),
      timeoutMs,
      "transaction",
    );

  return {
    dialect: "postgres",
    query: (sql: string, params: Params = []) => {
      const run = () => pool.query(numbered(sql), [...params]).then((result) => result.rows as Row[]);
      return withTimeout(
        run().catch((error: unknown) => (connectionLost(error) ? run() : Promise.reject(error))),
        timeoutMs,
        "query",
      );
    },
    transaction,
    // A transaction with nothing in it: the server answers and would start a write.
    probe: async () => {
      await transaction([{ sql: "SELECT 1 AS ok" }]);
    },
    // VACUUM cannot run in a transaction; the names are the store's own tables, never input. It removes the deleted
    // rows' dead tuples and makes their space reusable (the bytes stay until new rows overwrite them).
    scrub: async (tables: readonly string[]) => {
      await withTimeout(pool.query(`VACUUM ${tables.join(", ")}`), timeoutMs, "VACUUM");
      return true;
    },
    migrate: (migrations: readonly Migration[]) =>
      inTransaction(async (client) => {
        await client.query("SELECT pg_advisory_xact_lock($1)", [migrationLock]);
        await client.query(
          "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)",
        );
        const done = new Set(
          (await client.query("SELECT version FROM schema_migrations")).rows.map((row) => Number(row.version)),
        );
        const applied: number[] = [];
        for (const migration of migrations) {
          if (done.has(migration.version)) continue;
          for (const sql of migration.statements) await client.query(sql);
          await client.query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)", [
            migration.version,
            Date.now(),
          ]);
          applied.push(migration.version);
        }
        return applied;
      }),
    close: async () => {
      if (!shared) await pool.end();
    },
  };
}
