// A phone clip encoding while the site serves pages: the built site as `npm start` runs it on a SQLite inbox, an
// operator logged in, a project added; then, side by side on the same server, GET / load with nothing encoding and
// the same load while ffmpeg (a child of the server, at nice 19) makes the 720p clip of a 60-s 1080p phone clip.
// Measures the site's peak RSS, ffmpeg's own peak RSS (its VmHWM, sampled from /proc every 100 ms), the encode's wall
// time and whether the clip became ready, against the budgets below.
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, openAsBlob, readFileSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import { loadPhase } from "../lib/load.mjs";
import { machineLoad, memory, sleep, stopChild } from "../lib/proc.mjs";
import { log } from "../lib/progress.mjs";
import { ratio } from "../lib/report.mjs";
import { browserHeaders, ownerLogin, resultsDir, root, startSite } from "../lib/servers.mjs";
import { getPhase } from "./get.mjs";

const MiB = 1024 * 1024;
export const videoBudgets = { siteRssBytes: 256 * MiB, ffmpegRssBytes: 400 * MiB, p99Ratio: 2 };
/** The load goes on until the clip is ready, but no longer than this. */
const loadCapMs = 5 * 60_000;
/** After the cap, how long the clip may take to finish without load: "starved" and "broken" are told apart. */
const unloadedWaitMs = 3 * 60_000;
const password = "a coffin full of moonlit bats";
const email = "owner@bench.example";
const clip = { seconds: 60, width: 1920, height: 1080, fps: 30, videoBitrate: "16M" };

const run = promisify(execFile);

function hasTool(name) {
  return !spawnSync(name, ["-version"], { stdio: "ignore" }).error;
}

/**
 * The phone-like clip, made once into .cache/bench-clips: H.264 High + AAC in MP4 (index at the end, as phones write
 * it) at ~16 Mbit/s. Light temporal noise over testsrc2, or x264 would not spend the bitrate a camera's grain costs.
 */
async function phoneClip() {
  const dir = join(root, ".cache", "bench-clips");
  const name = `phone-${clip.seconds}s-${clip.height}p${clip.fps}-${clip.videoBitrate}.mp4`;
  const path = join(dir, name);
  if (existsSync(path)) return path;
  mkdirSync(dir, { recursive: true });
  log(`making ${name} once into .cache/bench-clips (about 2 minutes on 2 cores)`);
  const partial = `${path}.part`;
  const { seconds, width, height, fps, videoBitrate } = clip;
  await run(
    "nice",
    [
      ...["-n", "10", "ffmpeg", "-v", "error", "-y"],
      ...["-f", "lavfi", "-i", `testsrc2=size=${width}x${height}:rate=${fps}:duration=${seconds}`],
      ...["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`],
      ...["-vf", "noise=alls=8:allf=t", "-c:v", "libx264", "-preset", "superfast", "-profile:v", "high"],
      ...["-pix_fmt", "yuv420p", "-b:v", videoBitrate, "-maxrate", videoBitrate, "-bufsize", videoBitrate, "-g", "30"],
      ...["-c:a", "aac", "-b:a", "128k", "-f", "mp4", partial],
    ],
    { timeout: 8 * 60_000 },
  );
  renameSync(partial, path);
  return path;
}

/** The server and every process under it, by PID (every thread's children: libuv may spawn from any). */
function processTree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pids[i]}/task`);
    } catch {
      continue; // gone meanwhile
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${pids[i]}/task/${task}/children`, "utf8").trim();
        if (children) pids.push(...children.split(/\s+/).map(Number));
      } catch {
        // gone meanwhile
      }
    }
  }
  return pids;
}

/** When the process started (in clock ticks since boot): with the PID, names one process even after PID reuse. */
function startTime(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

/** ffmpeg, also in the instant before `nice` has exec'd it (same PID, comm still "nice"). */
function isFfmpeg(pid) {
  try {
    const comm = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    if (comm === "ffmpeg") return true;
    return comm === "nice" && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("ffmpeg");
  } catch {
    return false;
  }
}

/**
 * Every 100 ms: the server's RSS and the VmHWM of each ffmpeg under it (the last sample before it exits is its peak,
 * give or take 100 ms); every 250 ms the clip's state from the database. Marks when ffmpeg first ran and when the
 * clip became ready (or failed).
 */
function watchEncode(sitePid, databaseFile) {
  const db = new DatabaseSync(databaseFile, { readOnly: true });
  const ffmpegPeaks = new Map();
  const ffmpegStarts = new Map();
  const marks = { ffmpegSeenAt: undefined, settledAt: undefined };
  let state = { state: "none", progress: 0, error: null };
  let siteRssMax = 0;
  let ticks = 0;
  const readState = () => {
    try {
      const row = db
        .prepare("SELECT state, progress, error FROM video_uploads ORDER BY uploaded_at DESC, id LIMIT 1")
        .get();
      if (row) state = { state: row.state, progress: Number(row.progress), error: row.error ?? null };
    } catch {
      // busy for a moment: the next tick reads it
    }
    if (!marks.settledAt && (state.state === "ready" || state.state === "failed")) marks.settledAt = performance.now();
  };
  const sample = () => {
    for (const pid of processTree(sitePid)) {
      try {
        if (pid === sitePid) siteRssMax = Math.max(siteRssMax, memory(pid).rss || 0);
        else if (ffmpegPeaks.has(pid) || isFfmpeg(pid)) {
          if (!ffmpegStarts.has(pid)) ffmpegStarts.set(pid, startTime(pid));
          // An exiting process's status has no VmHWM line (NaN): it would wipe the peak already seen.
          const { hwm } = memory(pid);
          if (Number.isFinite(hwm)) ffmpegPeaks.set(pid, Math.max(ffmpegPeaks.get(pid) ?? 0, hwm));
          marks.ffmpegSeenAt ??= performance.now();
        }
      } catch {
        // gone meanwhile: its last sampled peak is kept
      }
    }
    if (ticks++ % 3 === 0) readState();
  };
  const timer = setInterval(sample, 100);
  let stopped = false;
  return {
    marks,
    state: () => state,
    settled: () => marks.settledAt !== undefined,
    stop() {
      if (!stopped) {
        stopped = true;
        clearInterval(timer);
        sample();
        readState();
        db.close();
      }
      return { ffmpegPeaks: [...ffmpegPeaks.values()], siteRssMax };
    },
    /** Kills an ffmpeg seen under the server that is still running (the same process: PID and start time). */
    killLeftovers() {
      for (const [pid, started] of ffmpegStarts) {
        try {
          if (isFfmpeg(pid) && startTime(pid) === started) process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    },
  };
}

async function loginAndAddProject(origin) {
  const cookie = await ownerLogin(origin, { email, password, next: "/inbox/work" });
  const headers = { Origin: origin, Cookie: cookie };
  const work = await (await fetch(`${origin}/inbox/work`, { headers })).text();
  const revision = /name="revision" value="(\d+)"/.exec(work)?.[1];
  if (!revision) throw new Error("no revision on /inbox/work");
  const added = await fetch(`${origin}/inbox/work`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ revision, intent: "add", title: "Reaper with pneumatic lunge" }),
  });
  await added.arrayBuffer();
  const project = added.headers.get("location")?.replace(/\?.*$/, "");
  if (added.status !== 303 || !project?.startsWith("/inbox/work/"))
    throw new Error(`adding a project answered ${added.status}`);
  return { headers, project };
}

/** A window of load as a row: what the table shows of each. */
const windowOf = (phase) => ({
  durationS: phase.durationS,
  completed: phase.completed,
  requestsPerSec: phase.requestsPerSec,
  p50: phase.latencyMs.p50,
  p99: phase.latencyMs.p99,
  errors: phase.errors + phase.timeouts,
  non200: phase.completed - (phase.statusCodes["200"] ?? 0),
});

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : NaN;
};

/** The phase: `{ skipped }` when ffmpeg or ffprobe is missing, else the figures and the budgets' verdicts. */
export async function videoEncodePhase(options) {
  for (const tool of ["ffmpeg", "ffprobe"]) {
    if (!hasTool(tool)) {
      log(`video encode phase skipped: ${tool} is not installed`);
      return { skipped: `${tool} is not installed` };
    }
  }
  const clipPath = await phoneClip();
  const clipBytes = readFileSync(clipPath).byteLength;
  const data = mkdtempSync(join(tmpdir(), "haunt-bench-video-"));
  const databaseFile = join(data, "inbox.db");
  const env = {
    API_HOST: "",
    DATABASE_URL: `file:${databaseFile}`,
    INBOX_FILE: join(data, "v1.jsonl"),
    INBOX_REQUIRE_2FA: "off",
    MEDIA_CACHE_DIR: join(data, "media"),
  };
  const added = spawnSync(process.execPath, ["build/server/cli.js", "operator", "add", email], {
    cwd: root,
    env: { ...process.env, ...env },
    input: `${password}\n`,
    encoding: "utf8",
  });
  if (added.status !== 0) throw new Error(`operator add failed: ${added.stderr}`);
  const site = await startSite({ label: "video-encode", env });
  let watch;
  try {
    const { headers, project } = await loginAndAddProject(site.origin);
    const url = `${site.origin}/`;
    await (await fetch(url)).arrayBuffer();

    const idle = await getPhase("GET / site, nothing encoding", url, site.pid, options);
    const idleHwm = memory(site.pid).hwm;

    log(`uploading the ${(clipBytes / 1e6).toFixed(0)} MB clip (${clip.seconds} s ${clip.height}p${clip.fps})`);
    const form = new FormData();
    form.set("video", await openAsBlob(clipPath, { type: "video/mp4" }), "IMG_0666.MP4");
    const uploadStarted = performance.now();
    const uploaded = await fetch(`${site.origin}${project}?upload=video`, {
      method: "POST",
      redirect: "manual",
      headers,
      body: form,
    });
    await uploaded.arrayBuffer();
    const acceptedAt = performance.now();
    const upload = { status: uploaded.status, ms: Math.round(acceptedAt - uploadStarted) };
    if (uploaded.status !== 303) throw new Error(`the clip's upload answered ${uploaded.status}`);
    const afterUploadHwm = memory(site.pid).hwm;

    // The load starts once ffmpeg runs (the encoder first copies the clip out of the database and probes it).
    watch = watchEncode(site.pid, databaseFile);
    for (let waited = 0; waited < 60_000 && !watch.marks.ffmpegSeenAt && !watch.settled(); waited += 100)
      await sleep(100);
    if (!watch.marks.ffmpegSeenAt) log("no ffmpeg seen 60 s after the upload; loading anyway");

    const loadStarted = performance.now();
    const encoding = await getPhase("GET / site, a clip encoding", url, site.pid, options);
    const windows = [windowOf(encoding)];
    const more = Math.max(options.duration, 10);
    while (!watch.settled() && performance.now() - loadStarted < loadCapMs) {
      const { state, progress } = watch.state();
      log(`GET / goes on while the clip encodes (${state}, ${progress} %), ${more} s more`);
      const next = await loadPhase({
        name: "GET / site, a clip encoding, continued",
        url,
        pid: site.pid,
        connections: options.connections,
        durationS: more,
        options: { headers: browserHeaders },
      });
      windows.push(windowOf(next));
    }
    const loadEndedAt = performance.now();
    const loadS = (loadEndedAt - loadStarted) / 1000;
    const underLoad = watch.state();
    if (!watch.settled()) {
      log(
        `load cap reached with the clip at ${underLoad.progress} %: up to ${unloadedWaitMs / 60_000} min more without load`,
      );
      while (!watch.settled() && performance.now() - loadEndedAt < unloadedWaitMs) await sleep(250);
    }
    const state = watch.state();
    // Ready means stored; the poster frame's renditions come after, in the server too: its peak counts.
    const postersDone = () => {
      const db = new DatabaseSync(databaseFile, { readOnly: true });
      try {
        const sql = "SELECT COUNT(*) AS n FROM photo_renditions WHERE state IN ('ready', 'failed')";
        return Number(db.prepare(sql).get().n) > 0;
      } finally {
        db.close();
      }
    };
    for (let waited = 0; state.state === "ready" && waited < 60_000 && !postersDone(); waited += 250) await sleep(250);
    const sitePeakHwm = memory(site.pid).hwm;
    const { ffmpegPeaks, siteRssMax } = watch.stop();
    const { marks } = watch;
    const serverSaid = /ready \(\d+x\d+, \d+ bytes, (\d+) ms\)/.exec(
      readFileSync(join(resultsDir, "server-video-encode.log"), "utf8"),
    );

    const ffmpegPeak = ffmpegPeaks.length ? Math.max(...ffmpegPeaks) : NaN;
    const ready = state.state === "ready";
    const readyUnderLoad = ready && watch.marks.settledAt <= loadEndedAt;
    const budgets = {
      siteRss: { value: sitePeakHwm, max: videoBudgets.siteRssBytes },
      ffmpegRss: { value: ffmpegPeak, max: videoBudgets.ffmpegRssBytes },
      p99Ratio: { value: ratio(encoding.latencyMs.p99, idle.latencyMs.p99), max: videoBudgets.p99Ratio },
    };
    for (const budget of Object.values(budgets))
      budget.ok = Number.isFinite(budget.value) && budget.value <= budget.max;
    return {
      clip: { ...clip, bytes: clipBytes, file: join(".cache", "bench-clips", clipPath.split("/").pop()) },
      idle,
      encoding,
      windows,
      loadWhileEncoding: {
        seconds: Number(loadS.toFixed(1)),
        capS: loadCapMs / 1000,
        cappedBeforeReady: underLoad.state !== "ready",
        progressAtCap: underLoad.state === "ready" ? 100 : underLoad.progress,
        requestsPerSec: ratio(
          windows.reduce((sum, w) => sum + w.completed, 0),
          windows.reduce((sum, w) => sum + w.durationS, 0),
        ),
        medianP99: median(windows.map((w) => w.p99)),
        worstP99: Math.max(...windows.map((w) => w.p99)),
        errors: windows.reduce((sum, w) => sum + w.errors + w.non200, 0),
      },
      upload,
      encode: {
        ready,
        readyUnderLoad,
        state: state.state,
        progress: state.progress,
        error: state.error,
        // Upload accepted (303) -> the state 'ready' seen in the database (sampled every 300 ms).
        wallMs: ready && marks.settledAt ? Math.round(marks.settledAt - acceptedAt) : NaN,
        ffmpegStartedMs: marks.ffmpegSeenAt ? Math.round(marks.ffmpegSeenAt - acceptedAt) : NaN,
        serverMs: serverSaid ? Number(serverSaid[1]) : NaN,
        ffmpegProcesses: ffmpegPeaks.length,
      },
      memory: { idleHwm, afterUploadHwm, sitePeakHwm, siteSampledRssMax: siteRssMax, ffmpegPeak },
      ratios: {
        p99: budgets.p99Ratio.value,
        p50: ratio(encoding.latencyMs.p50, idle.latencyMs.p50),
        requestsPerSec: ratio(encoding.requestsPerSec, idle.requestsPerSec),
      },
      budgets,
      machineLoad1m: machineLoad(),
      ok: ready && Object.values(budgets).every((budget) => budget.ok),
    };
  } finally {
    watch?.stop();
    await stopChild(site.child, { graceMs: 10_000 });
    // An ffmpeg the server left behind (stopped mid-encode) would take the cores from the next phase.
    watch?.killLeftovers();
    rmSync(data, { recursive: true, force: true });
  }
}
