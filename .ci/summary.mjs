// Prints "N passed, N failed" over the unit (vitest) and end-to-end (Playwright) JSON reports. A step that failed
// without a test report of its own (install, typecheck, lint, build) counts as one failed test.
import { readFileSync } from "node:fs";

const exitStatus = Number(process.argv[2] ?? 0);
const read = (file) => {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
};

let passed = 0;
let failed = 0;
let skipped = 0;

const unit = read("test-results/unit.json");
if (unit) {
  passed += unit.numPassedTests ?? 0;
  failed += unit.numFailedTests ?? 0;
  skipped += (unit.numPendingTests ?? 0) + (unit.numTodoTests ?? 0);
}
const e2e = read("test-results/e2e.json");
if (e2e?.stats) {
  // "flaky" means passed only on a retry: that is a failure (Playwright runs without retries, so it stays 0).
  passed += e2e.stats.expected ?? 0;
  failed += (e2e.stats.unexpected ?? 0) + (e2e.stats.flaky ?? 0);
  skipped += e2e.stats.skipped ?? 0;
  if (e2e.stats.flaky) console.log(`[ci] ${e2e.stats.flaky} end-to-end test(s) passed only on retry`);
}
if (exitStatus !== 0 && failed === 0) failed = 1;

console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
