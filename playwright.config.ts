import { defineConfig } from "@playwright/test";
import { chromiumPath } from "./tests/support/requirements.mjs";
import { e2eDataDir, e2eServers } from "./tests/e2e/servers";

/**
 * End-to-end tests against the real built server (`npm run build` first) and a fake upstream API on 127.0.0.1.
 * Two projects: JavaScript on and JavaScript off. Playwright's own browser download is unreachable here, so Debian's
 * headless Chromium is used when present (tests/support/requirements.mjs; CHROMIUM_PATH overrides; without either,
 * Playwright's bundled browser is used).
 */

export default defineConfig({
  testDir: "./tests/e2e",
  globalSetup: "./tests/e2e/setup.ts",
  // Its own folder: Playwright empties outputDir at start, and test-results/ also holds vitest's report.
  outputDir: "test-results/e2e-artifacts",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0, // a test that passes only on a retry is a failing test: fix it, never hide it
  // Three: a test waits on timers and servers part of its time (the contact form's 3-second minimum, a login's hash),
  // and a third browser fills it; on 2 cores about 6 % sooner.
  workers: 3,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [[process.env.CI ? "line" : "list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL: e2eServers.site.url,
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromiumPath(),
      // No GPU here: pages are drawn by the CPU, so software compositing without the GPU process's emulated
      // rasterizer (SwiftShader), which makes the end-to-end run about a fifth quicker on 2 cores.
      args: [
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-gpu",
        "--disable-software-rasterizer",
        "--disable-gpu-compositing",
      ],
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  // The fake upstream and the servers several files use, started together by one launcher (tests/e2e/start-servers.mjs)
  // and alive for the whole run; a server only one file uses is started by that file (tests/e2e/file-server.ts).
  webServer: {
    command: `node tests/e2e/start-servers.mjs ${e2eServers.launcherPort}`,
    url: `http://127.0.0.1:${e2eServers.launcherPort}/`,
    env: {
      E2E_DATA_DIR: e2eDataDir,
      E2E_SERVERS: JSON.stringify([
        {
          command: process.execPath,
          args: ["tests/support/fake-upstream.mjs", "--port", String(e2eServers.upstream.port)],
          env: {},
          health: `${e2eServers.upstream.url}/__control/count`,
        },
        ...[
          e2eServers.site,
          e2eServers.embedded,
          e2eServers.stuck,
          e2eServers.refused,
          e2eServers.owner,
          e2eServers.ownerAtDefault,
          e2eServers.spam,
          e2eServers.securitySessions,
          e2eServers.passkeys,
        ].map((server) => ({
          command: "npm",
          args: ["start"],
          // LOG_FORMAT=text: stderr is shown to whoever runs the tests, in the lines a person reads.
          env: {
            ...server.env,
            HOST: "127.0.0.1",
            PORT: String(server.port),
            NODE_ENV: "production",
            LOG_FORMAT: "text",
          },
          health: `${server.url}/healthz`,
        })),
      ]),
    },
    reuseExistingServer: false,
    timeout: 90_000,
    // SIGTERM, not Playwright's default SIGKILL: the launcher stops its servers and then removes the run's data folder.
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    stdout: "ignore",
    stderr: "pipe",
  },
});
