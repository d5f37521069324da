// The test stages behind `npm test` (all of them), `npm run test:fast` and `.ci/run` (install first, then the same
// stages npm test runs). Every stage runs even when an earlier one failed, so one failure never hides the rest; each
// stage's outcome goes to test-results/stages.json, and .ci/summary.mjs prints the one line that counts them all.
// Usage: node .ci/test.mjs [--install] [stage ...]   (no stage: all of them)
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { watchTempFolder } from "../tests/support/temp-leaks.mjs";

/**
 * In order; `report` is the JSON test report a stage writes, counted test by test in the summary. `lane`: the quick
 * stages each use about one core, so on a machine of two they run in two lanes side by side (lint beside typecheck,
 * build and pure, about half a minute sooner); the others use every core and run alone, after them.
 */
const stages = {
  install: { command: "npm ci --prefer-offline --no-audit --no-fund" },
  typecheck: { command: "npm run typecheck", lane: 1 },
  lint: { command: "npm run lint", lane: 2 },
  build: { command: "npm run build", lane: 1 },
  pure: { command: "npm run test:pure", report: "test-results/pure.json", lane: 1 },
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

// Whatever the stages leave in the system's temp folder is named at the end (tests/support/temp-leaks.mjs).
const leftInTemp = watchTempFolder("test");

rmSync("test-results", { recursive: true, force: true });
mkdirSync("test-results", { recursive: true });
const outcomes = {};
const record = () =>
  writeFileSync(
    "test-results/stages.json",
    JSON.stringify(
      wanted.filter((name) => name in outcomes).map((name) => outcomes[name]),
      null,
      2,
    ),
  );

/**
 * Runs one stage. Alone, its output goes straight to this terminal; in a lane beside another, it is kept and printed
 * in one piece when the stage ends, so two stages' lines never interleave.
 */
function run(name, { alone }) {
  const { command, report } = stages[name];
  const header = `\n[test] ── ${name}: ${command}`;
  if (alone) console.log(header);
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: alone ? "inherit" : ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.on("close", (code, signal) => {
      // Killed by a signal: no exit code, and that is a failure too.
      const status = code ?? 1;
      const seconds = Math.round((Date.now() - started) / 100) / 10;
      if (!alone) process.stdout.write(`${header}\n${Buffer.concat(output).toString()}`);
      console.log(`[test] ── ${name}: ${status === 0 ? "ok" : `failed (exit ${code ?? signal})`}, ${seconds} s`);
      outcomes[name] = { name, status, seconds, ...(report && { report }) };
      record();
      resolve();
    });
  });
}

/** Runs the named stages one after another. */
async function inOrder(names, options) {
  for (const name of names) await run(name, options);
}

let next = 0;
while (next < wanted.length) {
  // The run of lane stages starting here (if any) goes side by side; any other stage runs alone.
  let end = next;
  while (end < wanted.length && stages[wanted[end]].lane) end++;
  if (end === next) {
    await run(wanted[next], { alone: true });
    next++;
    continue;
  }
  const group = wanted.slice(next, end);
  const lanes = [...new Set(group.map((name) => stages[name].lane))];
  if (lanes.length === 1) await inOrder(group, { alone: true });
  else
    await Promise.all(
      lanes.map((lane) =>
        inOrder(
          group.filter((name) => stages[name].lane === lane),
          { alone: false },
        ),
      ),
    );
  next = end;
}

leftInTemp();

const summary = spawn(process.execPath, [".ci/summary.mjs"], { stdio: "inherit" });
summary.on("close", (code) => process.exit(code ?? 1));
