// The owner's photos (photos/, see docs/photos.md) made fit for the web: `node scripts/photos.mjs`, the first step of
// `npm run build` (before `remix build`). It encodes each photo (or takes it from the cache), puts the files in
// public/photos/ (served as /photos/, immutable for a year: server/main.ts) and writes app/wording/photos.generated.ts,
// which the server and browser bundles import, so both render the same markup.
//
// Each photo is encoded by the site's one encoder (app/photos/encoder.server.ts, also the server's for uploads): EXIF
// orientation applied, cropped to its slot's shape around the focal point, AVIF + WebP + JPEG at every width up to its
// own, content-hashed names, no metadata (GPS, camera) kept, and a 16-px WebP placeholder inlined in the page. Encoded
// files are cached in .cache/photos/ by input bytes + settings, so an unchanged photo is never encoded twice. A photo that cannot be used (cut short, damaged, over 50 megapixels, no alt
// text) stops the build with one line naming it and why; a file in photos/ the build does not use gets a warning line.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import sharp from "sharp";
import {
  encodeRendition,
  formats,
  inspectPhoto,
  PhotoRefused,
  placeholderWidth,
  shapes,
  social as socialSize,
  socialImage,
} from "../app/photos/encoder.server.ts";

const root = resolve(import.meta.dirname, "..");
const photosDir = join(root, "photos");
const cacheDir = join(root, ".cache", "photos");
const manifestFile = join(root, "app", "wording", "photos.generated.ts");
const outputDir = join(root, "public", "photos");
const publicPrefix = "/photos/";

/** Bump when the encoding or the cache entries change in a way the settings below do not show: every photo is then encoded again. */
const encoderVersion = 5;
/** The photo slots: the file name the owner uses (any of `extensions`) and the shape it is cropped to. */
const slots = [
  { key: "slide-1", shape: "slide" },
  { key: "slide-2", shape: "slide" },
  { key: "slide-3", shape: "slide" },
  { key: "about", shape: "about" },
];
const extensions = [".jpg", ".jpeg", ".png", ".webp"];
/** Link previews (Open Graph, Twitter): 1200 x 630 from the first slide's photo, or its drawn art. */
const social = { ...socialSize, art: join(root, "public", "images", "carousel", "large-custom-prop.svg") };

/** A photo the build cannot use: its message is the one line the build prints. */
class PhotoProblem extends Error {}

const sha256 = (...parts) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
};

/** The photo file for a slot, its sidecar (alt text, focal point) and the problems found, in plain words. */
function findPhoto(slot, files) {
  const matches = files.filter((file) => extensions.some((ext) => file.toLowerCase() === `${slot.key}${ext}`));
  if (matches.length === 0) return null;
  if (matches.length > 1) throw new PhotoProblem(`photos/: ${matches.join(" and ")} are both ${slot.key}: keep one`);
  const sidecarFile = join(photosDir, `${slot.key}.json`);
  let sidecar = {};
  try {
    if (existsSync(sidecarFile)) sidecar = JSON.parse(readFileSync(sidecarFile, "utf8")) ?? {};
  } catch (error) {
    throw new PhotoProblem(`photos/${slot.key}.json is not valid JSON (${error.message}): see docs/photos.md`);
  }
  if (typeof sidecar.alt !== "string" || sidecar.alt.trim() === "")
    throw new PhotoProblem(
      `photos/${matches[0]} has no alt text: write photos/${slot.key}.json with {"alt": "what the photo shows"} (see docs/photos.md)`,
    );
  const focus = sidecar.focus ?? [0.5, 0.5];
  if (!Array.isArray(focus) || focus.length !== 2 || !focus.every((n) => typeof n === "number" && n >= 0 && n <= 1))
    throw new PhotoProblem(
      `photos/${slot.key}.json: "focus" must be [x, y] with numbers from 0 to 1 (e.g. [0.5, 0.4])`,
    );
  return { key: slot.key, name: matches[0], file: join(photosDir, matches[0]), alt: sidecar.alt.trim(), focus };
}

/** The photo's size from its header, refused when over the cap or not a picture (before anything decodes it). */
async function checkSize(photo) {
  try {
    await inspectPhoto(photo.file);
  } catch (error) {
    throw problem(photo, error);
  }
}

/** What a refused photo means for the owner, in the build's one line. */
function problem(photo, error) {
  if (!(error instanceof PhotoRefused))
    return new PhotoProblem(`photos/${photo.name} cannot be read (${error.message})`);
  const { reason, detail, width, height } = error;
  if (reason === "too-large" && width)
    return new PhotoProblem(
      `photos/${photo.name} is ${width} x ${height} pixels (${Math.round((width * height) / 1e6)} megapixels): the build takes at most 50 megapixels; save a smaller copy (6000 px wide is plenty)`,
    );
  if (reason === "not-image")
    return new PhotoProblem(`photos/${photo.name} is not a JPEG, PNG or WebP picture: save it as JPEG`);
  if (/premature end|truncat|read error|corrupt|unable to parse/i.test(detail))
    return new PhotoProblem(
      `photos/${photo.name} is cut short or damaged (${detail}): copy it again from the camera or phone`,
    );
  return new PhotoProblem(`photos/${photo.name} cannot be read (${detail}): save it again as JPEG`);
}

/** Writes `bytes` into the cache entry under its content-hashed name. */
function store(entryDir, file, files) {
  writeFileSync(join(entryDir, file.name), file.bytes);
  files.push(file.name);
}

/** The build's names: `slide-1-720-1a2b3c4d5e.avif`, `social-1a2b3c4d5e.jpg`. */
const namer = (slot) => (file) =>
  file.kind === "social" ? `social-${file.hash}.jpg` : `${slot.key}-${file.width}-${file.hash}.${file.format}`;

/** Encodes one photo into `entryDir`; returns its manifest entry (without alt text) and its file names. */
async function encode(slot, photo, entryDir) {
  const files = [];
  const [x, y] = photo.focus;
  const entry = await encodeRendition(photo.file, slot.shape, { x, y }, (file) => store(entryDir, file, files), {
    name: namer(slot),
    srcPrefix: "",
    // The link-preview image is made from the first slide.
    social: slot.key === "slide-1",
  }).catch((error) => {
    throw problem(photo, error);
  });
  return { entry, files };
}

/** A cache entry is complete once entry.json exists (written last): a build stopped half-way encodes again. */
async function cached(key, make) {
  const entryDir = join(cacheDir, key);
  const entryFile = join(entryDir, "entry.json");
  if (existsSync(entryFile)) return JSON.parse(readFileSync(entryFile, "utf8"));
  rmSync(entryDir, { recursive: true, force: true });
  mkdirSync(entryDir, { recursive: true });
  const result = await make(entryDir);
  writeFileSync(entryFile, JSON.stringify({ ...result, dir: key }));
  return { ...result, dir: key };
}

/**
 * Runs `work` on each item, as many at a time as the machine has cores, and resolves with the results in the items'
 * order. sharp encodes each photo on one thread here (its default on glibc Linux), so photos side by side use the
 * other cores. Every item is settled before the first failure in the items' order is thrown: the same problem is
 * named whichever finished first.
 */
async function onEveryCore(items, work) {
  const outcomes = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(availableParallelism(), items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      outcomes[index] = await work(items[index]).then(
        (value) => ({ value }),
        (error) => ({ error }),
      );
    }
  });
  await Promise.all(lanes);
  const failure = outcomes.find((outcome) => "error" in outcome);
  if (failure) throw failure.error;
  return outcomes.map((outcome) => outcome.value);
}

async function encodeAll() {
  const started = Date.now();
  const files = existsSync(photosDir) ? readdirSync(photosDir) : [];
  const manifest = { slides: [], about: null, social: null };
  const published = [];
  const found = [];
  let encoded = 0;
  // Each slot's photo checked in order (the first problem is the one named), then encoded side by side.
  const present = [];
  for (const slot of slots) {
    const photo = findPhoto(slot, files);
    if (!photo) continue;
    found.push(photo);
    await checkSize(photo);
    present.push({ slot, photo });
  }
  const results = await onEveryCore(present, ({ slot, photo }) => {
    // Decoding settings only refuse files, never change what is encoded: they are not part of the key.
    const settings = JSON.stringify({
      encoderVersion,
      formats,
      slot: { key: slot.key, ...shapes[slot.shape] },
      focus: photo.focus,
      placeholderWidth,
      social,
    });
    const key = sha256(readFileSync(photo.file), settings).slice(0, 24);
    return cached(key, (dir) => {
      encoded++;
      console.log(`[photos] encoding ${photo.file}`);
      return encode(slot, photo, dir);
    });
  });
  for (const slot of slots) {
    const index = present.findIndex((each) => each.slot === slot);
    let entry = null;
    if (index >= 0) {
      const { photo } = present[index];
      const result = results[index];
      published.push(...result.files.map((file) => join(result.dir, file)));
      const { social: socialEntry, ...rest } = result.entry;
      entry = { alt: photo.alt, ...rest };
      for (const format of Object.keys(formats))
        entry[format] = entry[format].map((source) => ({ ...source, src: publicPrefix + source.src }));
      if (socialEntry) manifest.social = { ...socialEntry, src: publicPrefix + socialEntry.src };
    }
    if (slot.key === "about") manifest.about = entry;
    else manifest.slides.push(entry);
  }
  if (!manifest.social) {
    // No first photo: the preview is drawn from the first slide's art.
    const settings = JSON.stringify({ encoderVersion, social });
    const key = `art-${sha256(readFileSync(social.art), settings).slice(0, 20)}`;
    const result = await cached(key, async (dir) => {
      const files = [];
      const bytes = await socialImage(sharp(social.art, { density: 144 }));
      const name = `social-${sha256(bytes).slice(0, 10)}.jpg`;
      store(dir, { name, bytes }, files);
      return { entry: { src: name, width: social.width, height: social.height }, files };
    });
    published.push(...result.files.map((file) => join(result.dir, file)));
    manifest.social = { ...result.entry, src: publicPrefix + result.entry.src };
  }
  warnUnused(files, found);
  publish(published);
  writeManifest(manifest);
  const count = manifest.slides.filter(Boolean).length + (manifest.about ? 1 : 0);
  console.log(
    `[photos] ${count} photo(s), ${encoded} encoded, ${published.length} files in public/photos/, ${Date.now() - started} ms`,
  );
}

/**
 * Names each file in photos/ the build does not use: a copy, a misspelt or non-ASCII name, another format, a .json
 * with no photo beside it. A warning, not a stop: the site builds with the photos it recognises.
 */
function warnUnused(files, photos) {
  const used = new Set(photos.flatMap((photo) => [photo.name, `${photo.key}.json`]));
  const names = slots.map((slot) => slot.key).join(", ");
  for (const file of files.filter((file) => !file.startsWith(".") && file !== "README.md" && !used.has(file)))
    console.warn(
      /\.json$/i.test(file) && slots.some((slot) => file === `${slot.key}.json`)
        ? `[photos] warning: photos/${file} is not used: there is no ${file.slice(0, -5)} photo beside it`
        : `[photos] warning: photos/${file} is not used: the build takes only ${names} (${extensions.join(", ")}), each with a .json beside it (docs/photos.md)`,
    );
}

function writeManifest(manifest) {
  const text = [
    "// Written by scripts/photos.mjs (npm run build) from photos/: do not edit. See docs/photos.md.",
    'import type { PhotoManifest } from "./photo-types";',
    "",
    `export const photos: PhotoManifest = ${JSON.stringify(manifest, null, 2)};`,
    "",
  ].join("\n");
  // Unchanged content keeps the file's time, so the test helpers' "is the build stale" check is not fooled.
  if (!existsSync(manifestFile) || readFileSync(manifestFile, "utf8") !== text) writeFileSync(manifestFile, text);
}

/** public/photos/ holds exactly the files the manifest names. */
function publish(files) {
  rmSync(outputDir, { recursive: true, force: true });
  mkdirSync(outputDir, { recursive: true });
  for (const file of files) copyFileSync(join(cacheDir, file), join(outputDir, file.split("/").at(-1)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(cacheDir, { recursive: true });
  try {
    await encodeAll();
  } catch (error) {
    // One line the owner can act on, not a stack trace.
    const message = error instanceof PhotoProblem ? error.message : `failed: ${String(error.message).split("\n")[0]}`;
    console.error(`[photos] ${message}`);
    process.exitCode = 1;
  }
}
