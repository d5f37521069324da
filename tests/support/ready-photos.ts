import { createHash } from "node:crypto";
import sharp from "sharp";
import type { PhotoSource } from "../../app/wording/photo-types";
import type { RenditionEntry } from "../../app/site-content/public-photos.server";
import type { ClaimedRendition } from "../../app/store/photos.types";
import type { PhotoStore } from "../../app/store/photos.types";

/**
 * Uploads and ready renditions made by a test itself, through the store's own operations (saveUpload, claimRendition,
 * addRenditionFile, finishRendition), so a public-page test need not wait for the background encoder. The files are
 * real (sharp, small widths), named by their content's hash as the encoder names them; the entry has the shape the
 * encoder writes (app/site-content/public-photos.server.ts reads it).
 */

const hash = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A photo-like JPEG (a gradient with a bright figure), `seed` making each one's bytes different. */
export async function cameraLikeJpeg(seed: number, width = 1600, height = 1200): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${(seed * 67) % 360},60%,20%)"/><stop offset="1" stop-color="#111"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${width / 2}" cy="${height / 3}" r="${height / 6}" fill="hsl(${(seed * 31) % 360},80%,60%)"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/** Keeps an upload of `bytes` as the Photos page would; resolves with its id (the first 24 hex of its hash). */
export async function saveTestUpload(store: PhotoStore, bytes: Buffer, fileName = "IMG_0001.jpg"): Promise<string> {
  const id = hash(bytes).slice(0, 24);
  const { width = 0, height = 0 } = await sharp(bytes).metadata();
  await store.saveUpload({
    id,
    original: bytes,
    contentType: "image/jpeg",
    width,
    height,
    byteSize: bytes.length,
    fileName,
    uploadedBy: "test@grimforge.example",
  });
  return id;
}

const widths = [480, 720];

async function encode(claim: ClaimedRendition, store: PhotoStore): Promise<RenditionEntry> {
  // The encoder's shapes (app/photos/encoder.server.ts); a video's poster is taken as a 16:9 frame.
  const [ratioW, ratioH] =
    claim.shape === "slide" || claim.shape === "poster" ? [16, 9] : claim.shape === "work" ? [4, 3] : [3, 2];
  const crop = (width: number) =>
    sharp(claim.original)
      .rotate()
      .resize(width, Math.round((width * ratioH) / ratioW), { fit: "cover" });
  const total = widths.length * 3 + (claim.shape === "slide" ? 1 : 0);
  const put = async (format: "avif" | "webp" | "jpeg", width: number, bytes: Buffer): Promise<PhotoSource> => {
    const extension = format === "jpeg" ? "jpg" : format;
    const name = `${claim.shape}-${width}-${hash(bytes).slice(0, 10)}.${extension}`;
    if (!(await store.addRenditionFile(claim, { name, contentType: `image/${format}`, bytes }, total)))
      throw new Error(`lost the claim on ${claim.key}`);
    return { width, src: `/photos/${name}` };
  };
  const sources = { avif: [] as PhotoSource[], webp: [] as PhotoSource[], jpeg: [] as PhotoSource[] };
  for (const width of widths) {
    sources.avif.push(await put("avif", width, await crop(width).avif({ quality: 50, effort: 0 }).toBuffer()));
    sources.webp.push(await put("webp", width, await crop(width).webp({ quality: 70 }).toBuffer()));
    sources.jpeg.push(await put("jpeg", width, await crop(width).jpeg({ quality: 80 }).toBuffer()));
  }
  const tiny = await crop(16).webp({ quality: 40 }).toBuffer();
  const largest = widths.at(-1)!;
  const entry: RenditionEntry = {
    width: largest,
    height: Math.round((largest * ratioH) / ratioW),
    ...sources,
    placeholder: `data:image/webp;base64,${tiny.toString("base64")}`,
  };
  if (claim.shape === "slide") {
    const social = await sharp(claim.original).rotate().resize(1200, 630, { fit: "cover" }).jpeg().toBuffer();
    const { src } = await put("jpeg", 1200, social);
    entry.social = { src, width: 1200, height: 630 };
  }
  return entry;
}

/**
 * Encodes and finishes every pending rendition it can claim (as the background encoder would), then waits until each
 * of `keys` is ready, whoever encoded it: the servers under test run their own encoder and may claim one first.
 * Resolves with the entries of `keys`.
 */
export async function finishPendingRenditions(
  store: PhotoStore,
  keys: readonly string[],
  timeoutMs = 180_000,
): Promise<Map<string, RenditionEntry>> {
  for (let claim = await store.claimRendition(60_000); claim; claim = await store.claimRendition(60_000)) {
    const entry = await encode(claim, store);
    await store.finishRendition(claim, { entry: JSON.stringify(entry) });
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const renditions = await store.renditions(keys);
    const failed = renditions.find((rendition) => rendition.state === "failed");
    if (failed) throw new Error(`rendition ${failed.key} failed: ${failed.error ?? ""}`);
    if (renditions.length === keys.length && renditions.every((rendition) => rendition.state === "ready")) {
      return new Map(renditions.map((rendition) => [rendition.key, JSON.parse(rendition.entry!) as RenditionEntry]));
    }
    if (Date.now() > deadline) throw new Error(`renditions not ready after ${timeoutMs} ms: ${keys.join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
