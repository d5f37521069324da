// Lighthouse (mobile) on the Work pages at their size: `npm run bench:work [-- --skip-build] [--runs N] [--data DIR]`.
// `--data DIR` keeps the inbox in DIR and, when DIR already holds a published portfolio, measures it again without
// building it anew (to compare a change to the pages on the same photos and clips).
// Starts the built site on a SQLite inbox in a temp dir, logs in as an operator and builds the portfolio through the
// owner's own pages: 24 projects with a cover photo each, one of them with 12 photos and 3 phone clips (made by ffmpeg,
// 1080p, 6 s); waits until the background encoders have made every photo and clip ready; publishes the draft
// (`npm run inbox -- site import`); then runs Lighthouse on /work and on that project's page, and checks that the poster,
// never a clip, loads first and that no clip byte is fetched before a press. Writes bench/results/work-lighthouse.json.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import sharp from "sharp";
import { lighthousePage } from "./lib/lighthouse.mjs";
import { saveLighthouseReport } from "./phases/lighthouse.mjs";
import { killAllChildren, machineLoad, sleep, stopChild } from "./lib/proc.mjs";
import { ownerLogin, resultsDir, root, startSite } from "./lib/servers.mjs";

const skipBuild = process.argv.includes("--skip-build");
const runsAt = process.argv.indexOf("--runs");
const runs = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 3;
const hardLimit = setTimeout(() => {
  console.error("[work] hard limit reached (20 minutes): stopping");
  killAllChildren();
  process.exit(2);
}, 20 * 60_000);
hardLimit.unref();
const log = (line) => console.log(`[work] ${line}`);

if (!skipBuild) {
  const built = spawnSync("npm", ["run", "build"], { cwd: root, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}\n${built.stderr}`);
}

mkdirSync(resultsDir, { recursive: true });
const fixtures = join(root, ".cache", "bench-work");
mkdirSync(fixtures, { recursive: true });

/**
 * A 1200 x 900 photo-like JPEG (noise over a gradient, so it weighs what a photo weighs), made once. 1200 px wide is
 * every width a 412-px phone at 1.75x or a desktop card asks for (up to 1080), and half the encoder's time of a
 * camera's full frame: 36 photos go through the one-photo-at-a-time encoder before anything is measured.
 */
async function photo(seed) {
  const file = join(fixtures, `photo-1200-${seed}.jpg`);
  if (!existsSync(file)) {
    const width = 1200;
    const height = 900;
    const pixels = Buffer.alloc(width * height * 3);
    let state = seed * 2654435761;
    for (let i = 0; i < pixels.length; i++) {
      state = (state * 1103515245 + 12345) >>> 0;
      pixels[i] = ((i % (width * 3)) / 12 + (state >>> 27) * 6 + seed * 17) % 256;
    }
    await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 85 })
      .toFile(file);
  }
  return readFileSync(file);
}

/** A 6-second 1080p phone-like clip with sound, made once. */
function clip(seed) {
  const file = join(fixtures, `clip-${seed}.mp4`);
  if (!existsSync(file)) {
    execFileSync("ffmpeg", [
      ...["-v", "error", "-y"],
      ...["-f", "lavfi", "-i", `testsrc2=size=1920x1080:rate=30:duration=6`],
      ...["-f", "lavfi", "-i", `sine=frequency=${220 + seed * 110}:duration=6`],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-b:v", "12M", "-pix_fmt", "yuv420p", "-c:a", "aac", file],
    ]);
  }
  return readFileSync(file);
}

const password = "a coffin full of moonlit bats";
const dataAt = process.argv.indexOf("--data");
const data = dataAt > 0 ? process.argv[dataAt + 1] : mkdtempSync(join(tmpdir(), "haunt-bench-work-"));
mkdirSync(data, { recursive: true });
// A folder of its own is removed at the end, however the run ends; one given with --data is kept to be run again on.
if (dataAt <= 0) process.once("exit", () => rmSync(data, { recursive: true, force: true }));
const databaseFile = join(data, "inbox.db");
const reused = existsSync(databaseFile);
const env = { API_HOST: "", DATABASE_URL: `file:${databaseFile}`, INBOX_FILE: join(data, "v1.jsonl") };
const cli = (args, input) => {
  const done = spawnSync(process.execPath, ["build/server/cli.js", ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    input,
    encoding: "utf8",
  });
  if (done.status !== 0) throw new Error(`inbox ${args.join(" ")} failed: ${done.stderr}`);
  return done.stdout;
};
if (!reused) cli(["operator", "add", "owner@bench.example"], `${password}\n`);
const site = await startSite({ label: "work", env: { ...env, INBOX_REQUIRE_2FA: "off" } });
const origin = site.origin;
const query = (sql) => {
  const db = new DatabaseSync(databaseFile, { readOnly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
};

/** Builds the portfolio through the owner's pages, waits for the encoders and publishes; the seconds encoding took. */
async function buildPortfolio() {
  const cookie = await ownerLogin(origin, { email: "owner@bench.example", password, next: "/inbox/work" });
  const post = (path, body, contentType) =>
    fetch(`${origin}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: origin, Cookie: cookie, ...(contentType ? { "Content-Type": contentType } : {}) },
      body,
    });
  const revision = async () =>
    /name="revision" value="(\d+)"/.exec(
      await (await fetch(`${origin}/inbox/work`, { headers: { Cookie: cookie } })).text(),
    )[1];
  const upload = async (projectPath, field, bytes, name, alt) => {
    const form = new FormData();
    if (alt) form.set("alt", alt);
    form.set(field, new File([bytes], name));
    const answer = await post(`${projectPath}?upload=${field}`, form);
    if (answer.status !== 303) throw new Error(`${field} upload to ${projectPath}: ${answer.status}`);
  };

  const services = ["Custom electric animatronics", "Custom pneumatic animatronics", "Scenic design and building"];
  let showcase = "";
  log("adding 24 projects through the Work page");
  for (let n = 1; n <= 24; n++) {
    const title = n === 1 ? "Reaper with pneumatic lunge" : `Haunt build number ${n}`;
    const body = new URLSearchParams({ revision: await revision(), intent: "add", title, service: services[n % 3] });
    const added = await post("/inbox/work", body, "application/x-www-form-urlencoded");
    if (added.status !== 303) throw new Error(`add ${title}: ${added.status}`);
    const projectPath = added.headers.get("location").replace(/\?.*$/, "");
    if (n === 1) showcase = projectPath;
    await upload(projectPath, "photo", await photo(n), `build-${n}.jpg`, `Build ${n} in the workshop`);
  }
  log("11 more photos and 3 clips on the first project");
  for (let n = 25; n <= 35; n++) await upload(showcase, "photo", await photo(n), `more-${n}.jpg`, `Detail ${n}`);
  for (let n = 1; n <= 3; n++) await upload(showcase, "video", clip(n), `IMG_04${n}0.MOV`);

  const started = Date.now();
  for (;;) {
    const [photos] = query("SELECT COUNT(*) AS n FROM photo_renditions WHERE state = 'pending'");
    const [clips] = query("SELECT COUNT(*) AS n FROM video_uploads WHERE state IN ('pending', 'receiving')");
    if (photos.n === 0 && clips.n === 0) break;
    if (Date.now() - started > 12 * 60_000) throw new Error("the encoders did not finish in 12 minutes");
    await sleep(2_000);
  }
  const encodeSeconds = Math.round((Date.now() - started) / 1000);
  log(`encoded in ${encodeSeconds} s`);
  // The clips' posters are photos too: wait for theirs.
  for (;;) {
    const [photos] = query("SELECT COUNT(*) AS n FROM photo_renditions WHERE state = 'pending'");
    if (photos.n === 0) break;
    await sleep(1_000);
  }

  const [draft] = query("SELECT content FROM site_draft WHERE id = 1");
  const exportFile = join(data, "work.json");
  writeFileSync(
    exportFile,
    JSON.stringify({ format: "haunt-site-content", formatVersion: 1, content: JSON.parse(draft.content) }),
  );
  cli(["site", "import", exportFile]);
  return encodeSeconds;
}

try {
  const encodeSeconds = reused ? null : await buildPortfolio();
  const [published] = query("SELECT content FROM site_versions ORDER BY number DESC LIMIT 1");
  const slug = JSON.parse(published.content).projects[0].slug;
  for (let tries = 0; tries < 30; tries++) {
    if ((await fetch(`${origin}/work/${slug}`)).status === 200) break;
    await sleep(500);
  }

  const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  const pages = ["/work", `/work/${slug}`];
  const results = {};
  // A page is rendered once and then served from the page cache (as on a running site): the first render's cold
  // start (modules loaded, code not yet optimised) is not what a visitor meets, so each page is asked for first.
  for (const path of pages) for (let n = 0; n < 3; n++) await (await fetch(`${origin}${path}`)).text();
  for (const path of pages) {
    const result = await lighthousePage(`${origin}${path}`, {
      runs,
      chromePath,
      saveReport: (p, lhr) => saveLighthouseReport("work", p, lhr),
    });
    results[path] = result;
    log(
      `${path}: ${JSON.stringify(result.scores)}, LCP ${Math.round(result.metrics.lcp)} ms, ` +
        `${Math.round(result.all[0]?.totalByteWeight / 1024)} KiB, ` +
        `${result.flagged.map((audit) => audit.id).join(", ") || "nothing flagged"}`,
    );
  }
  // What a browser fetches before anyone presses play: the posters, never a clip.
  const html = await (await fetch(`${origin}/work/${slug}`)).text();
  const clipFetchedBeforePlay = /<video[^>]*preload="(?:auto|metadata)"/.test(html) || !/preload="none"/.test(html);
  const summary = {
    at: new Date().toISOString(),
    load: machineLoad(),
    projects: 24,
    showcase: { photos: 12, clips: 3 },
    encodeSeconds,
    clipFetchedBeforePlay,
    pages: Object.fromEntries(
      Object.entries(results).map(([path, result]) => [
        path,
        { scores: result.scores, metrics: result.metrics, flagged: result.flagged, errors: result.errors },
      ]),
    ),
  };
  writeFileSync(join(resultsDir, "work-lighthouse.json"), `${JSON.stringify(summary, null, 2)}\n`);
  log(`written bench/results/work-lighthouse.json (load ${JSON.stringify(summary.load)})`);
} finally {
  await stopChild(site.child);
}
