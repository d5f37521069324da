// Playwright's one webServer for the end-to-end run (playwright.config.ts): starts the fake upstream and every
// shared built server at once rather than one after another (a dozen cold starts on 2 cores), and answers on its own
// port once all of them answer /healthz. Playwright stops it by its process group, which takes the servers with it.
// Usage: E2E_SERVERS='[{command, args, env, url, health}]' node tests/e2e/start-servers.mjs PORT
import { spawn } from "node:child_process";
import { createServer } from "node:http";

const readyPort = Number(process.argv[2]);
/** @type {Array<{ command: string; args: string[]; env: Record<string, string>; health: string }>} */
const servers = JSON.parse(process.env.E2E_SERVERS ?? "[]");
const startWaitMs = 60_000;

const children = servers.map((server) => {
  // stdout ignored, stderr shown: the lines a person reads when a server complains.
  const child = spawn(server.command, server.args, {
    env: { ...process.env, ...server.env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  child.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`[e2e servers] ${server.health} exited (${code ?? signal}) before the run ended`);
      stop(1);
    }
  });
  return child;
});

let stopping = false;
function stop(code) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  process.exit(code);
}
process.on("SIGTERM", () => stop(0));
process.on("SIGINT", () => stop(0));

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
  stop(1);
}
createServer((_request, response) => response.end("ready\n")).listen(readyPort, "127.0.0.1");
