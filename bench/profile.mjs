// Where does a request's time go? Starts the built site (remix-serve, NODE_ENV=production) under
// `node --cpu-prof`, loads one path with autocannon, stops the server so V8 writes the profile, and prints the top
// functions by self and total time (bench/profile-summary.mjs). Loopback only, bounded in time.
//
//   npm run bench:profile -- [--path /] [--duration 10] [--connections 50] [--skip-build] [--top 25]
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadPhase } from "./lib/load.mjs";
import { killAllChildren, stopChild } from "./lib/proc.mjs";
import { browserHeaders, build, resultsDir, root, startSite, startUpstream } from "./lib/servers.mjs";
import { formatSummary, summarise } from "./profile-summary.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at > -1 ? args[at + 1] : fallback;
};
const path = option("--path", "/");
const duration = Math.min(60, Number(option("--duration", 10)));
const connections = Math.min(200, Number(option("--connections", 50)));
const top = Number(option("--top", 25));

const fail = (error) => {
  console.error(`profile failed: ${error?.stack ?? error}`);
  killAllChildren();
  process.exit(1);
};
process.on("SIGINT", () => fail("interrupted"));
setTimeout(() => fail("time limit (3 min) reached"), 180_000).unref();

try {
  mkdirSync(resultsDir, { recursive: true });
  if (!args.includes("--skip-build")) await build(root, join(resultsDir, "build.log"));
  const dir = join(resultsDir, "profiles");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const upstream = await startUpstream();
  const site = await startSite({ label: "profile", apiHost: upstream.origin, cpuProfDir: dir });
  const result = await loadPhase({
    name: `GET ${path}`,
    url: new URL(path, site.origin).href,
    pid: site.pid,
    connections,
    durationS: duration,
    warmupS: 2,
    options: { headers: browserHeaders },
  });
  await stopChild(site.child, { graceMs: 15_000 });
  await stopChild(upstream.child);
  const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error("the server exited without writing a profile");
  const summary = summarise(JSON.parse(readFileSync(join(dir, file), "utf8")), { top });
  writeFileSync(join(dir, "summary.json"), `${JSON.stringify({ path, load: result, summary }, null, 2)}\n`);
  console.log(
    `GET ${path}: ${result.requestsPerSec.toFixed(0)} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, ` +
      `server CPU ${result.serverCpuMsPerRequest.toFixed(3)} ms/request (under the profiler, so slower than npm run bench)`,
  );
  console.log(formatSummary(summary));
  console.log(`\nprofile: ${join("bench", "results", "profiles", file)} (open in Chrome DevTools > Performance)`);
} catch (error) {
  fail(error);
}
