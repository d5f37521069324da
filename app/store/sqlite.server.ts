import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Worker } from "node:worker_threads";
import {
  StoreUnavailableError,
  withTimeout,
  type Migration,
  type Params,
  type Row,
  type SqlClient,
  type Statement,
} from "~/store/sql.server";

/**
 * SQLite through Node's built-in `node:sqlite` (no native add-on to compile, patched with the runtime). Its API is
 * synchronous, so it runs in a worker thread: a disk that hangs blocks that thread, never the server's event loop,
 * and the caller's wait is bounded (withTimeout). WAL mode lets readers and one writer work at once; every write
 * transaction is BEGIN IMMEDIATE, so processes sharing the file queue on the busy timeout instead of failing on a
 * stale read snapshot.
 */

type Request =
  | { id: number; op: "query"; statement: Statement }
  | { id: number; op: "transaction"; statements: readonly Statement[] }
  | { id: number; op: "migrate"; migrations: readonly Migration[] };
type Reply = { id: number; result: unknown } | { id: number; error: { message: string; errcode?: number } };
type Call = Request extends infer R ? (R extends unknown ? Omit<R, "id"> : never) : never;

// SQLite's primary result codes that mean "not now" rather than "wrong": busy or locked by another process, disk I/O,
// disk full, cannot open. The visitor is told to try again later, as for a timeout.
const unavailableCodes = new Set([5, 6, 10, 13, 14]);

/**
 * The worker's whole program. It runs from its source text (Worker `eval`), so it must not use anything from
 * outside its own body: Node's modules come from process.getBuiltinModule.
 */
function sqliteWorker() {
  const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const db = new DatabaseSync(workerData.path, { timeout: workerData.busyTimeoutMs });
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;");

  const run = ({ sql, params = [] }: Statement) => {
    const statement = db.prepare(sql);
    if (statement.columns().length > 0) return statement.all(...(params as (string | number | null)[]));
    statement.run(...(params as (string | number | null)[]));
    return [];
  };
  const inTransaction = <T>(work: () => T): T => {
    db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      db.exec("COMMIT");
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec("ROLLBACK");
      throw error;
    }
  };
  const migrate = (migrations: readonly Migration[]) =>
    inTransaction(() => {
      db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)");
      const done = new Set(
        db
          .prepare("SELECT version FROM schema_migrations")
          .all()
          .map((row) => Number(row.version)),
      );
      const applied: number[] = [];
      for (const migration of migrations) {
        if (done.has(migration.version)) continue;
        for (const sql of migration.statements) db.exec(sql);
        db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)").run(
          migration.version,
          Date.now(),
        );
        applied.push(migration.version);
      }
      return applied;
    });

  parentPort!.on("message", (request: Request) => {
    try {
      const result =
        request.op === "query"
          ? run(request.statement)
          : request.op === "transaction"
            ? inTransaction(() => request.statements.map(run))
            : migrate(request.migrations);
      parentPort!.postMessage({ id: request.id, result });
    } catch (error) {
      const { message, errcode } = error as { message: string; errcode?: number };
      parentPort!.postMessage({ id: request.id, error: { message, errcode } });
    }
  });
}

export interface SqliteOptions {
  /** How long one call may take before the caller gets StoreUnavailableError. */
  timeoutMs: number;
  /** How long SQLite waits for another process's write lock before it fails with SQLITE_BUSY. */
  busyTimeoutMs?: number;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

export function openSqlite(
  path: string,
  { timeoutMs, busyTimeoutMs = Math.max(timeoutMs - 500, 100) }: SqliteOptions,
): SqlClient {
  const file = resolve(path);
  mkdirSync(dirname(file), { recursive: true });
  // Enquiries are personal data: a new database is readable by its owner only (SQLite gives its -wal and -shm files
  // the database file's permissions).
  closeSync(openSync(file, "a", 0o600));
  const source = `(${sqliteWorker.toString()})()`;
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let worker: Worker | undefined;
  let closed = false;

  // A worker that died (it should not) is replaced on the next call; calls in flight fail and can be retried.
  const start = () => {
    const started = new Worker(source, { eval: true, workerData: { path: file, busyTimeoutMs } });
    started.on("message", (reply: Reply) => {
      const waiter = pending.get(reply.id);
      if (!waiter) return;
      pending.delete(reply.id);
      if (!("error" in reply)) return waiter.resolve(reply.result);
      const { message, errcode = 0 } = reply.error;
      waiter.reject(
        unavailableCodes.has(errcode & 0xff)
          ? new StoreUnavailableError(`SQLite: ${message}`)
          : new Error(`SQLite: ${message}`),
      );
    });
    const fail = (error: Error) => {
      if (worker === started) worker = undefined;
      for (const [id, waiter] of pending) {
        pending.delete(id);
        waiter.reject(new StoreUnavailableError(`SQLite worker stopped: ${error.message}`));
      }
    };
    started.on("error", fail);
    started.on("exit", (code) => fail(new Error(`exit code ${code}`)));
    return started;
  };

  const call = <T>(request: Call, what: string): Promise<T> => {
    if (closed) return Promise.reject(new StoreUnavailableError("the database is closed"));
    worker ??= start();
    const id = nextId++;
    const answer = new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    });
    worker.postMessage({ ...request, id });
    // A late answer after a timeout is dropped; the work itself may still complete (the duplicate check covers a resubmit).
    return withTimeout(answer, timeoutMs, what).finally(() => pending.delete(id));
  };

  return {
    dialect: "sqlite",
    query: (sql: string, params?: Params) => call<Row[]>({ op: "query", statement: { sql, params } }, "query"),
    transaction: (statements: readonly Statement[]) => call<Row[][]>({ op: "transaction", statements }, "transaction"),
    migrate: (migrations: readonly Migration[]) => call<number[]>({ op: "migrate", migrations }, "migration"),
    async close() {
      closed = true;
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}
