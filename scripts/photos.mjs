// The owner's photos (photos/, see docs/photos.md) made fit for the web: `node scripts/photos.mjs`, the first step of
// `npm run build` (before `remix build`). It encodes each photo (or takes it from the cache), puts the files in
// public/photos/ (served as /photos/, immutable for a year: server/main.ts) and writes app/content/photos.generated.ts,
// which the server and browser bundles import, so both render the same markup.
//
// Each photo: EXIF orientation applied, cropped to its slot's aspect ratio around the focal point, AVIF + WebP + JPEG
// at every width of `widths` up to its own, content-hashed names, no metadata (GPS, camera) kept, and a 16-px WebP
// placeholder inlined in the page. Encoded files are cached in .cache/photos/ by input bytes + settings, so an
// unchanged photo is never encoded twice. A photo that cannot be used (cut short, damaged, over 50 megapixels, no alt
// text) stops the build with one line naming it and why; a file in photos/ the build does not use gets a warning line.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import sharp from "sharp";

const root = resolve(import.meta.dirname, "..");
const photosDir = join(root, "photos");
const cacheDir = join(root, ".cache", "photos");
const manifestFile = join(root, "app", "content", "photos.generated.ts");
const outputDir = join(root, "public", "photos");
const publicPrefix = "/photos/";

/** Bump when the encoding or the cache entries change in a way the settings below do not show: every photo is then encoded again. */
const encoderVersion = 2;
/**
 * How photos are read: a file cut short or with decoding errors is refused, never encoded with a grey part (libvips'
 * "error" level includes "truncated"); at most 50 megapixels, the cap uploads get, and far above any camera's 12-48.
 */
const decoding = { failOn: "error", limitInputPixels: 50_000_000 };
const formats = {
  avif: { quality: 40, effort: 4 },
  webp: { quality: 70, effort: 4 },
  jpeg: { quality: 72, mozjpeg: true, progressive: true },
};
/**
 * The photo slots: the file name the owner uses (any of `extensions`), its aspect ratio and widths. 720 covers a
 * 390-px phone at 2x and Lighthouse's 412-px phone at 1.75x (665 px) and the 646-px desktop slide at 1x with the
 * fewest bytes; 1080 a phone at 3x.
 */
const slots = [
  { key: "slide-1", aspect: 16 / 9, widths: [480, 720, 1080, 1600, 2400] },
  { key: "slide-2", aspect: 16 / 9, widths: [480, 720, 1080, 1600, 2400] },
  { key: "slide-3", aspect: 16 / 9, widths: [480, 720, 1080, 1600, 2400] },
  { key: "about", aspect: 3 / 2, widths: [480, 720, 1080, 1600] },
];
const extensions = [".jpg", ".jpeg", ".png", ".webp"];
const placeholderWidth = 16;
/** Link previews (Open Graph, Twitter): 1200 x 630 from the first slide's photo, or its drawn art. */
const social = { width: 1200, height: 630, art: join(root, "public", "images", "carousel", "large-custom-prop.svg") };

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

/** The photo's size from its header, refused when over the cap (before anything decodes it). */
async function checkSize(photo) {
  let size;
  try {
    size = await sharp(photo.file, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new PhotoProblem(`photos/${photo.name} ${unreadable(error)}`);
  }
  const megapixels = (size.width * size.height) / 1e6;
  if (size.width * size.height > decoding.limitInputPixels)
    throw new PhotoProblem(
      `photos/${photo.name} is ${size.width} x ${size.height} pixels (${Math.round(megapixels)} megapixels): the build takes at most ${decoding.limitInputPixels / 1e6} megapixels; save a smaller copy (6000 px wide is plenty)`,
    );
}

/** What a decoding error means for the owner. */
function unreadable(error) {
  const detail = String(error.message).split("\n")[0];
  if (/premature end|truncat|read error|corrupt|unable to parse/i.test(detail))
    return `is cut short or damaged (${detail}): copy it again from the camera or phone`;
  if (/unsupported image format/i.test(detail)) return "is not a JPEG, PNG or WebP picture: save it as JPEG";
  return `cannot be read (${detail}): save it again as JPEG`;
}

/** The largest `aspect` box inside `width` x `height`, centred on the focal point as far as the edges allow. */
export function cropAround({ width, height }, aspect, [fx, fy]) {
  const cropWidth = Math.min(width, Math.round(height * aspect));
  const cropHeight = Math.min(height, Math.round(cropWidth / aspect));
  const clamp = (value, max) => Math.max(0, Math.min(max, Math.round(value)));
  return {
    left: clamp(fx * width - cropWidth / 2, width - cropWidth),
    top: clamp(fy * height - cropHeight / 2, height - cropHeight),
    width: cropWidth,
    height: cropHeight,
  };
}

/** Writes `buffer` into the cache entry under a content-hashed name; returns that name. */
function store(entryDir, stem, ext, buffer) {
  const name = `${stem}-${sha256(buffer).slice(0, 10)}.${ext}`;
  writeFileSync(join(entryDir, name), buffer);
  return name;
}

/** Encodes one photo into `entryDir`; returns its manifest entry (without alt text) and its file names. */
async function encode(slot, photo, entryDir) {
  // Orientation applied first, so the crop and every size are of the photo as it is meant to be seen.
  const oriented = await sharp(photo.file, decoding)
    .rotate()
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch((error) => {
      throw new PhotoProblem(`photos/${photo.name} ${unreadable(error)}`);
    });
  const crop = cropAround(oriented.info, slot.aspect, photo.focus);
  const master = await sharp(oriented.data, { raw: oriented.info })
    .extract(crop)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const input = () => sharp(master.data, { raw: master.info });
  const widths = slot.widths.filter((w) => w <= crop.width);
  if (widths.length === 0) widths.push(crop.width);
  const height = (w) => Math.round(w / slot.aspect);
  const files = [];
  const sources = {};
  for (const [format, options] of Object.entries(formats)) {
    sources[format] = await Promise.all(
      widths.map(async (width) => {
        const buffer = await input().resize(width, height(width)).toFormat(format, options).toBuffer();
        const name = store(entryDir, `${slot.key}-${width}`, format, buffer);
        files.push(name);
        return { width, src: name };
      }),
    );
  }
  const tiny = await input().resize(placeholderWidth, height(placeholderWidth)).webp({ quality: 40 }).toBuffer();
  const largest = widths.at(-1);
  const entry = {
    width: largest,
    height: height(largest),
    ...sources,
    placeholder: `data:image/webp;base64,${tiny.toString("base64")}`,
  };
  // The link-preview image is made from the first slide.
  if (slot.key === "slide-1") entry.social = await socialImage(input(), entryDir, files);
  return { entry, files };
}

async function socialImage(pipeline, entryDir, files) {
  const buffer = await pipeline
    .resize(social.width, social.height, { fit: "cover", position: "attention" })
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
  const name = store(entryDir, "social", "jpg", buffer);
  files.push(name);
  return { src: name, width: social.width, height: social.height };
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

async function encodeAll() {
  const started = Date.now();
  const files = existsSync(photosDir) ? readdirSync(photosDir) : [];
  const manifest = { slides: [], about: null, social: null };
  const published = [];
  const found = [];
  let encoded = 0;
  for (const slot of slots) {
    const photo = findPhoto(slot, files);
    let entry = null;
    if (photo) {
      found.push(photo);
      await checkSize(photo);
      // Decoding settings only refuse files, never change what is encoded: they are not part of the key.
      const settings = JSON.stringify({ encoderVersion, formats, slot, focus: photo.focus, placeholderWidth, social });
      const key = sha256(readFileSync(photo.file), settings).slice(0, 24);
      const result = await cached(key, (dir) => {
        encoded++;
        console.log(`[photos] encoding ${photo.file}`);
        return encode(slot, photo, dir);
      });
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
      const entry = await socialImage(sharp(social.art, { density: 144 }), dir, files);
      return { entry, files };
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
