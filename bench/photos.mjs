// The owner's photos against the drawn art, side by side: `npm run bench:photos [-- --runs N]`.
// Builds two copies of the site (tests/support/photo-site.mjs: without photos, and with the three 12-megapixel fixture
// camera photos), starts both, and measures on `/`:
//   - image bytes a phone 390 px wide downloads (device pixel ratio 1, 2 and 3), the lazy slides included (they load
//     after the page has), in headless Chromium with JavaScript on;
//   - Lighthouse mobile (bench/lib/lighthouse.mjs), runs interleaved between the two sides so a noisy minute on a
//     shared machine hits both alike: medians of the scores, LCP and the rest.
// Writes bench/results/photos.json and prints a Markdown table for bench/README.md.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { buildPhotoSite } from "../tests/support/photo-site.mjs";
import { lighthouseSides } from "./lib/lighthouse.mjs";
import { stopChild } from "./lib/proc.mjs";
import { compileCacheEnv } from "../tests/support/compile-cache.mjs";

const runsArg = process.argv.indexOf("--runs");
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
const chromePath = process.env.CHROME_PATH || "/usr/bin/chromium";
const portBase = Number(process.env.BENCH_PHOTOS_PORT ?? 3390);

function start(dir, port) {
  const data = mkdtempSync(join(tmpdir(), "haunt-bench-photos-"));
  const child = spawn("node", ["build/server/index.js"], {
    cwd: dir,
    stdio: "ignore",
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      API_HOST: "",
      DATABASE_URL: `file:${join(data, "enquiries.db")}`,
      // Its temp files and media cache in its own folder too, all of it removed once it has exited.
      TMPDIR: data,
      ...compileCacheEnv,
    },
  });
  const remove = () => rmSync(data, { recursive: true, force: true });
  child.once("exit", remove);
  process.once("exit", remove);
  return { child, url: `http://127.0.0.1:${port}` };
}

async function waitUp(url) {
  for (let i = 0; i < 150; i++) {
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not start`);
}

/** Bytes of every image response of `/` at 390 px wide, until 4 s after load (the lazy slides come after it). */
async function imageBytes(browser, url, deviceScaleFactor) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor });
  const page = await context.newPage();
  const images = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "image" || response.url().startsWith("data:")) return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    images.push({ url: new URL(response.url()).pathname, bytes: body.length });
  });
  await page.goto(`${url}/`, { waitUntil: "load" });
  await page.waitForTimeout(4_000);
  await context.close();
  return { total: images.reduce((sum, image) => sum + image.bytes, 0), images };
}

const [artDir, photoDir] = [await buildPhotoSite({ withPhotos: false }), await buildPhotoSite()];
const sides = { art: start(artDir, portBase), photos: start(photoDir, portBase + 1) };
try {
  await Promise.all(Object.values(sides).map((side) => waitUp(side.url)));
  const browser = await chromium.launch({ executablePath: chromePath });
  const bytes = {};
  for (const [name, side] of Object.entries(sides))
    for (const dpr of [1, 2, 3]) bytes[`${name} dpr ${dpr}`] = await imageBytes(browser, side.url, dpr);
  await browser.close();
  const lighthouse = await lighthouseSides(
    Object.fromEntries(Object.entries(sides).map(([name, side]) => [name, side.url])),
    ["/"],
    { runs, chromePath, onProgress: (line) => console.error(line) },
  );
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(
    "bench/results/photos.json",
    JSON.stringify({ at: new Date().toISOString(), runs, bytes, lighthouse }, null, 2),
  );
  const kb = (n) => (n / 1024).toFixed(1);
  const ms = (n) => Math.round(n);
  console.log(`Image bytes of / at 390 px wide (all slides, lazy ones included):\n`);
  console.log("| side | DPR 1 | DPR 2 | DPR 3 |\n| --- | --- | --- | --- |");
  for (const name of Object.keys(sides))
    console.log(`| ${name} | ${[1, 2, 3].map((dpr) => `${kb(bytes[`${name} dpr ${dpr}`].total)} KB`).join(" | ")} |`);
  console.log(`\nLighthouse mobile on /, median of ${runs} interleaved runs per side:\n`);
  console.log("| side | performance | LCP ms | FCP ms | TBT ms | CLS | SI ms | bytes | LCP element |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const [name, pages] of Object.entries(lighthouse)) {
    const page = pages["/"];
    const m = page.metrics;
    console.log(
      `| ${name} | ${page.scores.performance} | ${ms(m.lcp)} | ${ms(m.fcp)} | ${ms(m.tbt)} | ${m.cls.toFixed(3)} | ${ms(m.si)} | ${ms(page.all.find((r) => !r.error)?.totalByteWeight ?? NaN)} | ${page.lcpElement?.selector ?? "?"} |`,
    );
    console.log(
      `<!-- ${name}: LCP per run ${page.all.map((r) => ms(r.metrics?.lcp ?? NaN)).join(", ")}; performance ${page.all.map((r) => r.scores?.performance).join(", ")}; flagged ${page.flagged.map((f) => f.id).join(", ") || "none"} -->`,
    );
  }
} finally {
  // Each removes its folder once it has exited.
  await Promise.all(Object.values(sides).map((side) => stopChild(side.child)));
}
