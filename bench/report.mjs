// The bench's report: the run described (machine, commit, options) and every phase's figures as the tables
// npm run bench prints. bench/run.mjs measures; this only renders what it measured.
import { execFileSync } from "node:child_process";
import { cpus } from "node:os";
import { join } from "node:path";
import { categories } from "./lib/lighthouse.mjs";
import { machineLoad } from "./lib/proc.mjs";
import { started } from "./lib/progress.mjs";
import { kB, MB, num, ratio, table } from "./lib/report.mjs";
import { loadAcceptEncoding, root } from "./lib/servers.mjs";
import { jsBudgetBytes, targets } from "./lib/targets.mjs";

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

export function describeRun(options, loadBefore) {
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

export function header(meta) {
  return [
    `npm run bench  ${meta.date}  node ${meta.node}  ${meta.cpus} CPUs  load avg ${meta.loadBefore} -> ${meta.loadAfter}  (${meta.elapsedS} s)`,
    `${meta.commit}${meta.dirty ? " (with uncommitted changes)" : ""}`,
  ].join("\n");
}

export function renderCompare(compare) {
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

const seconds = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : "-");

/** GET / with nothing encoding and while ffmpeg encodes a phone clip, on one server, against the budgets. */
export function renderVideo(video) {
  if (video.skipped) return `Video encode phase skipped: ${video.skipped}`;
  const { clip, encode, memory: mem, budgets, loadWhileEncoding: during } = video;
  const row = (label, phase) => [
    label,
    num(phase.requestsPerSec),
    num(phase.latencyMs.p50, 1),
    num(phase.latencyMs.p99, 1),
    num(phase.serverCpuMsPerRequest, 3),
    num(phase.completed),
    String(phase.errors + phase.timeouts),
    num(phase.machineLoad1m, 1),
  ];
  const verdict = (budget, show) => `${show(budget.value)} <= ${show(budget.max)} ${budget.ok ? "OK" : "OVER"}`;
  return [
    `Video: a ${clip.seconds}-s ${clip.width}x${clip.height} ${clip.fps} fps phone clip (${MB(clip.bytes)}, ` +
      `~${clip.videoBitrate}bit/s) uploaded and encoded to 720p by ffmpeg (nice 19) while GET / is loaded; one server`,
    table(
      ["GET / while", "req/s", "p50 ms", "p99 ms", "server CPU ms/req", "requests", "errors", "load avg"],
      [row("nothing encodes", video.idle), row("ffmpeg encodes (first window)", video.encoding)],
    ),
    `encoding / idle: p99 x${num(video.ratios.p99, 2)}, p50 x${num(video.ratios.p50, 2)}, req/s x${num(video.ratios.requestsPerSec, 2)}; ` +
      `load kept on for ${num(during.seconds, 1)} s (${video.windows.length} windows, cap ${during.capS} s): ` +
      `${num(during.requestsPerSec)} req/s, p99 median ${num(during.medianP99, 1)} ms, worst ${num(during.worstP99, 1)} ms, ` +
      `${num(during.errors)} errors or non-200`,
    `upload: ${video.upload.status} in ${seconds(video.upload.ms)}; ffmpeg running ${seconds(encode.ffmpegStartedMs)} after; ` +
      `clip ${encode.ready ? `ready ${seconds(encode.wallMs)} after the upload was accepted (server: ${seconds(encode.serverMs)})` : `NOT ready (${encode.state}, ${encode.progress} %${encode.error ? `, ${encode.error}` : ""})`}` +
      `${during.cappedBeforeReady ? `, ${during.progressAtCap} % when the load cap ended the load` : ", under load"}; ` +
      `${encode.ffmpegProcesses} ffmpeg process(es)`,
    `site VmHWM: ${MB(mem.idleHwm)} after the idle load, ${MB(mem.afterUploadHwm)} after the upload, ${MB(mem.sitePeakHwm)} ` +
      `at the end (largest sampled RSS while encoding ${MB(mem.siteSampledRssMax)}); ffmpeg VmHWM ${MB(mem.ffmpegPeak)}`,
    `budgets: site peak ${verdict(budgets.siteRss, MB)}; ffmpeg peak ${verdict(budgets.ffmpegRss, MB)}; ` +
      `p99 ratio ${verdict(budgets.p99Ratio, (value) => `x${num(value, 2)}`)} -> ${video.ok ? "PASS" : "FAIL"}`,
  ].join("\n");
}

export function render(results) {
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
  if (results.video) out.push("", renderVideo(results.video));
  out.push("", renderWeight(weight, mem));
  if (compare) out.push("", renderCompare(compare));
  if (lh) out.push("", renderLighthouse(lh, meta.lighthouseRuns));
  out.push("", `JSON: ${join("bench", "results", "latest.json")}`);
  return out.join("\n");
}
