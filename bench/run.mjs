// npm run bench: builds the site, starts it as `npm start` does (node build/server/index.js, NODE_ENV=production) in its own
// process, and measures, side by side in one run and on loopback only:
//   - GET / on the site, GET /healthz on the same server (the framework's floor) and GET / on a plain node:http
//     baseline sending the same bytes from memory: requests/s, p50/p99 latency, server CPU ms per request;
//   - POST /contact enquiries through the contact action to a fake upstream API, checking that every 303 arrived;
//   - bytes of HTML, CSS, JS and images per page, and the server's peak memory;
//   - Lighthouse (mobile preset) on /, /about, /contact and /privacy, median of N runs, with the system Chromium;
//   - GET / with nothing encoding and while ffmpeg encodes a 60-s 1080p phone clip, with the site's and ffmpeg's peak
//     memory (bench/phases/video-encode.mjs).
// Prints a table and writes bench/results/latest.json. See bench/README.md. Each phase is a module of bench/phases/,
// the tables are bench/report.mjs.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pageWeight } from "./lib/bytes.mjs";
import { inboxPhases } from "./lib/inbox.mjs";
import { lighthouseSides } from "./lib/lighthouse.mjs";
import { killAllChildren, machineLoad, memory, stopChild } from "./lib/proc.mjs";
import { log } from "./lib/progress.mjs";
import { build, prepareRef, resultsDir, root, startFlags, startSite, startUpstream } from "./lib/servers.mjs";
import { jsBudgetBytes, pages } from "./lib/targets.mjs";
import { comparePhase } from "./phases/compare.mjs";
import { saveLighthouseReport } from "./phases/lighthouse.mjs";
import { loadPhases, nodeDefaultsPhase } from "./phases/load.mjs";
import { videoEncodePhase } from "./phases/video-encode.mjs";
import { describeRun, header, render, renderCompare, renderVideo } from "./report.mjs";

// ---------------------------------------------------------------------------------------------------------------
// Options

const usage = `usage: npm run bench -- [options]
  --quick              3 s phases after a 1 s warm-up, 1 Lighthouse run per page
  --no-lighthouse      skip Lighthouse
  --skip-build         use the existing build/ and public/build/
  --compare <git-ref>  also build <git-ref> in a temporary directory and compare GET / on both builds,
                       in alternating rounds (A/B), e.g. --compare HEAD~1
  --compare-only       with --compare: only the A/B comparison: GET / load, then Lighthouse on both builds
                       (3 runs per page and build unless --runs; --no-lighthouse skips it)
  --lighthouse-only    only page weight and Lighthouse (no load phases)
  --no-video           skip the phase with a phone clip encoding while the site serves GET /
  --video-only         only that phase (writes bench/results/video-latest.json)
  --duration <s>       seconds per load phase (default 10)
  --connections <n>    autocannon connections (default 50)
  --runs <n>           Lighthouse runs per page (default 5)
  --help`;

function parseArgs(argv) {
  const options = {
    quick: false,
    lighthouse: true,
    build: true,
    compare: undefined,
    compareOnly: false,
    lighthouseOnly: false,
    video: true,
    videoOnly: false,
    duration: undefined,
    connections: 50,
    runs: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value\n${usage}`);
      return next;
    };
    if (arg === "--quick") options.quick = true;
    else if (arg === "--no-lighthouse") options.lighthouse = false;
    else if (arg === "--skip-build") options.build = false;
    else if (arg === "--compare") options.compare = value();
    else if (arg === "--compare-only") options.compareOnly = true;
    else if (arg === "--lighthouse-only") options.lighthouseOnly = true;
    else if (arg === "--no-video") options.video = false;
    else if (arg === "--video-only") options.videoOnly = true;
    else if (arg === "--duration") options.duration = Number(value());
    else if (arg === "--connections") options.connections = Number(value());
    else if (arg === "--runs") {
      options.runs = Number(value());
      options.runsGiven = true;
    } else if (arg === "--help" || arg === "-h") {
      console.log(usage);
      process.exit(0);
    } else throw new Error(`unknown option ${arg}\n${usage}`);
  }
  options.duration ??= options.quick ? 3 : 10;
  options.warmup = options.quick ? 1 : 2;
  options.runs ??= options.quick ? 1 : 5;
  if (options.compareOnly && !options.compare) throw new Error("--compare-only needs --compare <git-ref>");
  if (options.videoOnly && (!options.video || options.compare || options.lighthouseOnly))
    throw new Error("--video-only goes with none of --no-video, --compare, --lighthouse-only");
  // Page weight and Lighthouse only: no load phase, so no encode under load either.
  if (options.lighthouseOnly) options.video = false;
  for (const key of ["duration", "connections", "runs"]) {
    if (!(Number.isFinite(options[key]) && options[key] > 0 && options[key] <= 600))
      throw new Error(`--${key} must be 1-600`);
  }
  return options;
}

// ---------------------------------------------------------------------------------------------------------------
// Time limit, cleanup

const cleanups = [];
function runCleanups() {
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // best effort
    }
  }
}
function fail(error) {
  console.error(`\nbench failed: ${error?.stack ?? error}`);
  killAllChildren();
  runCleanups();
  process.exit(1);
}
process.on("SIGINT", () => fail(new Error("interrupted")));
process.on("SIGTERM", () => fail(new Error("terminated")));

// ---------------------------------------------------------------------------------------------------------------
// Main

async function main() {
  const options = parseArgs(process.argv.slice(2));
  mkdirSync(resultsDir, { recursive: true });
  // The whole run stops by itself, whatever happens.
  // The video phase: the clip made once (~2 min), up to 5 min of load while it encodes, up to 3 min more without.
  const limitMinutes =
    (options.videoOnly ? 0 : 11) +
    (options.video ? 12 : 0) +
    (options.compare ? 2 : 0) +
    Math.max(0, options.runs - 5) +
    Math.max(0, options.duration - 10) / 2;
  setTimeout(() => fail(new Error(`time limit of ${limitMinutes} min reached`)), limitMinutes * 60_000).unref();
  const loadBefore = machineLoad();
  const chromePath = process.env.CHROME_PATH || "/usr/bin/chromium";

  if (options.build) {
    log("building (remix build)");
    await build(root, join(resultsDir, "build.log"));
  }
  if (options.videoOnly) {
    const video = await videoEncodePhase(options);
    const results = { meta: { date: new Date().toISOString(), ...describeRun(options, loadBefore) }, video };
    writeFileSync(join(resultsDir, "video-latest.json"), `${JSON.stringify(results, null, 2)}\n`);
    console.log(
      [header(results.meta), renderVideo(video), "", `JSON: ${join("bench", "results", "video-latest.json")}`].join(
        "\n",
      ),
    );
    runCleanups();
    process.exit(video.skipped || video.ok ? 0 : 1);
  }
  const previous = options.compare
    ? (log(`building ${options.compare} in a temporary directory`), await prepareRef(options.compare, cleanups))
    : undefined;

  log("starting fake upstream, site and baseline");
  const upstream = await startUpstream();
  const site = await startSite({ cwd: root, label: "current", apiHost: upstream.origin });
  const other = previous
    ? await startSite({ cwd: previous.dir, label: "compare", apiHost: upstream.origin })
    : undefined;

  // The A/B comes first, while both servers are equally fresh, so their peak memory compares too.
  let compare;
  if (other) {
    compare = { ref: options.compare, sha: previous.sha, ...(await comparePhase(site, other, options)) };
    const htmlBytes = async (origin) => (await fetch(`${origin}/`)).arrayBuffer().then((buffer) => buffer.byteLength);
    compare.current.htmlBytes = await htmlBytes(site.origin);
    compare.compare.htmlBytes = await htmlBytes(other.origin);
    compare.current.memory = memory(site.pid);
    compare.compare.memory = memory(other.pid);
    if (options.compareOnly && options.lighthouse) {
      const runs = options.runsGiven ? options.runs : 3;
      log(`Lighthouse A/B: ${runs} run(s) x ${pages.length} pages x 2 builds`);
      compare.lighthouse = await lighthouseSides({ current: site.origin, compare: other.origin }, pages, {
        runs,
        chromePath,
        onProgress: log,
        saveReport: saveLighthouseReport,
      });
      compare.lighthouseRuns = runs;
    }
    await stopChild(other.child);
    if (options.compareOnly) {
      await stopChild(site.child);
      await stopChild(upstream.child);
      const results = { meta: { date: new Date().toISOString(), ...describeRun(options, loadBefore) }, compare };
      writeFileSync(join(resultsDir, "compare-latest.json"), `${JSON.stringify(results, null, 2)}\n`);
      console.log(
        [
          header(results.meta),
          renderCompare(compare),
          "",
          `JSON: ${join("bench", "results", "compare-latest.json")}`,
        ].join("\n"),
      );
      runCleanups();
      process.exit(0);
    }
  }
  log("page weight");
  const weight = [];
  for (const path of pages) weight.push(await pageWeight(site.origin, path));

  const load = options.lighthouseOnly ? undefined : await loadPhases(site, upstream, options);
  const nodeDefaults = options.lighthouseOnly ? undefined : await nodeDefaultsPhase(upstream, options);
  await stopChild(upstream.child);
  const inbox = options.lighthouseOnly ? undefined : await inboxPhases({ startSite, options, log });
  const video = options.video ? await videoEncodePhase(options) : undefined;

  let lighthouse;
  if (options.lighthouse) {
    log(`Lighthouse: ${options.runs} run(s) x ${pages.length} pages with ${chromePath}`);
    ({ current: lighthouse } = await lighthouseSides({ current: site.origin }, pages, {
      runs: options.runs,
      chromePath,
      onProgress: log,
      saveReport: saveLighthouseReport,
    }));
  }
  const memAtEnd = memory(site.pid);
  await stopChild(site.child, { graceMs: 10_000 });

  const results = {
    meta: {
      date: new Date().toISOString(),
      ...describeRun(options, loadBefore),
      lighthouseRuns: options.lighthouse ? options.runs : 0,
      chromePath: options.lighthouse ? chromePath : undefined,
    },
    load,
    inbox,
    video,
    weight,
    jsBudget: {
      path: "/",
      wireBytes: weight[0].js.wireBytes,
      budget: jsBudgetBytes,
      ok: weight[0].js.wireBytes <= jsBudgetBytes,
    },
    memory: {
      afterLoad: load?.memory.site,
      atEnd: memAtEnd,
      baseline: load?.memory.baseline,
      nodeFlags: startFlags(),
      nodeDefaults,
    },
    compare,
    lighthouse,
  };
  writeFileSync(join(resultsDir, "latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(
    join(resultsDir, `bench-${results.meta.date.replace(/[:.]/g, "-")}.json`),
    `${JSON.stringify(results)}\n`,
  );
  console.log(render(results));
  runCleanups();
  const nothingLost =
    (!load || load.post.enquiries.ok) &&
    (!nodeDefaults || nodeDefaults.post.enquiries.ok) &&
    (inbox ?? []).every((phase) => phase.nothingLost);
  const videoOk = !video || video.skipped || video.ok;
  process.exit(nothingLost && (!load || load.targets.ok) && videoOk ? 0 : 1);
}

main().catch(fail);
