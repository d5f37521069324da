// How long each integration test file took in a run, for the order the next runs start them in
// (tests/support/longest-first.mjs): `node tests/support/file-durations.mjs` after `npm run test:integration` writes
// tests/support/file-durations.json from its report. Worth redoing when a file becomes much slower or faster; a file
// it does not list yet runs first, so a stale list only costs time, never a test.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const report = JSON.parse(readFileSync(resolve(root, process.argv[2] ?? "test-results/integration.json"), "utf8"));
const seconds = Object.fromEntries(
  report.testResults
    // Named from the checkout's root, wherever the run's checkout was.
    .map((file) => [
      file.name.slice(file.name.lastIndexOf("/tests/") + 1),
      Math.round((file.endTime - file.startTime) / 1000),
    ])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(join(root, "tests/support/file-durations.json"), `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`${Object.keys(seconds).length} files in tests/support/file-durations.json`);
