// The test stages behind `npm test` (all of them), `npm run test:fast` and `.ci/run` (install first, then the same
// stages npm test runs). Every stage runs even when an earlier one failed, so one failure never hides the rest; each
// stage's outcome goes to test-results/stages.json, and .ci/summary.mjs prints the one line that counts them all.
// Usage: node .ci/test.mjs [--install] [stage ...]   (no stage: all of them)
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";

/** In order; `report` is the JSON test report a stage writes, counted test by test in the summary. */
const stages = {
  install: { command: "npm ci --prefer-offline --no-audit --no-fund" },
  typecheck: { command: "npm run typecheck" },
  lint: { command: "npm run lint" },
  build: { command: "npm run build" },
  pure: { command: "npm run test:pure", report: "test-results/pure.json" },
  integration: { command: "npm run test:integration", report: "test-results/integration.json" },
  e2e: { command: "npm run test:e2e", report: "test-results/e2e.json" },
};
const all = ["typecheck", "lint", "build", "pure", "integration", "e2e"];

const args = process.argv.slice(2);
const named = args.filter((arg) => !arg.startsWith("--"));
const wanted = [...(args.includes("--install") ? ["install"] : []), ...(named.length ? named : all)];
const unknown = wanted.filter((name) => !(name in stages));
if (unknown.length) {
  console.error(`[test] unknown stage(s): ${unknown.join(", ")}; known: ${Object.keys(stages).join(", ")}`);
  process.exit(2);
}

rmSync("test-results", { recursive: true, force: true });
mkdirSync("test-results", { recursive: true });
const outcomes = [];
for (const name of wanted) {
  const { command, report } = stages[name];
  console.log(`\n[test] ── ${name}: ${command}`);
  const started = Date.now();
  const result = spawnSync(command, { shell: true, stdio: "inherit" });
  // Killed by a signal: status is null, and that is a failure too.
  const status = result.status ?? 1;
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  console.log(
    `[test] ── ${name}: ${status === 0 ? "ok" : `failed (exit ${result.status ?? result.signal})`}, ${seconds} s`,
  );
  outcomes.push({ name, status, seconds, ...(report && { report }) });
  writeFileSync("test-results/stages.json", JSON.stringify(outcomes, null, 2));
}

const summary = spawnSync(process.execPath, [".ci/summary.mjs"], { stdio: "inherit" });
process.exit(summary.status ?? 1);
