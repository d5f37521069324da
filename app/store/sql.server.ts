/**
 * The little the store needs from a database, on SQLite and PostgreSQL alike: run statements (written with `?`
 * placeholders) one by one or as one transaction, apply migrations under a lock, close. Every call is bounded in time:
 * a database that hangs (dead disk, stuck mount, unreachable server) fails the call instead of hanging a request.
 */

/** Statement parameters; bytes (a photo) are a BLOB on SQLite and a BYTEA on PostgreSQL. */
export type Params = readonly (string | number | null | Uint8Array)[];
export type Row = Record<string, unknown>;
export interface Statement {
  sql: string;
  params?: Params;
}

export interface Migration {
  version: number;
  statements: readonly string[];
}

export interface SqlClient {
  readonly dialect: "sqlite" | "postgres";
  /** One statement; its rows (empty for statements that return none). */
  query(sql: string, params?: Params): Promise<Row[]>;
  /** Statements run in order in one transaction; the rows of each. All or nothing. */
  transaction(statements: readonly Statement[]): Promise<Row[][]>;
  /** Applies the migrations not applied yet, under a lock, so two processes starting together never both migrate. */
  migrate(migrations: readonly Migration[]): Promise<number[]>;
  /** Succeeds when the database would take a write now (readiness); fails with StoreUnavailableError otherwise. */
  probe(): Promise<void>;
  /**
   * After personal data was deleted: leaves no copy of it in the database's own files where that can be done (SQLite:
   * the WAL checkpointed and truncated; PostgreSQL: VACUUM of the tables, see docs/spam-and-retention.md). False when
   * it could not finish now (another reader), so the caller tries again. `erase`: also what deletions made before
   * this scrubbing existed left behind (SQLite: a VACUUM, once per database; a purge does not wait for that).
   */
  scrub(tables: readonly string[], options?: { erase?: boolean }): Promise<boolean>;
  close(): Promise<void>;
}

/** The database did not answer in time, or could not be reached: the visitor is told to try again later. */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
}

/**
 * The store opened by the server (build/server/) and the pages (the Remix build) each carry their own copy of the
 * class above, so `instanceof` misses an error thrown by the other's copy: its name does not.
 */
export const isStoreUnavailable = (error: unknown): boolean =>
  error instanceof StoreUnavailableError || (error instanceof Error && error.name === "StoreUnavailableError");

/** Rejects with StoreUnavailableError when `promise` has not settled after `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new StoreUnavailableError(`${what}: no answer from the database within ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A statement of a transaction; the rows of those with a `name` are given back under it. */
export interface Step<Name extends string> extends Statement {
  name?: Name;
}

/**
 * Runs the steps in order in one transaction (all or nothing) and gives back the rows of each named step by its name;
 * steps of the same name (one per channel, one per line) share it, their rows in order.
 */
export async function transaction<const Name extends string>(
  db: SqlClient,
  steps: readonly Step<Name>[],
): Promise<Record<Name, Row[]>> {
  const results = await db.transaction(steps.map(({ sql, params }) => ({ sql, params })));
  const named = {} as Record<Name, Row[]>;
  steps.forEach(({ name }, index) => {
    if (name !== undefined) (named[name] ??= []).push(...results[index]!);
  });
  return named;
}
