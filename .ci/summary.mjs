// Ends a run of .ci/test.mjs with one line, "N passed, N failed, N skipped", over every stage that ran (its outcomes in
// test-results/stages.json) and exits 1 when anything failed. Counted as one failed test each, and named after the
// line's counts: a stage that failed without a failing test in its report (install, typecheck, lint, build, a test
// runner that crashed or whose servers did not start), a test file that failed outside its tests, and an outside part
// a stage that ran needs but this machine lacks (its tests would otherwise skip in silence). A test that passed only
// on a retry is a failed test.
import { readFileSync } from "node:fs";
import { parts, partsByStage } from "../tests/support/requirements.mjs";

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
const failedTests = [];
const skippedTests = [];
const notes = [];

/** vitest's JSON report (jest's format): per file, per test. */
function countVitest(report) {
  let failures = 0;
  for (const file of report.testResults ?? []) {
    const where = file.name.replace(`${process.cwd()}/`, "");
    let failedHere = 0;
    for (const test of file.assertionResults ?? []) {
      const name = `${where} › ${test.fullName ?? test.title}`;
      if (test.status === "passed") passed++;
      else if (test.status === "failed") {
        failed++;
        failedHere++;
        failedTests.push(name);
      } else {
        skipped++;
        skippedTests.push(name);
      }
    }
    // A file that failed with no failing test: it did not load, or a hook outside the tests failed.
    if (file.status === "failed" && failedHere === 0) {
      failed++;
      failedHere++;
      failedTests.push(`${where} (the file failed outside its tests: ${String(file.message ?? "").split("\n")[0]})`);
    }
    failures += failedHere;
  }
  return failures;
}

/** Playwright's JSON report: suites of specs, each spec one test per project. */
function countPlaywright(report) {
  let failures = 0;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const name = `${[...titles, spec.title].join(" › ")} [${test.projectName}]`;
        if (test.status === "expected") passed++;
        else if (test.status === "skipped") {
          skipped++;
          skippedTests.push(name);
        } else {
          // "unexpected", or "flaky": passed only on a retry.
          failed++;
          failures++;
          failedTests.push(test.status === "flaky" ? `${name} (passed only on a retry)` : name);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title].filter(Boolean));
  };
  for (const suite of report.suites ?? []) walk(suite, [suite.title]);
  for (const error of report.errors ?? []) {
    failed++;
    failures++;
    failedTests.push(`end-to-end run: ${String(error.message ?? "").split("\n")[0]}`);
  }
  return failures;
}

const stages = read("test-results/stages.json") ?? [];
if (stages.length === 0) {
  failed++;
  notes.push("no stage ran (test-results/stages.json missing)");
}
for (const stage of stages) {
  let failures = 0;
  if (stage.report) {
    const report = read(stage.report);
    if (report?.testResults) failures = countVitest(report);
    else if (report?.suites) failures = countPlaywright(report);
  }
  if (stage.status !== 0 && failures === 0) {
    failed++;
    notes.push(`stage ${stage.name} failed${stage.report ? " without a failing test in its report" : ""}`);
  }
  for (const key of partsByStage[stage.name] ?? []) {
    const part = parts[key];
    if (part.present()) continue;
    failed++;
    notes.push(`${part.label} missing (${stage.name}: ${part.why}; ${part.install})`);
  }
}

const list = (title, names) => {
  if (names.length === 0) return;
  console.log(`[summary] ${title} (${names.length}):`);
  for (const name of names.slice(0, 30)) console.log(`[summary]   ${name}`);
  if (names.length > 30) console.log(`[summary]   … and ${names.length - 30} more`);
};
console.log();
list("skipped", skippedTests);
list("failed", failedTests);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped${notes.length ? ` — ${notes.join("; ")}` : ""}`);
process.exit(failed > 0 ? 1 : 0);
