import type { BodyCap } from "~/http/body-cap";

/**
 * What an uploaded photo may be, for the upload's parser, the encoder and the words that refuse one:
 * real image types only (checked by their bytes), at most 25 MB and 50 megapixels (sharp's input pixel limit: far
 * above any camera's 12-48, far below what a decompression bomb declares), and at most `maxDecodeBytes` of pixels
 * that the decoder must hold at once (see decodeCost).
 */
export const photoLimits = {
  maxBytes: 25 * 1024 * 1024,
  maxPixels: 50_000_000,
  /**
   * What decoding one photo may hold in memory at once. The server has 256 MiB in all, about 150-170 of it its own,
   * and libvips holds about 1.5 times a picture it decodes whole: 48 MiB (a 16-megapixel 8-bit AVIF or progressive
   * JPEG, a 4000 x 3000 interlaced 8-bit RGBA PNG) peaks near 75 MiB; 64 MiB peaked at 98 and came within a few MiB of
   * the budget. Baseline JPEGs, what cameras and phones send, are decoded a strip at a time and need none of it.
   */
  maxDecodeBytes: 48 * 1024 * 1024,
  /** The types a browser can show once encoded, by what their bytes say (file-type's MIME names). */
  types: ["image/jpeg", "image/png", "image/webp", "image/avif"],
} as const;

/**
 * The Photos page's body cap: one photo at its limit (photoLimits.maxBytes) and the form's few short fields
 * (docs/security.md, "Request bodies"). The route streams its body through the multipart parser under this cap itself.
 */
export const photoUploadBodyCap: BodyCap = { maxBytes: 25 * 1024 * 1024 + 64 * 1024, readsOwnBody: true };

/** What the header says about the pixels, as sharp's metadata() names it. */
export interface PixelHeader {
  format: string;
  width: number;
  height: number;
  channels: number;
  /** Bits per sample (8 or 16); sharp's `bitsPerSample`, or from its `depth` ("uchar", "ushort"). */
  bitsPerSample: number;
  /** Interlaced PNG, progressive JPEG. */
  progressive: boolean;
  /** A JPEG's chroma subsampling ("4:2:0", "4:4:4"…), when known. */
  chromaSubsampling?: string;
}

/** How a photo is decoded, which says what it must hold: a strip of rows at a time, or the whole picture. */
export type DecodeKind = "strips" | "whole-png" | "whole-jpeg" | "whole";

export interface DecodeCost {
  kind: DecodeKind;
  /** Bytes the decoder holds at once: width x height x channels x bytes per sample for a whole picture. */
  bytes: number;
}

/** A JPEG's samples per pixel with its chroma subsampling: 4:2:0 keeps one Cb and one Cr sample per four pixels. */
function jpegSamplesPerPixel(subsampling: string | undefined, channels: number): number {
  if (channels === 1) return 1;
  const chroma = { "4:4:4": 1, "4:2:2": 0.5, "4:4:0": 0.5, "4:2:0": 0.25, "4:1:1": 0.25 }[subsampling ?? ""] ?? 1;
  return 1 + (channels - 1) * chroma;
}

/**
 * What decoding the photo costs, read from its header before a pixel is decoded: a 381 KB interlaced
 * 16-bit RGBA PNG of 7000 x 7000 (under the 50-megapixel cap) decodes to 392 MB because an interlaced PNG can only be
 * decoded whole. Baseline JPEGs and plain PNGs are decoded a strip of rows at a time (and JPEGs shrunk while decoded),
 * so they cost a strip; interlaced PNGs cost the whole picture; progressive JPEGs the whole picture's DCT coefficients
 * (16 bits per sample, chroma subsampled as stored); WebP and AVIF are decoded whole by their libraries.
 */
export function decodeCost(header: PixelHeader): DecodeCost {
  const { width, height, channels } = header;
  const bytesPerSample = Math.max(1, Math.ceil(header.bitsPerSample / 8));
  if (header.format === "jpeg") {
    if (!header.progressive) return { kind: "strips", bytes: width * 16 * channels };
    return {
      kind: "whole-jpeg",
      bytes: Math.ceil(width * height * jpegSamplesPerPixel(header.chromaSubsampling, channels) * 2),
    };
  }
  if (header.format === "png") {
    if (!header.progressive) return { kind: "strips", bytes: width * channels * bytesPerSample };
    return { kind: "whole-png", bytes: width * height * channels * bytesPerSample };
  }
  return { kind: "whole", bytes: width * height * channels * bytesPerSample };
}

/** The header fields decodeCost needs, from sharp's metadata() (kept structural: this file imports nothing). */
export function pixelHeader(metadata: {
  format?: string;
  width?: number;
  height?: number;
  channels?: number;
  depth?: string;
  bitsPerSample?: number;
  isProgressive?: boolean;
  chromaSubsampling?: string;
}): PixelHeader {
  const depthBits: Record<string, number> = { uchar: 8, char: 8, ushort: 16, short: 16, uint: 32, int: 32, float: 32 };
  return {
    format: metadata.format ?? "",
    width: metadata.width ?? 0,
    height: metadata.height ?? 0,
    channels: metadata.channels ?? 3,
    bitsPerSample: metadata.bitsPerSample ?? depthBits[metadata.depth ?? ""] ?? 8,
    progressive: metadata.isProgressive ?? false,
    chromaSubsampling: metadata.chromaSubsampling,
  };
}

/** The places a photo can go on the site, as the Photos page names them ("Place"). */
export const photoPlaces = ["slide-1", "slide-2", "slide-3", "about", "none"] as const;
export type PhotoPlace = (typeof photoPlaces)[number];
