// Playwright's one webServer for the end-to-end run (playwright.config.ts): starts the fake upstream and every
// shared built server at once rather than one after another (a dozen cold starts on 2 cores), and answers on its own
// port once all of them answer /healthz. Playwright stops it with SIGTERM (gracefulShutdown in playwright.config.ts);
// it stops its servers, waits until every process of theirs has gone (`npm start` exits before its server does: each
// server has a process group of its own, waited for), and then removes the run's data folder (E2E_DATA_DIR).
// Playwright 1.64 runs globalTeardown while the webServer still runs, too early for that.
// Usage: E2E_DATA_DIR=DIR E2E_SERVERS='[{command, args, env, url, health}]' node tests/e2e/start-servers.mjs PORT
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

const readyPort = Number(process.argv[2]);
/** @type {Array<{ command: string; args: string[]; env: Record<string, string>; health: string }>} */
const servers = JSON.parse(process.env.E2E_SERVERS ?? "[]");
const dataDir = process.env.E2E_DATA_DIR;
const startWaitMs = 60_000;
const stopWaitMs = 10_000;

// A folder left for this block of ports by a run that was killed: its ports are free now, so no run uses it.
if (dataDir) {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  // Whose it is: the next run's setup removes the folder of a launcher that is gone (tests/e2e/setup.ts).
  writeFileSync(join(dataDir, "launcher.pid"), String(process.pid));
}
for (const server of servers) if (server.env.TMPDIR) mkdirSync(server.env.TMPDIR, { recursive: true });

const children = servers.map((server) => {
  // stdout ignored, stderr shown: the lines a person reads when a server complains.
  const child = spawn(server.command, server.args, {
    env: { ...process.env, ...server.env },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  child.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`[e2e servers] ${server.health} exited (${code ?? signal}) before the run ended`);
      void stop(1);
    }
  });
  return child;
});

/** Sends a signal to a server's process group (npm and the server it starts); false once none of it is left. */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}
// However this process ends, its servers do not outlive it.
process.on("exit", () => children.forEach((child) => signalGroup(child, "SIGKILL")));

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  children.forEach((child) => signalGroup(child, "SIGTERM"));
  // The servers close their databases on SIGTERM; one that hangs is killed rather than waited for.
  const deadline = Date.now() + stopWaitMs;
  // (A process nobody reaps stays a member: the wait has an end of its own.)
  while (children.some((child) => signalGroup(child, 0)) && Date.now() < deadline + 5_000) {
    if (Date.now() > deadline) children.forEach((child) => signalGroup(child, "SIGKILL"));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  process.exit(code);
}
process.on("SIGTERM", () => void stop(0));
process.on("SIGINT", () => void stop(0));

const answers = (url) =>
  fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
    (response) => response.ok,
    () => false,
  );

async function healthy(url) {
  const deadline = Date.now() + startWaitMs;
  while (Date.now() < deadline) {
    if (await answers(url)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${startWaitMs / 1000} s`);
}

try {
  await Promise.all(servers.map((server) => healthy(server.health)));
} catch (error) {
  console.error(`[e2e servers] ${error.message}`);
  await stop(1);
}
createServer((_request, response) => response.end("ready\n")).listen(readyPort, "127.0.0.1");
