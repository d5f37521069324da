import { createHash } from "node:crypto";
import sharp, { type Metadata, type Sharp } from "sharp";
import type { Photo, PhotoSource } from "../wording/photo-types";

/**
 * The one photo encoder (docs/photos.md), used by the build (scripts/photos.mjs, for photos/) and by the server's
 * background encoder (server/photo-encoder-loop.ts, for the owner's uploads): the photo turned upright, cropped to its
 * place's shape around the focal point, AVIF + WebP + JPEG at the widths the pages use, a 16-px WebP placeholder and,
 * for slides, the 1200 x 630 link-preview JPEG. Every output is encoded from raw pixels, so no metadata of the
 * original (EXIF with GPS, camera and dates, XMP, IPTC, ICC) can reach it.
 *
 * Node runs this file from scripts/photos.mjs by stripping its types: it imports only packages, node builtins and
 * types (erased), never `~/` paths, and uses no TypeScript syntax that needs compiling.
 */

/** The same cap as photoLimits.maxPixels (app/photos/limits.ts; a test keeps them equal): sharp's input limit. */
export const maxPixels = 50_000_000;

/**
 * How photos are read: a file cut short or with decoding errors is refused, never encoded with a grey part (libvips'
 * "error" level includes "truncated"); at most 50 megapixels, far above any camera's 12-48, far below a bomb's claim.
 */
const decoding = { failOn: "error", limitInputPixels: maxPixels } as const;

/**
 * AVIF at 4:2:0 (sharp's default is 4:4:4): the AV1 encoder then holds half the chroma planes — its buffers were the
 * largest piece of an upload's encoding, about 150 MB for a 2400-px slide — and the files are smaller; a photo's
 * colour detail does not need full-resolution chroma at these qualities.
 */
export const formats = {
  avif: { quality: 40, effort: 4, chromaSubsampling: "4:2:0" },
  webp: { quality: 70, effort: 4 },
  jpeg: { quality: 72, mozjpeg: true, progressive: true },
} as const;
export type PhotoFormat = keyof typeof formats;

const contentTypes: Record<PhotoFormat, string> = { avif: "image/avif", webp: "image/webp", jpeg: "image/jpeg" };

/**
 * The shapes a place crops to, and their widths. 720 covers a 390-px phone at 2x and Lighthouse's 412-px phone at
 * 1.75x (665 px) and the 646-px desktop slide at 1x with the fewest bytes; 1080 a phone at 3x.
 */
export const shapes: Record<"slide" | "about" | "work" | "poster", { aspect: number | null; widths: readonly number[] }> = {
  slide: { aspect: 16 / 9, widths: [480, 720, 1080, 1600, 2400] },
  about: { aspect: 3 / 2, widths: [480, 720, 1080, 1600] },
  /** A project's photos on the Work pages: the cards and the project's gallery. */
  work: { aspect: 4 / 3, widths: [480, 720, 1080, 1600] },
  /** A video clip's poster frame: the clip's own shape (null), at most its 720-px-high size. */
  poster: { aspect: null, widths: [480, 720, 1280] },
};
export type Shape = keyof typeof shapes;

export const placeholderWidth = 16;
/**
 * The widest AVIF: a 2x desktop slide needs 1292 px, a 3x phone 1170. The AV1 encoder's memory grows with the
 * picture: 53 MB at 1600 px, 35 at 1280, while the whole server has 256 MiB; browsers that want more take the WebP.
 */
export const avifMaxWidth = 1280;

/** The AVIF sizes of a photo: its sizes up to avifMaxWidth, and avifMaxWidth itself in place of the wider ones. */
export function avifWidthsOf(widths: readonly number[]): number[] {
  const within = widths.filter((width) => width <= avifMaxWidth);
  if (widths.some((width) => width > avifMaxWidth) && !within.includes(avifMaxWidth)) within.push(avifMaxWidth);
  return within;
}
/** The link-preview image (Open Graph, Twitter), made from a slide's photo. */
export const social = { width: 1200, height: 630 } as const;

/** The image types the site takes, as sharp's decoders name them (AVIF is read by the HEIF decoder). */
const accepted: Record<string, string> = { jpeg: "image/jpeg", png: "image/png", webp: "image/webp", heif: "image/avif" };

export type RefusalReason = "not-image" | "too-large" | "damaged";

/** A photo that cannot be used: why, in a word the caller turns into its own sentence, and what the decoder said. */
export class PhotoRefused extends Error {
  reason: RefusalReason;
  detail: string;
  width: number;
  height: number;
  constructor(reason: RefusalReason, detail: string, size: { width: number; height: number } = { width: 0, height: 0 }) {
    super(`${reason}: ${detail}`);
    this.name = "PhotoRefused";
    this.reason = reason;
    this.detail = detail;
    this.width = size.width;
    this.height = size.height;
  }
}

/** What a decoding error means: the file is damaged or cut short, or it is not a picture sharp can read. */
function refusal(error: unknown): PhotoRefused {
  if (error instanceof PhotoRefused) return error;
  const detail = String((error as Error)?.message ?? error).split("\n")[0]!;
  if (/unsupported image format|bad seek|not a known file format/i.test(detail))
    return new PhotoRefused("not-image", detail);
  if (/pixel limit/i.test(detail)) return new PhotoRefused("too-large", detail);
  return new PhotoRefused("damaged", detail);
}

export interface PhotoHeader {
  /** The MIME type of what the bytes are (not what a name or a browser says). */
  contentType: string;
  /** As the photo is meant to be seen (EXIF orientation applied). */
  width: number;
  height: number;
  /** As its pixels are stored, and the EXIF orientation (1-8) that turns them upright. */
  storedWidth: number;
  storedHeight: number;
  orientation: number;
}

/**
 * Reads the photo's header only (nothing is decoded): its type and size. Refuses what is not a JPEG, PNG, WebP or
 * AVIF picture (an SVG, HTML or GIF too) and anything over 50 megapixels, with a PhotoRefused.
 */
export async function inspectPhoto(input: Uint8Array | string): Promise<PhotoHeader> {
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw refusal(error);
  }
  const contentType = accepted[metadata.format];
  // HEIF that is not AV1 (a phone's HEIC) cannot be shown by browsers and is not taken.
  if (!contentType || (metadata.format === "heif" && metadata.compression !== "av1"))
    throw new PhotoRefused("not-image", `a ${metadata.format} file`);
  const { width, height } = metadata.autoOrient ?? metadata;
  if (!width || !height || !metadata.width || !metadata.height) throw new PhotoRefused("damaged", "no size in its header");
  if (width * height > maxPixels)
    throw new PhotoRefused("too-large", `${width} x ${height} pixels`, { width, height });
  const orientation = metadata.orientation && metadata.orientation <= 8 ? metadata.orientation : 1;
  return { contentType, width, height, storedWidth: metadata.width, storedHeight: metadata.height, orientation };
}

/**
 * Decodes the whole photo (at a small size, so little memory) to refuse one that is cut short or damaged, which the
 * header alone does not show. Resolves with its header.
 */
export async function verifyPhoto(input: Uint8Array | string): Promise<PhotoHeader> {
  const header = await inspectPhoto(input);
  try {
    await sharp(input, { ...decoding, sequentialRead: true })
      .resize(64, 64, { fit: "inside" })
      .raw()
      .toBuffer();
  } catch (error) {
    throw refusal(error);
  }
  return header;
}

/** The largest `aspect` box inside `width` x `height`, centred on the focal point as far as the edges allow. */
export function cropAround(
  { width, height }: { width: number; height: number },
  aspect: number,
  focus: { x: number; y: number },
): { left: number; top: number; width: number; height: number } {
  const cropWidth = Math.min(width, Math.round(height * aspect));
  const cropHeight = Math.min(height, Math.round(cropWidth / aspect));
  const clamp = (value: number, max: number) => Math.max(0, Math.min(max, Math.round(value)));
  return {
    left: clamp(focus.x * width - cropWidth / 2, width - cropWidth),
    top: clamp(focus.y * height - cropHeight / 2, height - cropHeight),
    width: cropWidth,
    height: cropHeight,
  };
}

/**
 * Where a box of the upright photo lies in its pixels as stored (before EXIF `orientation` turns them), so the crop can
 * be cut out while the photo is decoded and only the crop's pixels turned.
 */
export function storedBox(
  box: { left: number; top: number; width: number; height: number },
  stored: { width: number; height: number },
  orientation: number,
): { left: number; top: number; width: number; height: number } {
  const { left, top, width, height } = box;
  const W = stored.width;
  const H = stored.height;
  switch (orientation) {
    case 2:
      return { left: W - left - width, top, width, height };
    case 3:
      return { left: W - left - width, top: H - top - height, width, height };
    case 4:
      return { left, top: H - top - height, width, height };
    case 5:
      return { left: top, top: left, width: height, height: width };
    case 6:
      return { left: top, top: H - left - width, width: height, height: width };
    case 7:
      return { left: W - top - height, top: H - left - width, width: height, height: width };
    case 8:
      return { left: W - top - height, top: left, width: height, height: width };
    default:
      return box;
  }
}

/** Turns stored pixels upright for an EXIF orientation (sharp's own rotate() would need the whole photo decoded). */
export function upright(pipeline: Sharp, orientation: number): Sharp {
  switch (orientation) {
    case 2:
      return pipeline.flop();
    case 3:
      return pipeline.rotate(180);
    case 4:
      return pipeline.flip();
    case 5:
      return pipeline.rotate(270).flop();
    case 6:
      return pipeline.rotate(90);
    case 7:
      return pipeline.rotate(90).flop();
    case 8:
      return pipeline.rotate(270);
    default:
      return pipeline;
  }
}

/** One encoded file: its content-hashed name, type and bytes. */
export interface EncodedFile {
  name: string;
  contentType: string;
  bytes: Buffer;
}

/** What a file is, for its name: a width and format, or the link-preview image; `hash` is 10 hex of its bytes. */
export type FileNamer = (file: { kind: "size"; width: number; format: PhotoFormat; hash: string } | { kind: "social"; hash: string }) => string;

/** The uploads' names, served from the database: `p-1a2b3c4d5e-720.avif`, `p-1a2b3c4d5e-social.jpg`. */
export const uploadFileName: FileNamer = (file) =>
  file.kind === "social" ? `p-${file.hash}-social.jpg` : `p-${file.hash}-${file.width}.${file.format}`;

/** The names an upload's files can have (anything else is no file, without asking the database). */
export const uploadFileNamePattern = /^p-[0-9a-f]{10}-(?:[1-9][0-9]{0,4}\.(?:avif|webp|jpeg)|social\.jpg)$/;

const hashOf = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex").slice(0, 10);

/** A rendition's entry: the `Photo` of app/wording/photo-types.ts without its alt text, and a slide's link preview. */
export type RenditionEntry = Omit<Photo, "alt"> & { social?: { src: string; width: number; height: number } };

export interface EncodeOptions {
  /** How files are named (default: the uploads' names). */
  name?: FileNamer;
  /** Put before each name in the entry's `src` (default `/photos/`). */
  srcPrefix?: string;
  /** Whether to make the link-preview image (default: for slides). */
  social?: boolean;
  /**
   * Called once the photo is decoded into the small working copy, before the files are encoded: the caller lets go of
   * its bytes there (the server drops a 25 MB original and collects it, so it is not held beside the AV1 encoder).
   */
  afterDecode?: () => void;
}

/**
 * Encodes one photo for a shape around its focal point, one file at a time: `onFile(file, total)` after each (so a
 * caller can store it and count), then resolves with the entry. A photo that cannot be decoded (cut short, damaged,
 * not an image, over 50 megapixels) rejects with a PhotoRefused.
 */
export async function encodeRendition(
  input: Uint8Array | string,
  shape: Shape,
  focus: { x: number; y: number },
  onFile: (file: EncodedFile, total: number) => void | Promise<void>,
  options: EncodeOptions = {},
): Promise<RenditionEntry> {
  const { name = uploadFileName, srcPrefix = "/photos/", social: withSocial = shape === "slide" } = options;
  const header = await inspectPhoto(input);
  const aspect = shapes[shape].aspect ?? header.width / header.height;
  const allWidths = shapes[shape].widths;
  // The crop is cut out of the stored pixels and shrunk to the widest size made from it while the photo is decoded, a
  // strip at a time (turning the photo upright first made libvips decode all of it, 100 MB more for a
  // 26-megapixel JPEG); only that small copy is turned upright. It is all that is held while the sizes are encoded
  // from it: a 12-megapixel slide's copy is 2400 x 1350, 10 MB instead of 27.
  const crop = cropAround(header, aspect, focus);
  const largestWidth = Math.max(...allWidths);
  const targetWidth = Math.min(crop.width, largestWidth);
  const targetHeight = Math.max(1, Math.round((crop.height * targetWidth) / crop.width));
  const turned = header.orientation >= 5;
  // Transparency is flattened onto black (what the JPEG always showed): an alpha plane doubled the AV1 encoder's
  // memory (98 MB instead of 53 for a 1600-px slide), and a photo on the site's dark pages needs none.
  const master = await sharp(input, { ...decoding, sequentialRead: true })
    .extract(storedBox(crop, { width: header.storedWidth, height: header.storedHeight }, header.orientation))
    .resize(turned ? targetHeight : targetWidth, turned ? targetWidth : targetHeight, { fit: "fill" })
    .flatten({ background: "#000000" })
    .raw()
    .toBuffer({ resolveWithObject: true })
    .then(({ data, info }) => upright(sharp(data, { raw: info }), header.orientation).raw().toBuffer({ resolveWithObject: true }))
    .catch((error: unknown) => {
      throw refusal(error);
    });
  // The original is not needed from here on: only the working copy is.
  input = "";
  options.afterDecode?.();
  const pixels = () => sharp(master.data, { raw: master.info });
  const widths: number[] = allWidths.filter((w) => w <= crop.width);
  if (widths.length === 0) widths.push(crop.width);
  const height = (w: number) => Math.round(w / aspect);
  const sizes: Record<PhotoFormat, number[]> = { avif: avifWidthsOf(widths), webp: widths, jpeg: widths };
  const total = sizes.avif.length + sizes.webp.length + sizes.jpeg.length + (withSocial ? 1 : 0);
  const sources = {} as Record<PhotoFormat, PhotoSource[]>;
  for (const format of Object.keys(formats) as PhotoFormat[]) {
    sources[format] = [];
    for (const width of sizes[format]) {
      const bytes = await pixels().resize(width, height(width)).toFormat(format, formats[format]).toBuffer();
      const file = { name: name({ kind: "size", width, format, hash: hashOf(bytes) }), contentType: contentTypes[format], bytes };
      await onFile(file, total);
      sources[format].push({ width, src: srcPrefix + file.name });
    }
  }
  const tiny = await pixels().resize(placeholderWidth, height(placeholderWidth)).webp({ quality: 40 }).toBuffer();
  const largest = widths.at(-1)!;
  const entry: RenditionEntry = {
    width: largest,
    height: height(largest),
    ...sources,
    placeholder: `data:image/webp;base64,${tiny.toString("base64")}`,
  };
  if (withSocial) {
    const bytes = await socialImage(pixels());
    const file = { name: name({ kind: "social", hash: hashOf(bytes) }), contentType: "image/jpeg", bytes };
    await onFile(file, total);
    entry.social = { src: srcPrefix + file.name, width: social.width, height: social.height };
  }
  return entry;
}

/** The 1200 x 630 link-preview JPEG of a picture (a slide's crop, or the build's drawn art). */
export function socialImage(pipeline: Sharp): Promise<Buffer> {
  return pipeline
    .resize(social.width, social.height, { fit: "cover", position: "attention" })
    .jpeg({ quality: 80, mozjpeg: true })
    .toBuffer();
}
