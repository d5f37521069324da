// npm run bench: builds the site, starts it as `npm start` does (node build/server/index.js, NODE_ENV=production) in its own
// process, and measures, side by side in one run and on loopback only:
//   - GET / on the site, GET /healthz on the same server (the framework's floor) and GET / on a plain node:http
//     baseline sending the same bytes from memory: requests/s, p50/p99 latency, server CPU ms per request;
//   - POST /contact enquiries through the contact action to a fake upstream API, checking that every 303 arrived;
//   - bytes of HTML, CSS, JS and images per page, and the server's peak memory;
//   - Lighthouse (mobile preset) on /, /about, /contact and /privacy, median of N runs, with the system Chromium.
// Prints a table and writes bench/results/latest.json. See bench/README.md.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { brotliCompressSync, constants as zlibConstants } from "node:zlib";
import { join } from "node:path";
import { decode, getRaw, pageWeight } from "./lib/bytes.mjs";
import { inboxPhases } from "./lib/inbox.mjs";
import { loadPhase } from "./lib/load.mjs";
import { categories, lighthouseSides, median } from "./lib/lighthouse.mjs";
import { killAllChildren, machineLoad, memory, sleep, stopChild } from "./lib/proc.mjs";
import { kB, MB, num, ratio, table } from "./lib/report.mjs";
import {
  browserHeaders,
  build,
  contactPosts,
  loadAcceptEncoding,
  prepareRef,
  resultsDir,
  root,
  startBaseline,
  startFlags,
  startSite,
  startUpstream,
} from "./lib/servers.mjs";

const pages = ["/", "/about", "/contact", "/privacy"];
// Issue 5: "at most 100 KB gzipped". KB as 1,024 bytes, the unit Lighthouse reports transfer sizes in; the line below
// the weight table prints the figure in both units, so the SI reading (100,000 bytes) can be checked as well.
const jsBudgetBytes = 100 * 1024;
// Issue 12: GET / at most 1.3x the server CPU of GET /healthz, at least 0.75x its requests/s, in the same run; brotli
// bytes no larger than before, when the compression middleware sent pages at its default brotli quality (4).
const targets = { cpuVsHealthzMax: 1.3, rpsVsHealthzMin: 0.75, previousBrotliQuality: 4 };

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
  for (const key of ["duration", "connections", "runs"]) {
    if (!(Number.isFinite(options[key]) && options[key] > 0 && options[key] <= 600))
      throw new Error(`--${key} must be 1-600`);
  }
  return options;
}

// ---------------------------------------------------------------------------------------------------------------
// Progress, time limit, cleanup

const started = Date.now();
const log = (message) =>
  process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(3)}s] ${message}\n`);

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
// Phases

async function getPhase(name, url, pid, options, acceptEncoding = loadAcceptEncoding) {
  log(`${name}: ${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s`);
  const result = await loadPhase({
    name,
    url,
    pid,
    connections: options.connections,
    durationS: options.duration,
    warmupS: options.warmup,
    options: { headers: { ...browserHeaders, "Accept-Encoding": acceptEncoding } },
  });
  result.acceptEncoding = acceptEncoding;
  result.machineLoad1m = machineLoad();
  return result;
}

/** Waits (at most 5 s) until the upstream's received count stops moving: posts still in flight have landed. */
async function upstreamSettled(upstream) {
  let last = -1;
  for (const deadline = Date.now() + 5000; Date.now() < deadline;) {
    const { count } = await (await fetch(`${upstream.origin}/__control/count`)).json();
    if (count === last) return;
    last = count;
    await sleep(300);
  }
}

/** Enquiries through the contact action, each with its own message, to the fake upstream; then count arrivals. */
async function postPhase(site, upstream, options) {
  // Distinct tokens (neither contains the other): the upstream finds the measured enquiries by substring.
  const runToken = `measured-${process.pid}-${Date.now()}`;
  const warmToken = `warmup-${process.pid}-${Date.now()}`;
  const postOptions = (token) =>
    contactPosts((n) => ({
      name: "Bench Visitor",
      email: "bench.visitor@example.com",
      message: `${token} enquiry ${n}: a six-foot pneumatic drop scare for a barn haunt, please.`,
    }));
  log(`POST /contact: ${options.connections} connections, ${options.warmup} s warm-up + ~${options.duration} s`);
  const target = { url: `${site.origin}/contact`, pid: site.pid, connections: options.connections };
  // Warm-up by time, then a fixed number of posts sized from its rate, so every post is answered before we count.
  const warm = await loadPhase({
    ...target,
    name: "warm-up",
    durationS: options.warmup,
    options: postOptions(warmToken),
  });
  await upstreamSettled(upstream);
  await fetch(`${upstream.origin}/__control/clear`, { method: "POST" });
  const amount = Math.min(
    50_000,
    Math.max(options.connections * 4, Math.round(warm.requestsPerSec * options.duration)),
  );
  const result = await loadPhase({
    ...target,
    name: "POST /contact (site -> fake upstream)",
    durationS: options.duration,
    amount,
    options: postOptions(runToken),
  });
  await upstreamSettled(upstream);
  const received = await (
    await fetch(`${upstream.origin}/__control/received?token=${encodeURIComponent(runToken)}`)
  ).json();
  const distinct = new Set(received.map((entry) => entry.body?.message)).size;
  const redirects = result.statusCodes["303"] ?? 0;
  result.enquiries = {
    planned: amount,
    answered303: redirects,
    otherStatuses: Object.fromEntries(Object.entries(result.statusCodes).filter(([code]) => code !== "303")),
    upstreamReceived: received.length,
    distinctMessages: distinct,
    lost: redirects - received.length,
    ok: redirects === received.length && distinct === received.length && redirects === result.completed,
  };
  result.machineLoad1m = machineLoad();
  return result;
}

/** GET / on two builds in alternating rounds (A B, B A, ...), so drift on a shared machine hits both alike. */
async function comparePhase(current, previous, options) {
  const rounds = options.quick ? 2 : options.compareOnly ? 6 : 3;
  const durationS = options.quick ? 3 : 5;
  const sides = { current: [], compare: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ["current", "compare"] : ["compare", "current"];
    for (const side of order) {
      const server = side === "current" ? current : previous;
      log(`A/B round ${round + 1}/${rounds}: GET / on ${side}`);
      sides[side].push(
        await loadPhase({
          name: `GET / ${side}`,
          url: `${server.origin}/`,
          pid: server.pid,
          connections: options.connections,
          durationS,
          warmupS: round === 0 ? options.warmup : 0,
          options: { headers: browserHeaders },
        }),
      );
    }
  }
  const sum = (list) => ({
    requestsPerSec: median(list.map((r) => r.requestsPerSec)),
    p50: median(list.map((r) => r.latencyMs.p50)),
    p99: median(list.map((r) => r.latencyMs.p99)),
    cpuMsPerRequest: median(list.map((r) => r.serverCpuMsPerRequest)),
    rounds: list,
  });
  return { rounds, durationS, current: sum(sides.current), compare: sum(sides.compare) };
}

/** GET / in brotli as the site sends it, against the same page compressed as the compression middleware did before. */
async function brotliBytes(origin) {
  const br = await getRaw(`${origin}/`, { "Accept-Encoding": "br" });
  const plain = await getRaw(`${origin}/`, { "Accept-Encoding": "identity" });
  if (String(br.headers["content-encoding"]) !== "br") throw new Error("GET / did not answer in brotli");
  const html = decode(plain.body, String(plain.headers["content-encoding"] ?? ""));
  const before = brotliCompressSync(html, {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: targets.previousBrotliQuality },
  });
  return { site: br.body.length, before: before.length, sameBody: decode(br.body, "br").equals(html) };
}

/** The issue's targets, from the phases of this one run. */
function checkTargets(ratios, brotli) {
  const cpu = { ratio: ratios.siteVsHealthzCpu, max: targets.cpuVsHealthzMax };
  const rps = { ratio: ratios.siteVsHealthzRps, min: targets.rpsVsHealthzMin };
  cpu.ok = cpu.ratio <= cpu.max;
  rps.ok = rps.ratio >= rps.min;
  const bytes = { ...brotli, ok: brotli.sameBody && brotli.site <= brotli.before };
  return { cpu, rps, brotli: bytes, ok: cpu.ok && rps.ok && bytes.ok };
}

/**
 * The same GET / and POST /contact load on a second server started with Node's default heap settings (no flags), so
 * the peak memory with and without `npm start`'s flags is measured side by side in one run.
 */
async function nodeDefaultsPhase(upstream, options) {
  const other = await startSite({ cwd: root, label: "node-defaults", apiHost: upstream.origin, nodeFlags: [] });
  const get = await getPhase("GET / site, Node's default heap", `${other.origin}/`, other.pid, options);
  const post = await postPhase(other, upstream, options);
  const peak = memory(other.pid);
  await stopChild(other.child);
  return { get, post, memory: peak };
}

/** The load phases, one after another on the same servers: baseline, site, site uncompressed, healthz, posts. */
async function loadPhases(site, upstream, options) {
  const baseline = await startBaseline(site.origin);
  const baselinePhase = await getPhase("GET / baseline", `${baseline.origin}/`, baseline.pid, options);
  const sitePhase = await getPhase("GET / site", `${site.origin}/`, site.pid, options);
  const identityPhase = await getPhase("GET / site uncompressed", `${site.origin}/`, site.pid, options, "identity");
  const healthzPhase = await getPhase("GET /healthz site", `${site.origin}/healthz`, site.pid, options);
  const post = await postPhase(site, upstream, options);
  const memoryAfter = { site: memory(site.pid), baseline: memory(baseline.pid) };
  await stopChild(baseline.child);
  const ratios = {
    siteVsBaselineRps: ratio(sitePhase.requestsPerSec, baselinePhase.requestsPerSec),
    healthzVsBaselineRps: ratio(healthzPhase.requestsPerSec, baselinePhase.requestsPerSec),
    siteVsHealthzRps: ratio(sitePhase.requestsPerSec, healthzPhase.requestsPerSec),
    siteVsHealthzCpu: ratio(sitePhase.serverCpuMsPerRequest, healthzPhase.serverCpuMsPerRequest),
    siteVsBaselineCpu: ratio(sitePhase.serverCpuMsPerRequest, baselinePhase.serverCpuMsPerRequest),
    healthzVsBaselineCpu: ratio(healthzPhase.serverCpuMsPerRequest, baselinePhase.serverCpuMsPerRequest),
    siteMinusHealthzCpuMs: sitePhase.serverCpuMsPerRequest - healthzPhase.serverCpuMsPerRequest,
    compressedMinusUncompressedCpuMs: sitePhase.serverCpuMsPerRequest - identityPhase.serverCpuMsPerRequest,
  };
  return {
    encoding: baseline.variants[0].contentEncoding,
    baselineVariants: baseline.variants,
    baseline: baselinePhase,
    site: sitePhase,
    siteUncompressed: identityPhase,
    healthz: healthzPhase,
    post,
    ratios,
    targets: checkTargets(ratios, await brotliBytes(site.origin)),
    memory: memoryAfter,
  };
}

/** Keeps the full report of a page's representative run: bench/results/lighthouse/<side>-<page>.json. */
function saveLighthouseReport(side, path, lhr) {
  const dir = join(resultsDir, "lighthouse");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${side}-${path === "/" ? "home" : path.slice(1).replace(/\W+/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(lhr));
  return file.slice(root.length + 1);
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function loadRow(label, phase) {
  const codes = Object.entries(phase.statusCodes)
    .map(([code, count]) => `${code}x${count}`)
    .join(" ");
  return [
    label,
    num(phase.requestsPerSec),
    num(phase.latencyMs.p50, 1),
    num(phase.latencyMs.p99, 1),
    num(phase.serverCpuMsPerRequest, 3),
    num(phase.completed),
    String(phase.errors + phase.timeouts),
    codes,
    num(phase.machineLoad1m, 1),
  ];
}

function describeRun(options, loadBefore) {
  const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
  return {
    node: process.version,
    cpus: cpus().length,
    loadBefore,
    loadAfter: machineLoad(),
    elapsedS: Math.round((Date.now() - started) / 1000),
    commit: git("log", "-1", "--format=%h %s"),
    dirty: git("status", "--porcelain", "--untracked-files=no") !== "",
    options,
    connections: options.connections,
    durationS: options.duration,
    warmupS: options.warmup,
    acceptEncoding: loadAcceptEncoding,
  };
}

function header(meta) {
  return [
    `npm run bench  ${meta.date}  node ${meta.node}  ${meta.cpus} CPUs  load avg ${meta.loadBefore} -> ${meta.loadAfter}  (${meta.elapsedS} s)`,
    `${meta.commit}${meta.dirty ? " (with uncommitted changes)" : ""}`,
  ].join("\n");
}

function renderCompare(compare) {
  const row = (label, side) => [
    label,
    num(side.requestsPerSec),
    num(side.p50, 1),
    num(side.p99, 1),
    num(side.cpuMsPerRequest, 3),
    kB(side.htmlBytes),
    MB(side.memory?.hwm),
  ];
  return [
    `A/B, GET / on this tree vs ${compare.ref} (${compare.sha.slice(0, 10)}): ${compare.rounds} alternating rounds of ` +
      `${compare.durationS} s each, medians; both servers fresh`,
    table(
      ["build", "req/s", "p50 ms", "p99 ms", "server CPU ms/req", "HTML raw", "VmHWM"],
      [row("this tree", compare.current), row(compare.ref, compare.compare)],
    ),
    `this tree / ${compare.ref}: req/s x${num(ratio(compare.current.requestsPerSec, compare.compare.requestsPerSec), 3)}, ` +
      `CPU ms/req x${num(ratio(compare.current.cpuMsPerRequest, compare.compare.cpuMsPerRequest), 3)}, ` +
      `p50 x${num(ratio(compare.current.p50, compare.compare.p50), 3)}; ` +
      `per round (req/s this/ref): ${compare.current.rounds.map((r, i) => num(ratio(r.requestsPerSec, compare.compare.rounds[i].requestsPerSec), 2)).join(" ")}`,
    ...(compare.lighthouse ? ["", renderLighthouseAB(compare)] : []),
  ].join("\n");
}

function renderLoad(load) {
  const out = [];
  out.push(
    table(
      ["load phase", "req/s", "p50 ms", "p99 ms", "server CPU ms/req", "requests", "errors", "statuses", "load avg"],
      [
        loadRow("GET /  baseline (node:http, same bytes)", load.baseline),
        loadRow("GET /  site (npm start)", load.site),
        loadRow("GET /  site, uncompressed (Accept-Encoding: identity)", load.siteUncompressed),
        loadRow("GET /healthz  site (npm start)", load.healthz),
        loadRow("POST /contact  site -> fake upstream", load.post),
      ],
    ),
  );
  const r = load.ratios;
  const e = load.post.enquiries;
  const t = load.targets;
  const verdict = (ok) => (ok ? "OK" : "MISSED");
  out.push(
    "",
    `site / baseline:     req/s x${num(r.siteVsBaselineRps, 4)} (the baseline is ${num(1 / r.siteVsBaselineRps, 0)}x faster), ` +
      `CPU ms/req x${num(r.siteVsBaselineCpu, 0)}`,
    `healthz / baseline:  req/s x${num(r.healthzVsBaselineRps, 4)}, CPU ms/req x${num(r.healthzVsBaselineCpu, 0)}  (the framework's floor)`,
    `site / healthz:      req/s x${num(r.siteVsHealthzRps, 3)}, CPU ms/req x${num(r.siteVsHealthzCpu, 3)}; ` +
      `CPU ms/req site - healthz = ${num(r.siteMinusHealthzCpuMs, 3)} ms, ` +
      `site compressed - uncompressed = ${num(r.compressedMinusUncompressedCpuMs, 3)} ms`,
    `targets (issue 12, this run): CPU GET / vs /healthz x${num(t.cpu.ratio, 3)} <= ${t.cpu.max} ${verdict(t.cpu.ok)}; ` +
      `req/s x${num(t.rps.ratio, 3)} >= ${t.rps.min} ${verdict(t.rps.ok)}; ` +
      `brotli bytes of / ${num(t.brotli.site)} <= ${num(t.brotli.before)} (the same page at the middleware's quality ${targets.previousBrotliQuality}) ` +
      `${verdict(t.brotli.ok)}`,
    `enquiries: ${num(e.answered303)} answered 303, upstream received ${num(e.upstreamReceived)} ` +
      `(${num(e.distinctMessages)} distinct messages), other statuses ${JSON.stringify(e.otherStatuses)} -> ` +
      `${e.ok ? "OK, nothing lost" : `MISMATCH (lost ${e.lost})`}${load.post.stoppedEarly ? " (stopped by the time limit)" : ""}`,
  );
  return out.join("\n");
}

function renderWeight(weight, mem) {
  const home = weight.find((page) => page.path === "/");
  const failed = weight.flatMap((page) => page.failed);
  return [
    table(
      ["page weight (wire bytes, Accept-Encoding: gzip)", "HTML", "CSS", "JS", "images (eager)", "total", "HTML raw"],
      weight.map((page) => [
        page.path,
        kB(page.html.wireBytes),
        kB(page.css.wireBytes),
        kB(page.js.wireBytes),
        `${kB(page.images.wireBytes)} (${kB(page.images.eagerWireBytes)})`,
        kB(page.html.wireBytes + page.css.wireBytes + page.js.wireBytes + page.images.wireBytes),
        kB(page.html.bytes),
      ]),
    ),
    `JS for /: ${num(home.js.wireBytes)} bytes gzipped (${(home.js.wireBytes / 1000).toFixed(1)} kB, ` +
      `${(home.js.wireBytes / 1024).toFixed(1)} KiB) in ${home.js.files.length} files, budget 100 KiB = ${num(jsBudgetBytes)} bytes -> ` +
      `${home.js.wireBytes <= jsBudgetBytes ? "OK" : "OVER"}${failed.length ? `; failed: ${failed.join(", ")}` : ""}`,
    `server peak memory (VmHWM, npm start: node ${mem.nodeFlags.join(" ")}): ${MB(mem.afterLoad?.hwm)} after the load phases, ` +
      `${MB(mem.atEnd.hwm)} at the end; baseline ${MB(mem.baseline?.hwm)}`,
    ...(mem.nodeDefaults
      ? [
          `same GET / + POST /contact load on the same server without flags (Node's default heap): peak ${MB(mem.nodeDefaults.memory.hwm)}; ` +
            `${num(mem.nodeDefaults.get.requestsPerSec)} req/s GET / (${num(mem.nodeDefaults.get.serverCpuMsPerRequest, 3)} CPU ms/req), ` +
            `${num(mem.nodeDefaults.post.requestsPerSec)} req/s POST, nothing lost: ${mem.nodeDefaults.post.enquiries.ok ? "yes" : "NO"}`,
        ]
      : []),
  ].join("\n");
}

const rounded = (value) => (Number.isFinite(value) ? String(Math.round(value)) : "-");
/** A page's four category scores and its FCP, LCP, TBT and SI, as table cells. */
const lighthouseCells = (page) => [
  ...categories.map((id) => rounded(page.scores[id])),
  ...["fcp", "lcp", "tbt", "si"].map((metric) => rounded(page.metrics[metric])),
];

function renderLighthouseAB(compare) {
  const rows = [];
  for (const path of Object.keys(compare.lighthouse.current)) {
    for (const [side, label] of [
      ["current", "this tree"],
      ["compare", compare.ref],
    ]) {
      const page = compare.lighthouse[side][path];
      rows.push([`${path} ${label}`, ...lighthouseCells(page), num(page.maxCls, 3)]);
    }
  }
  return [
    `Lighthouse A/B (mobile), median of ${compare.lighthouseRuns} run(s) per page and build, builds alternating:`,
    table(["page / build", "perf", "a11y", "best-pr.", "SEO", "FCP ms", "LCP ms", "TBT ms", "SI ms", "CLS max"], rows),
  ].join("\n");
}

function renderLighthouse(lh, runs) {
  const out = [
    `Lighthouse 12 (mobile preset, simulated throttling), median of ${runs} run(s) per page:`,
    table(
      ["page", "perf", "a11y", "best-pr.", "SEO", "FCP ms", "LCP ms", "TBT ms", "SI ms", "CLS (max)", "LCP element"],
      Object.entries(lh).map(([path, page]) => [
        path,
        ...lighthouseCells(page),
        `${num(page.metrics.cls, 3)} (${num(page.maxCls, 3)})`,
        page.lcpElement ? page.lcpElement.snippet.slice(0, 60) : "-",
      ]),
    ),
    "audits below a full score (in how many runs):",
  ];
  for (const [path, page] of Object.entries(lh)) {
    if (page.errors.length) out.push(`  ${path}: ${page.errors.length} run(s) failed: ${page.errors[0]}`);
    const list = page.flagged
      .sort((a, b) => b.runs - a.runs || a.id.localeCompare(b.id))
      .map(
        (audit) => `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ""} ${audit.runs}/${page.okRuns}`,
      );
    out.push(`  ${path}: ${list.join("; ") || "none"}`);
  }
  return out.join("\n");
}

function renderInbox(phases) {
  return [
    `Embedded inbox: distinct enquiries posted through the form by ${phases[0].posters} posters, e-mail notifications to a local SMTP server`,
    table(
      [
        "database",
        "enquiries/s",
        "CPU ms/enquiry",
        "p99 ms",
        "acknowledged",
        "stored",
        "e-mailed",
        "e-mails/s",
        "peak MiB",
        "nothing lost",
      ],
      phases.map((p) => [
        p.backend,
        num(p.enquiriesPerSec),
        num(p.serverCpuMsPerEnquiry, 3),
        num(p.latencyMs.p99, 1),
        num(p.acknowledged),
        num(p.stored),
        num(p.emailed),
        num(p.notificationsPerSec),
        MB(p.peakMemory?.hwm),
        p.nothingLost ? "yes" : `NO ${JSON.stringify(p.otherStatuses)} dup ${p.duplicatesEmailed}`,
      ]),
    ),
    phases.length === 2
      ? `PostgreSQL / SQLite enquiries per second: x${(phases[1].enquiriesPerSec / phases[0].enquiriesPerSec).toFixed(2)}`
      : "",
  ].join("\n");
}

function render(results) {
  const { meta, load, weight, memory: mem, lighthouse: lh, compare } = results;
  const out = [header(meta)];
  if (load) {
    out.push(
      `autocannon: ${meta.connections} connections, ${meta.warmupS} s warm-up + ${meta.durationS} s per phase, ` +
        `Accept-Encoding: ${loadAcceptEncoding} (site answers ${load.encoding || "identity"})`,
      "",
      renderLoad(load),
    );
  }
  if (results.inbox) out.push("", renderInbox(results.inbox));
  out.push("", renderWeight(weight, mem));
  if (compare) out.push("", renderCompare(compare));
  if (lh) out.push("", renderLighthouse(lh, meta.lighthouseRuns));
  out.push("", `JSON: ${join("bench", "results", "latest.json")}`);
  return out.join("\n");
}

// ---------------------------------------------------------------------------------------------------------------
// Main

async function main() {
  const options = parseArgs(process.argv.slice(2));
  mkdirSync(resultsDir, { recursive: true });
  // The whole run stops by itself, whatever happens.
  const limitMinutes =
    11 + (options.compare ? 2 : 0) + Math.max(0, options.runs - 5) + Math.max(0, options.duration - 10) / 2;
  setTimeout(() => fail(new Error(`time limit of ${limitMinutes} min reached`)), limitMinutes * 60_000).unref();
  const loadBefore = machineLoad();
  const chromePath = process.env.CHROME_PATH || "/usr/bin/chromium";

  if (options.build) {
    log("building (remix build)");
    await build(root, join(resultsDir, "build.log"));
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
  process.exit(nothingLost && (!load || load.targets.ok) ? 0 : 1);
}

main().catch(fail);
