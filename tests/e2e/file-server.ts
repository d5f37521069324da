import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { expect, test } from "./fixtures";

/** A built server as tests/e2e/servers.ts describes one: its port, its address and its environment. */
export interface ServerDefinition {
  port: number;
  url: string;
  env: Record<string, string>;
}

/**
 * Starts the built server (`npm start`, as playwright.config.ts starts the shared ones) before this file's tests and
 * stops it after them, in the worker that runs them: a server only one file uses is not kept alive for the whole run,
 * and running that file alone starts it too. `pick` chooses by project (JavaScript on or off), so each project starts
 * only its own; the file must run its tests in one worker per project (serial mode, or a single test), as two workers
 * starting the same port would collide.
 */
export function serveDuringFile(pick: (jsEnabled: boolean) => ServerDefinition) {
  let server: ChildProcess | undefined;

  // Playwright reads the fixtures from the first parameter: this hook needs none.
  // eslint-disable-next-line no-empty-pattern
  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(60_000);
    const definition = pick(testInfo.project.use.javaScriptEnabled !== false);
    // Its TMPDIR is in the run's data folder (servers.ts), removed with it.
    if (definition.env.TMPDIR) mkdirSync(definition.env.TMPDIR, { recursive: true });
    // Its own process group, so that stopping it stops npm's node child too.
    server = spawn("npm", ["start"], {
      detached: true,
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        ...definition.env,
        HOST: "127.0.0.1",
        PORT: String(definition.port),
        NODE_ENV: "production",
        // The lines a person reads on the runner's stderr, as for the shared servers.
        LOG_FORMAT: "text",
      },
    });
    const started = server;
    // A worker that dies without its afterAll still takes the server with it.
    process.once("exit", () => stopGroup(started, "SIGKILL"));
    await expect
      .poll(
        () => {
          if (started.exitCode !== null)
            throw new Error(`the server on ${definition.url} exited (${started.exitCode})`);
          return fetch(`${definition.url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
            (response) => response.status,
            () => 0,
          );
        },
        { message: `${definition.url}/healthz answers`, timeout: 45_000 },
      )
      .toBe(200);
  });

  test.afterAll(async () => {
    const running = server;
    server = undefined;
    if (!running) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    stopGroup(running, "SIGTERM");
    // The server drains and closes its database on SIGTERM; a server that hangs is not left behind.
    const stopped = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
    if (!stopped) stopGroup(running, "SIGKILL");
  });
}

function stopGroup(server: ChildProcess, signal: NodeJS.Signals) {
  if (!server.pid || server.exitCode !== null || server.signalCode !== null) return;
  try {
    process.kill(-server.pid, signal);
  } catch {
    // Already gone.
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
