// Copies of the site built with and without photos, in the system's temp folder (outside the checkout, so tsc and
// ESLint never see them; node_modules linked, the photo cache shared with the checkout so the 12-megapixel photos are
// encoded once per machine, not per run). With: the fixture camera photos (fixture-photos.mjs) as slides 1-3 and
// slide 3's photo again as the About photo. Without: an empty photos/ (the drawn art), whatever the checkout's photos/
// holds. Used by the photo tests (vitest, Playwright) and bench/photos.mjs.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fixturePhotos, makeFixturePhotos } from "./fixture-photos.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const checkoutId = createHash("sha256").update(root).digest("hex").slice(0, 8);
const siteDir = (withPhotos) => join(tmpdir(), `haunt-${withPhotos ? "photo" : "art"}-site-${checkoutId}`);
export const fixtureDir = join(root, "tests", ".tmp", "fixture-photos");
const sources = [
  "app",
  "server",
  "scripts",
  "public",
  "remix.config.js",
  "tailwind.config.ts",
  "tsconfig.json",
  "package.json",
];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (path === join(root, "public") && (entry === "build" || entry === "photos")) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

const sourceVersion = () => String(Math.max(...sources.map((source) => newestMtime(join(root, source)))));

/** Builds the copy unless it is already built from the current sources; returns its directory. */
export async function buildPhotoSite({ withPhotos = true } = {}) {
  const photoSiteDir = siteDir(withPhotos);
  const stamp = join(photoSiteDir, ".built-from");
  if (withPhotos) await makeFixturePhotos(fixtureDir);
  const lock = `${photoSiteDir}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  // One builder at a time (Playwright workers, test files): the others wait for its result.
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 600_000)
        rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    const version = sourceVersion();
    if (existsSync(stamp) && readFileSync(stamp, "utf8") === version) return photoSiteDir;
    rmSync(photoSiteDir, { recursive: true, force: true });
    mkdirSync(join(photoSiteDir, "photos"), { recursive: true });
    for (const source of sources)
      cpSync(join(root, source), join(photoSiteDir, source), {
        recursive: true,
        filter: (path) => !/\/public\/(build|photos)(\/|$)/.test(path.slice(root.length)),
      });
    symlinkSync(join(root, "node_modules"), join(photoSiteDir, "node_modules"));
    mkdirSync(join(root, ".cache", "photos"), { recursive: true });
    mkdirSync(join(photoSiteDir, ".cache"));
    symlinkSync(join(root, ".cache", "photos"), join(photoSiteDir, ".cache", "photos"));
    if (withPhotos) {
      for (const { name } of fixturePhotos)
        for (const ext of ["jpg", "json"])
          cpSync(join(fixtureDir, `${name}.${ext}`), join(photoSiteDir, "photos", `${name}.${ext}`));
      cpSync(join(fixtureDir, "slide-3.jpg"), join(photoSiteDir, "photos", "about.jpg"));
      writeFileSync(
        join(photoSiteDir, "photos", "about.json"),
        JSON.stringify({ alt: "Fixture about photo: the workshop" }),
      );
    }
    // Vitest's NODE_ENV=test would make a development build.
    const env = { ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith("VITEST") || name === "NODE_ENV") delete env[name];
    const result = spawnSync("npm", ["run", "build"], { cwd: photoSiteDir, env, encoding: "utf8", timeout: 580_000 });
    if (result.status !== 0) throw new Error(`npm run build (with photos) failed:\n${result.stdout}\n${result.stderr}`);
    writeFileSync(stamp, version);
    return photoSiteDir;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(await buildPhotoSite({ withPhotos: process.argv[2] !== "--without-photos" }));
