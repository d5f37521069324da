import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compileCacheEnv } from "./compile-cache.mjs";
import { freePort } from "./free-port.mjs";
import { parseDatabaseUrl } from "../../app/config.server";
import { openInboxStore } from "../../app/store/store.server";
import type { ListedEnquiry } from "../../app/store/records";

/**
 * Starts the REAL built site (`node build/server/index.js`, as `npm start` runs it) as a child process for tests that talk to it over plain
 * HTTP, captures everything it prints, and stops it again. Shared by the robustness tests and any other test that
 * needs the production server.
 */

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const serverEntry = join(projectRoot, "build/server/index.js");
const serverBuild = join(projectRoot, "build/server/index.js");

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when the build is missing or older than the sources it is built from. */
function buildIsStale(): boolean {
  if (!existsSync(serverBuild)) return true;
  const sources = [
    "app",
    "server",
    "scripts/build-server.mjs",
    "remix.config.js",
    "tailwind.config.ts",
    "package-lock.json",
  ].map((p) => join(projectRoot, p));
  const newestSource = Math.max(...sources.filter((p) => existsSync(p)).map(newestMtime));
  return newestSource > statSync(serverBuild).mtimeMs;
}

/**
 * Runs `npm run build` when the server build is missing or stale, so the tests never exercise yesterday's code.
 * A lock directory keeps parallel test files from building at the same time.
 */
export async function ensureBuilt(): Promise<void> {
  if (!buildIsStale()) return;
  const lock = join(projectRoot, ".cache", "test-build.lock");
  mkdirSync(dirname(lock), { recursive: true });
  const deadline = Date.now() + 110_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Someone else is building; a lock older than the deadline is from a crashed run.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 110_000)
        rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for the build lock ${lock}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (!buildIsStale()) return;
    // Vitest sets NODE_ENV=test; a build made with it renders nothing but 500s (jsxDEV) under NODE_ENV=production.
    const env = childEnv({});
    delete env.HOST;
    const result = spawnSync("npm", ["run", "build"], { cwd: projectRoot, env, encoding: "utf8", timeout: 100_000 });
    if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}\n${result.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The site's own environment variables: never inherited from whoever runs the tests. */
const siteVariables = [
  "PORT",
  "HOST",
  "API_HOST",
  "API_TIMEOUT_MS",
  "DATABASE_URL",
  "STORE_TIMEOUT_MS",
  "INBOX_FILE",
  "SMTP_URL",
  "NOTIFY_EMAIL_TO",
  "NOTIFY_EMAIL_FROM",
  "NOTIFY_WEBHOOK_URL",
  "NOTIFY_WEBHOOK_FORMAT",
  "DKIM_DOMAIN",
  "DKIM_SELECTOR",
  "DKIM_PRIVATE_KEY_FILE",
  "DKIM_PRIVATE_KEY",
  "NODE_ENV",
  "PUBLIC_URL",
  "TRUST_PROXY",
  "RATE_LIMIT_SITE_PER_MINUTE",
  "RATE_LIMIT_CLIENT_PER_HOUR",
  "RATE_LIMIT_LOGIN_PER_MINUTE",
  "INBOX_REQUIRE_2FA",
  "SPAM_FILTER",
  "RETENTION_DAYS",
  "SPAM_RETENTION_DAYS",
  "SPAM_DIGEST_HOUR",
  "REMINDER_HOUR",
  "SITE_TIMEZONE",
  "LOG_FORMAT",
  "METRICS_PORT",
  "METRICS_HOST",
  "BACKUP_INTERVAL",
  "BACKUP_DIR",
  "BACKUP_KEEP_HOURLY",
  "BACKUP_KEEP_DAILY",
  "BACKUP_KEY",
];

/**
 * The rate limits off: tests post many enquiries on purpose. startSite uses this unless a test sets the variables
 * (the rate-limit tests do).
 */
export const noRateLimits = {
  RATE_LIMIT_SITE_PER_MINUTE: "0",
  RATE_LIMIT_CLIENT_PER_HOUR: "0",
  RATE_LIMIT_LOGIN_PER_MINUTE: "0",
};

/**
 * The spam filter off: these tests post at once, without loading the form (no token, or one younger than 3 s), and
 * are about something else. startSite uses this unless a test sets SPAM_FILTER (the spam tests set it on).
 */
export const spamFilterOff = { SPAM_FILTER: "off" };

/**
 * The daily spam digest off: it would add an e-mail and a webhook post to the sinks of tests about other things once
 * the day's hour has come. startSite uses this unless a test sets SPAM_DIGEST_HOUR (tests/integration/spam-digest.test.ts).
 */
export const spamDigestOff = { SPAM_DIGEST_HOUR: "off" };

/**
 * The second factor not required: tests about other parts of the owner area log in with the password alone. startSite
 * uses this unless a test sets INBOX_REQUIRE_2FA (the second factor's own tests leave it at its default, on).
 */
export const secondFactorOff = { INBOX_REQUIRE_2FA: "off" };

/**
 * The server's own backups off: they would add a backups/ directory beside the database of tests about other things
 * (some read every file there). startSite uses this unless a test sets BACKUP_INTERVAL (tests/integration/backups.test.ts).
 */
export const backupsOff = { BACKUP_INTERVAL: "off" };

function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of siteVariables) delete base[name];
  for (const name of Object.keys(base)) if (name.startsWith("VITEST")) delete base[name];
  // The human lines the tests match (a piped stdout would make JSON the default); a test of the JSON logs sets json.
  return { ...base, NODE_ENV: "production", HOST: "127.0.0.1", LOG_FORMAT: "text", ...env };
}

/** Servers still running: killed if the test process exits without stopping them (a crash, a timeout). */
const running = new Map<ChildProcess, () => void>();
process.once("exit", () => {
  for (const killHard of running.values()) {
    try {
      killHard();
    } catch {
      // already gone
    }
  }
});

/** Collects a child's stdout and stderr, in arrival order, as one text (and its stdout alone). */
function capture(child: ChildProcess) {
  let text = "";
  let stdout = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    text += chunk;
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  return Object.assign(() => text, { stdout: () => stdout });
}

export interface SiteServer {
  url: string;
  port: number;
  /** The spawned process's id (the server itself unless started through npm or in a PID namespace). */
  pid: number;
  /** This server's embedded inbox: DATABASE_URL (a fresh SQLite file in a temp dir unless given). */
  databaseUrl: string;
  /** Where it looks for a v1 JSON-lines inbox to import at start (INBOX_FILE; none there unless the test puts one). */
  inboxFile: string;
  /** What the embedded inbox holds now, newest first (read through the app's own store, as `npm run inbox` does). */
  stored(): Promise<ListedEnquiry[]>;
  /** Everything the server printed on stdout and stderr so far. */
  output(): string;
  /** What it printed on stdout alone (with LOG_FORMAT=json: every log line). */
  stdout(): string;
  /** The structured JSON log lines with the given event (e.g. "enquiry") printed so far. */
  logEvents(event: string): Record<string, unknown>[];
  /** SIGTERM, then SIGKILL if it has not exited within two seconds; resolves when it has gone. */
  stop(): Promise<void>;
  /** Sends a signal to the server process itself (inside a PID namespace: to its PID 1, as docker stop does). */
  signal(signal: NodeJS.Signals): void;
  /** Resolves with the exit code once the server has gone. */
  exited: Promise<number | null>;
  /** Sends one signal and nothing else (SIGKILL: a crash; SIGTERM: a shutdown left to itself); resolves when it has gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** The PID (as seen from here) of the process `unshare --fork` started: PID 1 of the new namespace. */
function namespaceInit(unsharePid: number): number {
  const children = readFileSync(`/proc/${unsharePid}/task/${unsharePid}/children`, "utf8").trim();
  if (!children) throw new Error("unshare has not started its child yet");
  return Number(children.split(/\s+/)[0]);
}

/** Polls until `check` returns true; throws with `what` after timeoutMs. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Starts the built site with the given environment (PORT and HOST chosen here unless given) and resolves once
 * GET /healthz answers 200. Rejects with the server's output if it exits or is not up within startTimeoutMs.
 */
export async function startSite(
  env: Record<string, string> = {},
  {
    startTimeoutMs = 30_000,
    /** Another copy of the app (e.g. a reproduced deployment), started with `npm start` as the container does. */
    appDir,
    /**
     * Runs the production start command as PID 1 of a new PID namespace (`unshare --pid --fork --mount-proc`, needs
     * CAP_SYS_ADMIN: see pidNamespacePermitted in requirements.mjs): a container without Docker. When PID 1 exits, the kernel kills everything else in the namespace.
     */
    pidNamespace = false,
    /** The working directory to start the built server in (default: the checkout): it must not matter. */
    cwd,
  }: { startTimeoutMs?: number; appDir?: string; pidNamespace?: boolean; cwd?: string } = {},
): Promise<SiteServer> {
  if (!appDir) await ensureBuilt();
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // Every server has a folder of its own, removed once it has gone however it ended (SIGKILL too): its database and
  // inbox file unless given, and its TMPDIR, where it puts uploads being received, clips being encoded and (unless
  // MEDIA_CACHE_DIR is given) its media cache, which a killed server leaves behind.
  const ownDir = mkdtempSync(join(tmpdir(), "haunt-site-"));
  const serverTmp = env.TMPDIR ?? join(ownDir, "tmp");
  mkdirSync(serverTmp, { recursive: true });
  const databaseUrl = env.DATABASE_URL ?? `file:${join(ownDir, "enquiries.db")}`;
  const inboxFile = env.INBOX_FILE ?? join(ownDir, "enquiries.jsonl");
  const [command, args] = appDir
    ? ["npm", ["start"]]
    : pidNamespace
      ? ["unshare", ["--pid", "--fork", "--mount-proc", process.execPath, serverEntry]]
      : [process.execPath, [serverEntry]];
  const child = spawn(command, args, {
    cwd: appDir ?? cwd ?? projectRoot,
    env: childEnv({
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      INBOX_FILE: inboxFile,
      ...noRateLimits,
      ...spamFilterOff,
      ...spamDigestOff,
      ...secondFactorOff,
      ...backupsOff,
      TMPDIR: serverTmp,
      ...compileCacheEnv,
      ...env,
    }),
    stdio: ["ignore", "pipe", "pipe"],
    // npm start runs the server as a grandchild: a process group lets stop() reach it too.
    detached: Boolean(appDir),
  });
  // In a PID namespace the server is unshare's child: killing unshare alone would leave it running.
  running.set(child, () => {
    kill("SIGKILL");
    rmSync(ownDir, { recursive: true, force: true });
  });
  const output = capture(child);
  // "close" comes after "exit" once stdout and stderr are drained, so output() is then complete.
  const exited = new Promise<number | null>((r) => child.once("close", (code) => r(code)));
  let gone = false;
  void exited.then(() => {
    gone = true;
    running.delete(child);
    rmSync(ownDir, { recursive: true, force: true });
  });

  const url = `http://127.0.0.1:${port}`;
  const kill = (signal: NodeJS.Signals) => {
    if (appDir && child.pid) process.kill(-child.pid, signal);
    else if (pidNamespace && child.pid) {
      // The server is unshare's child; unshare only waits for it and exits with its status.
      try {
        process.kill(namespaceInit(child.pid), signal);
      } catch {
        child.kill(signal);
      }
    } else child.kill(signal);
  };
  const stop = async () => {
    if (gone) return;
    kill("SIGTERM");
    const timer = setTimeout(() => kill("SIGKILL"), 2_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await waitFor(
      async () => {
        if (gone) throw new Error(`the site exited before it was up:\n${output()}`);
        try {
          const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) });
          await response.body?.cancel();
          return response.status === 200;
        } catch {
          return false;
        }
      },
      `${url}/healthz`,
      startTimeoutMs,
    );
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output()}`);
  }

  return {
    url,
    port,
    pid: child.pid!,
    databaseUrl,
    inboxFile,
    stored: () => readInbox(databaseUrl),
    output,
    stdout: output.stdout,
    logEvents(event) {
      return output()
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as Record<string, unknown>];
          } catch {
            return [];
          }
        })
        .filter((entry) => entry.event === event);
    },
    stop,
    signal: kill,
    exited,
    async kill(signal) {
      if (gone) return;
      kill(signal);
      await exited;
    },
  };
}

/** Everything in the inbox at `databaseUrl`, newest first, read through the app's own store. */
export async function readInbox(databaseUrl: string): Promise<ListedEnquiry[]> {
  const location = parseDatabaseUrl(databaseUrl);
  if (!location) throw new Error(`not a DATABASE_URL: ${databaseUrl}`);
  const store = await openInboxStore(location, { timeoutMs: 10_000 });
  try {
    const items: ListedEnquiry[] = [];
    for await (const item of store.list()) items.push(item);
    return items;
  } finally {
    await store.close();
  }
}

/** Runs the built site with an environment it must refuse; resolves with its exit code and output. */
export async function runSiteExpectingExit(
  env: Record<string, string>,
  {
    timeoutMs = 20_000,
    cwd = projectRoot,
    entry = serverEntry,
  }: { timeoutMs?: number; cwd?: string; /** Another copy of build/server/index.js. */ entry?: string } = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }> {
  await ensureBuilt();
  // Its TMPDIR its own, removed once it has exited (startSite's reason).
  const ownTmp = mkdtempSync(join(tmpdir(), "haunt-site-"));
  const child = spawn(process.execPath, [entry], {
    cwd,
    env: childEnv({ PORT: String(await freePort()), TMPDIR: ownTmp, ...compileCacheEnv, ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = capture(child);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) =>
    child.once("close", (c, s) => r([c, s])),
  );
  clearTimeout(timer);
  rmSync(ownTmp, { recursive: true, force: true });
  return { code, signal, output: output() };
}
