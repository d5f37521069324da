import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./free-port.mjs";
import { postgresBinDir } from "./requirements.mjs";

/**
 * PostgreSQL for tests. Most take a database of their own in the run's one cluster (shared-postgres.ts: CREATE DATABASE is
 * fast, initdb is not); a test that stops or restarts the database server starts a cluster of its own (startPostgres),
 * so the files running beside it keep theirs.
 *
 * A throwaway PostgreSQL cluster for tests: initdb in a temp dir, listening on 127.0.0.1 on a free port (its socket in
 * the same dir), trust auth for the local test user, removed by stop(). The server refuses to run as root, so as root
 * it runs as Debian's `postgres` user (runuser). Needs Debian's postgresql package (.ci/run installs it).
 */

/** Fresh databases in a cluster; stop() drops them (or, for a cluster of the test's own, removes it). */
export interface TestDatabases {
  /** postgres://… of a fresh database made for the caller. */
  createDatabase(name?: string): Promise<string>;
  stop(): void | Promise<void>;
}

export interface TestPostgres extends TestDatabases {
  port: number;
  /** Fast shutdown and start again on the same port and data (a database restart under a running site). */
  restart(): void;
  stopServer(): void;
  startServer(): void;
  stop(): void;
}

/** A database name no other test file's will match, in this run or one beside it. */
export const databaseName = (() => {
  let counter = 0;
  return () => `test_${process.pid}_${randomBytes(3).toString("hex")}_${++counter}`;
})();

export async function asAdmin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function binDir(): string {
  const dir = postgresBinDir();
  if (!dir) throw new Error("PostgreSQL is not installed (apt-get install postgresql)");
  return dir;
}

/**
 * False skips the PostgreSQL tests, but the run still fails: .ci/summary.mjs names PostgreSQL as missing (the same
 * check, tests/support/requirements.mjs), so a green run has always tested both stores.
 */
export const postgresAvailable = postgresBinDir() !== undefined;

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "haunt-pg-"));
  const data = join(dir, "data");
  if (root) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const run = (tool: string, args: string[]) => {
    const [command, argv] = root
      ? ["runuser", ["-u", "postgres", "--", join(bin, tool), ...args]]
      : [join(bin, tool), args];
    // Generous: the run's one cluster is made in the global setup, which has no time limit, and initdb on a loaded
    // 2-core machine has taken over a minute.
    const result = spawnSync(command, argv, { encoding: "utf8", timeout: 180_000 });
    if (result.status !== 0) throw new Error(`${tool} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  };
  // A cluster that did not start leaves nothing behind either.
  const discard = (error: unknown) => {
    try {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "-t", "30", "stop"]);
    } catch {
      // not running
    }
    rmSync(dir, { recursive: true, force: true });
    return error;
  };
  try {
    run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  } catch (error) {
    throw discard(error);
  }
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off -c max_connections=100`;
  const startServer = () =>
    run("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "30", "start"]);
  const stopServer = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
  try {
    startServer();
  } catch (error) {
    throw discard(error);
  }
  let stopped = false;
  const admin = `postgres://postgres@127.0.0.1:${port}/postgres`;

  return {
    port,
    async createDatabase(name = databaseName()) {
      await asAdmin(admin, `CREATE DATABASE ${name}`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    restart() {
      stopServer();
      startServer();
    },
    stopServer,
    startServer,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "-t", "30", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
