import type { Migration, Statement } from "~/store/sql.server";

/**
 * The SQLite worker thread's side (app/store/sqlite.server.ts is the server's side): the program that holds the
 * connection, and the messages the two sides exchange.
 */

export type Request =
  | { id: number; op: "probe" }
  | { id: number; op: "scrub"; erase: boolean }
  | { id: number; op: "query"; statement: Statement }
  | { id: number; op: "transaction"; statements: readonly Statement[] }
  | { id: number; op: "migrate"; migrations: readonly Migration[] };
export type Reply = { id: number; result: unknown } | { id: number; error: { message: string; errcode?: number } };
/** errcode the worker gives when the file at the path is no longer the one it has open. */
export const fileGoneCode = -1;
export type Call = Request extends infer R ? (R extends unknown ? Omit<R, "id"> : never) : never;

/**
 * The worker's whole program. It runs from its source text (Worker `eval`), so it must not use anything from
 * outside its own body: Node's modules come from process.getBuiltinModule.
 */
export function sqliteWorker() {
  const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
  const { fstatSync, openSync, statSync } = process.getBuiltinModule("node:fs");
  const path: string = workerData.path;
  const db = new DatabaseSync(path, { timeout: workerData.busyTimeoutMs });
  // A descriptor of our own on the file SQLite opened: fstat tells its identity (device, inode) for as long as we run.
  const fd = openSync(path, "r");
  // secure_delete: a deleted row's bytes are overwritten with zeros in its page, not left in free space (an erase).
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON;");

  /** Throws when the file at the path is not the one open here (removed, or replaced by another file). */
  const checkFile = () => {
    const open = fstatSync(fd);
    let current;
    try {
      current = statSync(path);
    } catch {
      throw Object.assign(new Error(`the database file ${path} was removed`), { errcode: -1 });
    }
    if (current.ino !== open.ino || current.dev !== open.dev)
      throw Object.assign(new Error(`the database file ${path} was replaced by another file`), { errcode: -1 });
  };

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

  // A write that needs new pages, taken back at once: it fails as an enquiry would on a full or read-only disk.
  const probe = () => {
    inTransaction(() => {
      db.exec(
        "CREATE TABLE disk_probe (filler BLOB); INSERT INTO disk_probe VALUES (zeroblob(8192)); DROP TABLE disk_probe",
      );
    });
    return null;
  };

  // After an erase: the WAL's copies of the changed pages go into the database file (where secure_delete has zeroed
  // the rows) and the WAL is truncated to nothing. False when a reader still needs old frames (tried again later).
  const scrub = (erase: boolean) => {
    // A database written before secure_delete was on may hold deleted rows in free space: rebuilt once (user_version 1).
    if (erase && Number(db.prepare("PRAGMA user_version").get()?.user_version) === 0)
      db.exec("VACUUM; PRAGMA user_version = 1");
    const row = db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get();
    return Number(row?.busy) === 0;
  };

  /**
   * Bytes moved through the worker (an original photo, a clip's 1 MiB chunks) leave this thread's view of them, and
   * SQLite's copies in each statement that bound them, to V8's next full collection, which a worker with little else
   * to do may not run for many megabytes. One collection each time 4 MiB of bytes have been written or read since the
   * last (rare: uploads stored, originals read to be encoded, clips copied) gives that memory back at once.
   */
  const collectAfterBytes = 4 << 20;
  let bytesSinceCollection = 0;
  const bytesIn = (value: unknown): number => (value instanceof Uint8Array ? value.byteLength : 0);
  const paramBytes = (request: Request) =>
    (request.op === "query" ? [request.statement] : request.op === "transaction" ? request.statements : []).reduce(
      (sum, statement) => sum + (statement.params ?? []).reduce((inner: number, value) => inner + bytesIn(value), 0),
      0,
    );
  /** Bytes in the rows of a query, or of each statement of a transaction. */
  const resultBytes = (result: unknown): number =>
    Array.isArray(result)
      ? result.reduce(
          (sum: number, item) =>
            sum +
            (Array.isArray(item)
              ? resultBytes(item)
              : typeof item === "object" && item !== null
                ? Object.values(item).reduce((inner: number, value) => inner + bytesIn(value), 0)
                : 0),
          0,
        )
      : 0;
  let gc: (() => void) | undefined;
  const collectGarbage = () => {
    if (!gc) {
      process.getBuiltinModule("node:v8").setFlagsFromString("--expose-gc");
      gc = process.getBuiltinModule("node:vm").runInNewContext("gc") as () => void;
    }
    gc();
  };

  parentPort!.on("message", (request: Request) => {
    let result: unknown;
    try {
      checkFile();
      result =
        request.op === "probe"
          ? probe()
          : request.op === "scrub"
            ? scrub(request.erase)
            : request.op === "query"
              ? run(request.statement)
              : request.op === "transaction"
                ? inTransaction(() => request.statements.map(run))
                : migrate(request.migrations);
      parentPort!.postMessage({ id: request.id, result });
    } catch (error) {
      const { message, errcode } = error as { message: string; errcode?: number };
      parentPort!.postMessage({ id: request.id, error: { message, errcode } });
    }
    // Once this handler has returned, so that the request (and its bytes) are no longer reachable.
    bytesSinceCollection += paramBytes(request) + resultBytes(result);
    if (bytesSinceCollection >= collectAfterBytes) {
      bytesSinceCollection = 0;
      setImmediate(collectGarbage);
    }
  });
}
