// The owner's photo uploads against the memory budget (issues 25 and 31): `npm run bench:uploads [-- --skip-build]`.
// Starts the built site as `npm start` does (its heap flags and malloc settings) on a SQLite inbox in a temp dir, adds
// an operator with `npm run inbox`, logs in, and runs three scenarios, each on a fresh server:
//   1. one ~25 MB camera JPEG;
//   2. four ~25 MB camera JPEGs posted at the same moment;
//   3. eight ~6.6 MB camera JPEGs posted at the same moment.
// The photos are high-entropy (fine grain at quality 95, tests/support/fixture-photos.mjs largeCameraJpeg), so they
// really are that large; the first four of each scenario are placed (three slides and About) and so also encoded.
// Prints, per scenario, the uploads' answers and times, how long the encoding took, and the peak RSS of the server
// and every process it started (VmHWM from /proc, summed over the process tree), against the 256 MiB budget.
// Writes bench/results/photo-uploads.json. Exit code 1 when a scenario is over the budget or an upload failed.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { largeCameraJpeg } from "../tests/support/fixture-photos.mjs";
import { killAllChildren, machineLoad, memory, sleep, stopChild } from "./lib/proc.mjs";
import { addOperator, ownerLogin, resultsDir, root, startSite } from "./lib/servers.mjs";

const skipBuild = process.argv.includes("--skip-build");
const hardLimit = setTimeout(() => {
  console.error("[uploads] hard limit reached (15 minutes): stopping");
  killAllChildren();
  process.exit(2);
}, 15 * 60_000);
hardLimit.unref();

const budget = 256 * 1024 * 1024;
const MiB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const MB = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const log = (line) => console.log(`[uploads] ${line}`);

if (!skipBuild) {
  const built = spawnSync("npm", ["run", "build"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}\n${built.stderr}`);
}

/** The photos, made once and kept in .cache (seeded, so the same bytes every run). */
mkdirSync(resultsDir, { recursive: true });
const fixtures = join(root, ".cache", "bench-upload-photos");
mkdirSync(fixtures, { recursive: true });
async function photo(kind, seed) {
  const file = join(fixtures, `${kind}-${seed}.jpg`);
  if (!existsSync(file)) {
    const size = kind === "25mb" ? { width: 6000, height: 4400 } : { width: 3100, height: 2200 };
    writeFileSync(file, await largeCameraJpeg({ ...size, seed }));
  }
  return { name: `${kind}-${seed}.jpg`, bytes: readFileSync(file) };
}

/** The server and every process it started (children, grandchildren), by PID. */
function processTree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    try {
      const children = readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, "utf8").trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
/** Peak RSS of the tree: the server's VmHWM plus the largest VmHWM seen of each process it started. */
function treeMemory(pid, childPeaks) {
  let rss = 0;
  for (const child of processTree(pid)) {
    try {
      const m = memory(child);
      rss += m.rss;
      if (child !== pid) childPeaks.set(child, Math.max(childPeaks.get(child) ?? 0, m.hwm));
    } catch {
      // gone meanwhile: its last sampled peak is kept
    }
  }
  return rss;
}

const password = "a coffin full of moonlit bats";
const places = ["slide-1", "slide-2", "slide-3", "about"];

/** One scenario in a folder of its own, removed after it however it ends. */
async function scenario(name, files) {
  const data = mkdtempSync(join(tmpdir(), "haunt-bench-uploads-"));
  try {
    return await scenarioIn(data, name, files);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}

async function scenarioIn(data, name, files) {
  const databaseFile = join(data, "inbox.db");
  const env = {
    API_HOST: "",
    DATABASE_URL: `file:${databaseFile}`,
    INBOX_FILE: join(data, "v1.jsonl"),
    INBOX_REQUIRE_2FA: "off",
  };
  addOperator({ env, email: "owner@bench.example", password });
  const site = await startSite({ label: `uploads-${name.replace(/\W+/g, "-")}`, env });
  const origin = site.origin;
  try {
    const cookie = await ownerLogin(origin, { email: "owner@bench.example", password, next: "/inbox/site/photos" });
    await (await fetch(`${origin}/`)).arrayBuffer();
    const idle = memory(site.pid);

    const ready = () => {
      const db = new DatabaseSync(databaseFile, { readOnly: true });
      try {
        return Number(
          db.prepare("SELECT COUNT(*) AS n FROM photo_renditions WHERE state IN ('ready', 'failed')").get().n,
        );
      } finally {
        db.close();
      }
    };
    const upload = async (file, index) => {
      const started = performance.now();
      const form = new FormData();
      form.set("alt", `Bench photo ${index + 1}`);
      form.set("place", places[index] ?? "none");
      form.set("photo", new Blob([file.bytes], { type: "image/jpeg" }), file.name);
      const response = await fetch(`${origin}/inbox/site/photos`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: origin, Cookie: cookie },
        body: form,
      });
      await response.arrayBuffer();
      return {
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        ms: Math.round(performance.now() - started),
      };
    };

    const childPeaks = new Map();
    let sampledPeak = 0;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, treeMemory(site.pid, childPeaks))), 100);
    const started = performance.now();
    const uploads = await Promise.all(files.map(upload));
    const answeredMs = Math.round(performance.now() - started);
    const afterUploads = memory(site.pid).hwm;
    const placed = uploads.filter((u, i) => u.status === 303 && i < places.length).length;
    let encodedMs = NaN;
    for (let waited = 0; waited < 400_000; waited += 500) {
      if (ready() >= placed) {
        encodedMs = Math.round(performance.now() - started);
        break;
      }
      await sleep(500);
    }
    clearInterval(sampler);
    treeMemory(site.pid, childPeaks);
    const serverPeak = memory(site.pid).hwm;
    const childrenPeak = [...childPeaks.values()].reduce((a, b) => a + b, 0);
    const peak = serverPeak + childrenPeak;
    const result = {
      name,
      files: files.map((f) => ({ name: f.name, bytes: f.bytes.length })),
      uploads,
      answeredMs,
      encodedMs,
      renditions: placed,
      idleHwmBytes: idle.hwm,
      afterUploadsHwmBytes: afterUploads,
      serverPeakBytes: serverPeak,
      childProcesses: childPeaks.size,
      childrenPeakBytes: childrenPeak,
      peakBytes: peak,
      sampledTreePeakBytes: sampledPeak,
      withinBudget: peak <= budget,
    };
    const statuses = uploads.map((u) => u.status + (u.retryAfter ? ` (Retry-After ${u.retryAfter})` : "")).join(", ");
    log(
      `${name} (${files.map((f) => MB(f.bytes.length)).join(", ")}): answered ${statuses}, ` +
        `the last after ${(answeredMs / 1000).toFixed(1)} s; ${placed} placed encoded ${(encodedMs / 1000).toFixed(1)} s after the posts`,
    );
    log(
      `${name}: peak RSS ${MiB(peak)} (server ${MiB(serverPeak)}, ${MiB(afterUploads)} by the last answer; ` +
        `${childPeaks.size} child processes ${MiB(childrenPeak)}; idle ${MiB(idle.hwm)}): ${result.withinBudget ? "within" : "OVER"} the 256 MiB budget`,
    );
    return result;
  } finally {
    await stopChild(site.child);
  }
}

log("making the photos (high-entropy camera JPEGs, kept in .cache/bench-upload-photos)");
const large = await Promise.all([1, 2, 3, 4].map((seed) => photo("25mb", seed)));
const medium = await Promise.all([11, 12, 13, 14, 15, 16, 17, 18].map((seed) => photo("6.6mb", seed)));
const results = [];
results.push(await scenario("one 25 MB upload", large.slice(0, 1)));
results.push(await scenario("four 25 MB uploads at once", large));
results.push(await scenario("eight 6.6 MB uploads at once", medium));
writeFileSync(
  join(resultsDir, "photo-uploads.json"),
  `${JSON.stringify({ at: new Date().toISOString(), machineLoad: machineLoad(), budgetBytes: budget, results }, null, 2)}\n`,
);
console.log(
  [
    "",
    ...results.map(
      (r) =>
        `${r.name.padEnd(30)} peak RSS ${MiB(r.peakBytes).padStart(10)} (${r.withinBudget ? "OK" : "OVER"}), answers ${r.uploads.map((u) => u.status).join(" ")}, all answered ${(r.answeredMs / 1000).toFixed(1)} s, encoded ${(r.encodedMs / 1000).toFixed(1)} s`,
    ),
    `machine load average at the end: ${machineLoad()}`,
    `JSON: ${join("bench", "results", "photo-uploads.json")}`,
  ].join("\n"),
);
clearTimeout(hardLimit);
process.exitCode = results.every((r) => r.withinBudget && r.uploads.every((u) => u.status === 303)) ? 0 : 1;
