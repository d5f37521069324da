// Three 12-megapixel camera photos uploaded at once while the site is under the bench's GET load:
// `npm run bench:uploads [-- --skip-build]` (issue 25). Starts the built site as `npm start` does (its heap flags) on
// a SQLite inbox in a temp dir, adds an operator with `npm run inbox`, logs in, and then, in one run:
//   1. GET / alone (50 connections, 10 s): the reference p99;
//   2. GET / under the same load while the three photos are posted to the Photos page at the same moment and the
//      server encodes them in the background (one at a time), until all three renditions are ready (at most 180 s).
// Prints the server's peak RSS (VmHWM) after each step, the uploads' answers and times, how long the encoding took,
// and GET /'s p50/p99 in both steps. Writes bench/results/photo-uploads.json.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fixturePhotos, makeFixturePhotos } from "../tests/support/fixture-photos.mjs";
import { loadPhase } from "./lib/load.mjs";
import { killAllChildren, machineLoad, memory, sleep, stopChild } from "./lib/proc.mjs";
import { browserHeaders, resultsDir, root, startSite } from "./lib/servers.mjs";

const skipBuild = process.argv.includes("--skip-build");
const hardLimit = setTimeout(() => {
  console.error("[uploads] hard limit reached (6 minutes): stopping");
  killAllChildren();
  process.exit(2);
}, 6 * 60_000);
hardLimit.unref();

const MiB = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const log = (line) => console.log(`[uploads] ${line}`);

if (!skipBuild) {
  const built = spawnSync("npm", ["run", "build"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}\n${built.stderr}`);
}
const data = mkdtempSync(join(tmpdir(), "haunt-bench-uploads-"));
const databaseFile = join(data, "inbox.db");
const env = {
  API_HOST: "",
  DATABASE_URL: `file:${databaseFile}`,
  INBOX_FILE: join(data, "v1.jsonl"),
  INBOX_REQUIRE_2FA: "off",
};
const password = "a coffin full of moonlit bats";
const added = spawnSync(process.execPath, ["build/server/cli.js", "operator", "add", "owner@bench.example"], {
  cwd: root,
  env: { ...process.env, ...env },
  input: `${password}\n`,
  encoding: "utf8",
});
if (added.status !== 0) throw new Error(`operator add failed: ${added.stderr}`);

const photosDir = await makeFixturePhotos(join(root, ".cache", "bench-fixture-photos"));
const files = fixturePhotos.map((photo) => ({ ...photo, bytes: readFileSync(join(photosDir, `${photo.name}.jpg`)) }));
log(`photos: ${files.map((file) => `${file.name}.jpg ${MiB(file.bytes.length)}`).join(", ")} (12 MP, GPS EXIF)`);

const site = await startSite({ label: "uploads", env });
const origin = site.origin;
try {
  const login = await fetch(`${origin}/inbox/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "owner@bench.example", password, next: "/inbox/site/photos" }),
  });
  const cookie = login.headers.get("set-cookie")?.split(";")[0];
  if (login.status !== 302 || !cookie) throw new Error(`login failed: ${login.status}`);

  const load = (name, durationS) =>
    loadPhase({
      name,
      url: `${origin}/`,
      pid: site.pid,
      connections: 50,
      durationS,
      warmupS: 0,
      options: { headers: browserHeaders },
    });

  log("GET / alone, 10 s");
  const alone = await load("GET / alone", 10);
  const afterAlone = memory(site.pid);

  const ready = () => {
    const db = new DatabaseSync(databaseFile, { readOnly: true });
    try {
      return Number(db.prepare("SELECT COUNT(*) AS n FROM photo_renditions WHERE state = 'ready'").get().n);
    } finally {
      db.close();
    }
  };
  const upload = async (file, index) => {
    const started = performance.now();
    const form = new FormData();
    form.set("alt", file.alt);
    form.set("place", `slide-${index + 1}`);
    form.set("photo", new Blob([file.bytes], { type: "image/jpeg" }), `${file.name}.jpg`);
    const response = await fetch(`${origin}/inbox/site/photos`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: origin, Cookie: cookie },
      body: form,
    });
    await response.arrayBuffer();
    return { status: response.status, ms: Math.round(performance.now() - started) };
  };

  log("GET / under load while three photos are uploaded at once and encoded");
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, memory(site.pid).rss)), 100);
  const loadStarted = performance.now();
  const during = load("GET / during three uploads and their encoding", 60);
  await sleep(2_000);
  const uploadsStarted = performance.now();
  const uploads = await Promise.all(files.map(upload));
  log(`uploads answered: ${uploads.map((u) => `${u.status} in ${u.ms} ms`).join(", ")}`);
  let encodedMs = NaN;
  for (let waited = 0; waited < 180_000; waited += 500) {
    if (ready() >= 3) {
      encodedMs = Math.round(performance.now() - uploadsStarted);
      break;
    }
    await sleep(500);
  }
  const duringLoad = await during;
  clearInterval(sampler);
  const after = memory(site.pid);
  const encodedWithinLoad = encodedMs <= performance.now() - loadStarted;

  const results = {
    at: new Date().toISOString(),
    machineLoad: machineLoad(),
    photos: files.map((file) => ({ name: file.name, bytes: file.bytes.length })),
    uploads,
    encodedMs,
    encodedWithinLoad,
    peakRssBytes: after.hwm,
    peakRssSampledBytes: peakRss,
    afterAloneHwmBytes: afterAlone.hwm,
    getAlone: { reqPerSec: alone.requestsPerSec, latencyMs: alone.latencyMs, statusCodes: alone.statusCodes },
    getDuring: {
      reqPerSec: duringLoad.requestsPerSec,
      latencyMs: duringLoad.latencyMs,
      statusCodes: duringLoad.statusCodes,
      errors: duringLoad.errors,
    },
  };
  writeFileSync(join(resultsDir, "photo-uploads.json"), `${JSON.stringify(results, null, 2)}\n`);
  console.log(
    [
      "",
      `three 12 MP uploads at once (${files.map((f) => MiB(f.bytes.length)).join(", ")}): ` +
        `${uploads.map((u) => `${u.status} in ${u.ms} ms`).join(", ")}; all three encoded ${(encodedMs / 1000).toFixed(1)} s after the posts` +
        (encodedWithinLoad ? "" : " (after the load phase ended)"),
      `server peak RSS (VmHWM): ${MiB(afterAlone.hwm)} after GET / alone, ${MiB(after.hwm)} after the uploads and their encoding (budget 256 MiB: ${after.hwm <= 256 * 1024 * 1024 ? "OK" : "OVER"})`,
      `GET / alone:          ${Math.round(alone.requestsPerSec)} req/s, p50 ${alone.latencyMs.p50} ms, p99 ${alone.latencyMs.p99} ms`,
      `GET / during uploads: ${Math.round(duringLoad.requestsPerSec)} req/s, p50 ${duringLoad.latencyMs.p50} ms, p99 ${duringLoad.latencyMs.p99} ms, statuses ${JSON.stringify(duringLoad.statusCodes)}, errors ${duringLoad.errors}`,
      `machine load average at the end: ${machineLoad()}`,
      `JSON: ${join("bench", "results", "photo-uploads.json")}`,
    ].join("\n"),
  );
  process.exitCode = after.hwm <= 256 * 1024 * 1024 && uploads.every((u) => u.status === 303) && encodedMs > 0 ? 0 : 1;
} finally {
  await stopChild(site.child);
  clearTimeout(hardLimit);
}
