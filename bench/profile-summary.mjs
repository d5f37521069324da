// Reads a V8 .cpuprofile (from `node --cpu-prof`, e.g. `npm run bench:profile`) and prints where the time
// went: top functions by self time and by total (inclusive) time, and self time grouped by package.
//
//   node bench/profile-summary.mjs <file.cpuprofile> [--top 25] [--json]
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const idleNames = new Set(["(idle)", "(program)", "(garbage collector)", "(root)"]);

function where(url) {
  if (!url) return "";
  if (url.startsWith("node:")) return url;
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "/node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (/\/build\/index\.js/.test(url)) return "app (build/index.js)";
  return url.replace(/^file:\/\//, "");
}

/** Group name for the package table: a package, node internals, the app's server build, or V8's own buckets. */
function group(node) {
  const { functionName, url } = node.callFrame;
  if (idleNames.has(functionName) || functionName === "(garbage collector)") return functionName;
  if (!url) return "(native/V8)";
  if (url.startsWith("node:")) return "node: internals";
  return where(url);
}

export function summarise(profile, { top = 25 } = {}) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  // Self time per node: each sample's node gets the time until the next sample.
  const self = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    const delta = timeDeltas[i + 1] ?? 0;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + delta);
  }

  const key = (node) => {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const name = functionName || "(anonymous)";
    return url ? `${name}  ${where(url)}:${lineNumber + 1}:${columnNumber + 1}` : name;
  };

  let totalUs = 0;
  let busyUs = 0;
  const selfByFunction = new Map();
  const totalByFunction = new Map();
  const selfByGroup = new Map();
  for (const [id, us] of self) {
    const node = nodes.get(id);
    totalUs += us;
    const name = node.callFrame.functionName;
    if (name === "(idle)") continue;
    busyUs += us;
    selfByFunction.set(key(node), (selfByFunction.get(key(node)) ?? 0) + us);
    selfByGroup.set(group(node), (selfByGroup.get(group(node)) ?? 0) + us);
    // Inclusive time: every distinct function on this stack (recursion counted once).
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const ancestor = nodes.get(at);
      if (idleNames.has(ancestor.callFrame.functionName)) continue;
      const k = key(ancestor);
      if (seen.has(k)) continue;
      seen.add(k);
      totalByFunction.set(k, (totalByFunction.get(k) ?? 0) + us);
    }
  }
  const ranked = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, percentOfBusy: (100 * us) / busyUs }));
  return {
    profiledMs: totalUs / 1000,
    busyMs: busyUs / 1000,
    selfByFunction: ranked(selfByFunction),
    totalByFunction: ranked(totalByFunction),
    selfByGroup: ranked(selfByGroup),
  };
}

export function formatSummary(summary) {
  const lines = [];
  const section = (title, rows) => {
    lines.push("", title);
    for (const row of rows)
      lines.push(`${row.ms.toFixed(0).padStart(8)} ms ${row.percentOfBusy.toFixed(1).padStart(5)}%  ${row.name}`);
  };
  lines.push(`profiled ${summary.profiledMs.toFixed(0)} ms, busy (not idle) ${summary.busyMs.toFixed(0)} ms`);
  section("Self time by package / group (% of busy):", summary.selfByGroup);
  section("Top functions by self time:", summary.selfByFunction);
  section("Top functions by total (inclusive) time:", summary.totalByFunction);
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const file = process.argv[2];
  if (!file) {
    console.error("usage: node bench/profile-summary.mjs <file.cpuprofile> [--top N] [--json]");
    process.exit(2);
  }
  const topAt = process.argv.indexOf("--top");
  const top = topAt > -1 ? Number(process.argv[topAt + 1]) : 25;
  const summary = summarise(JSON.parse(readFileSync(file, "utf8")), { top });
  console.log(process.argv.includes("--json") ? JSON.stringify(summary, null, 2) : formatSummary(summary));
}
