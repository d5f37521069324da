import { closeSync, existsSync, mkdirSync, openSync } from "node:fs";
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
import { log } from "~/log.server";
import { fileGoneCode, sqliteWorker, type Call, type Reply } from "~/store/sqlite-worker.server";

/**
 * SQLite through Node's built-in `node:sqlite` (no native add-on to compile, patched with the runtime). Its API is
 * synchronous, so it runs in a worker thread: a disk that hangs blocks that thread, never the server's event loop,
 * and the caller's wait is bounded (withTimeout). WAL mode lets readers and one writer work at once; every write
 * transaction is BEGIN IMMEDIATE, so processes sharing the file queue on the busy timeout instead of failing on a
 * stale read snapshot.
 *
 * The disk under a running server can go wrong: the file or its directory removed or replaced (SQLite would go on
 * writing to the unlinked file), the disk full, read-only, or failing. The worker compares the file it has open with
 * the one at the path before every call, a probe writes a page every few seconds, and an error code of that kind
 * marks the database unavailable (one log line per cause) until a probe succeeds again; a removed or replaced file
 * is reopened as soon as a file is at the path again, without a restart.
 */

// SQLite's primary result codes that mean "not now" rather than "wrong": busy or locked by another process, disk I/O,
// disk full, cannot open. The visitor is told to try again later, as for a timeout.
const unavailableCodes = new Set([5, 6, 8, 10, 13, 14]);
// The ones that say the disk itself is wrong: the database is marked unavailable until a probe write passes.
const diskCauses = new Map([
  [8, "the database file is read-only"],
  [10, "disk I/O error"],
  [13, "the disk is full"],
  [14, "the database file cannot be opened"],
]);

/** How often the file's identity is compared and a probe written (the disk's state is known within twice this). */
export const diskCheckIntervalMs = 3_000;

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
  // Why the database cannot take enquiries now (null: it can), and the migrations to apply to a file that comes back.
  let down: { cause: string; fileGone: boolean } | null = null;
  let appliedMigrations: readonly Migration[] = [];

  const markDown = (cause: string, fileGone: boolean) => {
    if (down?.cause !== cause)
      log.error(`inbox: DATABASE UNAVAILABLE (${file}): ${cause}; enquiries are refused until it is back`);
    down = { cause, fileGone };
    // Nothing more may reach the unlinked file: the worker goes, and a new one opens whatever is at the path later.
    if (fileGone) void stopWorker();
  };
  const markUp = () => {
    if (down) log.info(`inbox: database back (${file}), taking enquiries again`);
    down = null;
  };

  // A worker that died (it should not) is replaced on the next call; calls in flight fail and can be retried.
  const start = () => {
    const started = new Worker(source, { eval: true, workerData: { path: file, busyTimeoutMs } });
    started.on("message", (reply: Reply) => {
      const waiter = pending.get(reply.id);
      if (!waiter) return;
      pending.delete(reply.id);
      if (!("error" in reply)) return waiter.resolve(reply.result);
      const { message, errcode = 0 } = reply.error;
      if (errcode === fileGoneCode) markDown(message, true);
      else if (diskCauses.has(errcode & 0xff)) markDown(`${diskCauses.get(errcode & 0xff)} (${message})`, false);
      waiter.reject(
        errcode === fileGoneCode || unavailableCodes.has(errcode & 0xff)
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
  const stopWorker = async () => {
    const running = worker;
    worker = undefined;
    await running?.terminate();
  };

  const call = <T>(request: Call, what: string): Promise<T> => {
    if (closed) return Promise.reject(new StoreUnavailableError("the database is closed"));
    if (down?.fileGone) return Promise.reject(new StoreUnavailableError(`SQLite: ${down.cause}`));
    worker ??= start();
    const id = nextId++;
    const answer = new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    });
    worker.postMessage({ ...request, id });
    // A late answer after a timeout is dropped; the work itself may still complete (the duplicate check covers a resubmit).
    return withTimeout(answer, timeoutMs, what).finally(() => pending.delete(id));
  };

  /** A probe write; after the file went, first a new worker on the file now at the path (if any), migrated. */
  const probe = async () => {
    if (down?.fileGone) {
      if (!existsSync(file)) throw new StoreUnavailableError(`SQLite: ${down.cause}`);
      down = { ...down, fileGone: false };
      await stopWorker();
      try {
        await call<number[]>({ op: "migrate", migrations: appliedMigrations }, "migration");
      } catch (error) {
        if (!down?.fileGone) down = { cause: down?.cause ?? (error as Error).message, fileGone: true };
        throw error;
      }
    }
    await call<null>({ op: "probe" }, "probe");
    markUp();
  };

  let checking = false;
  const monitor = setInterval(() => {
    if (checking) return;
    checking = true;
    probe()
      .catch(() => {}) // the cause is logged once by markDown; a timeout (a hung disk) shows in /readyz
      .finally(() => (checking = false));
  }, diskCheckIntervalMs);
  monitor.unref();

  return {
    dialect: "sqlite",
    query: (sql: string, params?: Params) => call<Row[]>({ op: "query", statement: { sql, params } }, "query"),
    transaction: (statements: readonly Statement[]) => call<Row[][]>({ op: "transaction", statements }, "transaction"),
    migrate: (migrations: readonly Migration[]) => {
      appliedMigrations = migrations;
      return call<number[]>({ op: "migrate", migrations }, "migration");
    },
    probe,
    scrub: (_tables, { erase = false } = {}) => call<boolean>({ op: "scrub", erase }, "checkpoint"),
    async close() {
      closed = true;
      clearInterval(monitor);
      await stopWorker();
    },
  };
}
