import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { LongestFirst } from "./tests/support/longest-first.mjs";

/**
 * Two projects (docs/development.md): `pure`, the tests next to the code (app/, server/) that need nothing but Node (the fast
 * tier, `npm run test:fast`), and `integration`, the tests that start the built server, PostgreSQL, SMTP and webhook
 * receivers or the W3C checker (tests/integration, and tests/deploy). `npx vitest run PATH` runs one file in either.
 */
export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    environment: "node",
    setupFiles: ["tests/support/log-format.ts"],
    // A test that passes only on a retry is a failing test: never retried.
    retry: 0,
    reporters: ["default", "json"],
    // The longest files first, so none is left to run alone at the end (tests/support/longest-first.mjs).
    sequence: { sequencer: LongestFirst },
    // npm run test:pure / test:integration name their own report (.ci/summary.mjs counts them).
    outputFile: { json: "test-results/vitest.json" },
    projects: [
      {
        extends: true,
        test: {
          name: "pure",
          include: ["app/**/*.test.ts", "server/**/*.test.ts"],
          // One process for many files instead of a fresh one per file: these tests hold no state beyond a test (a
          // spy or fake clock is restored after it), and the run takes 8 s instead of 30.
          isolate: false,
          testTimeout: 5_000,
          hookTimeout: 10_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts", "tests/deploy/**/*.test.ts"],
          // The site's builds and the run's one PostgreSQL cluster, made once before any file runs, so no hook waits
          // for them (tests/support/integration-setup.ts).
          globalSetup: ["tests/support/integration-setup.ts"],
          // Several files at once: their time goes mostly to waiting on the servers, CLIs and databases they start,
          // not to this process, so on 2 cores 3 workers finish well before 1. Ports are free ones asked of the
          // kernel and directories temporary, so files beside each other never share either.
          maxWorkers: 3,
          // Tests that start servers and CLIs: generous, so a loaded machine (2 cores, many processes) never fails
          // them on time alone; what they assert about time (e.g. exit within 10 s) is asserted explicitly.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // The servers and CLIs these tests start (their stdout a pipe, so JSON by default) print the human lines the
          // tests match; tests/integration/json-logs.test.ts asks for JSON itself.
          env: { LOG_FORMAT: "text" },
        },
      },
    ],
  },
});
