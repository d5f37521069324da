import { createHash } from "node:crypto";
import { once } from "node:events";
import busboy from "busboy";
import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";
import { drain, mediaType } from "~/http/body.server";
import { photoLimits } from "~/photos/limits";

/**
 * The Photos page's upload (issue 25): the multipart body read by a streaming parser (busboy) under the route's cap,
 * the one file buffered once and never copied, then judged by its bytes (file-type), its header and a small decode
 * (sharp) before anything is stored. The form's text fields come before the file, so a refusal keeps what was typed.
 */

export interface UploadFields {
  alt: string;
  place: string;
}

export type UploadProblem =
  | "noFile"
  | "empty"
  | "tooLarge"
  | "notImage"
  | "tooManyPixels"
  | "unreadable"
  | "notMultipart";

export interface CheckedPhoto {
  bytes: Uint8Array;
  fileName: string;
  contentType: string;
  width: number;
  height: number;
}

export type UploadRead =
  | { ok: true; fields: UploadFields; photo: CheckedPhoto }
  | { ok: false; fields: UploadFields; problem: UploadProblem; status: number };

/** A field's value is never longer than this when parsed (the alt text's own limit is far below). */
const fieldBytes = 4096;

/** The upload's id: the first 24 hex digits of its bytes' SHA-256, so the same photo twice is one upload. */
export const uploadId = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex").slice(0, 24);

/** The file's bytes, in one buffer sized from the request's Content-Length (grown only for a chunked body). */
class FileBuffer {
  private buffer: Buffer;
  size = 0;
  constructor(expected: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(1, Math.min(expected, photoLimits.maxBytes)));
  }
  push(chunk: Buffer) {
    if (this.size + chunk.byteLength > this.buffer.byteLength) {
      const grown = Buffer.allocUnsafe(Math.min(photoLimits.maxBytes, 2 * (this.size + chunk.byteLength)));
      this.buffer.copy(grown, 0, 0, this.size);
      this.buffer = grown;
    }
    chunk.copy(this.buffer, this.size);
    this.size += chunk.byteLength;
  }
  release() {
    this.buffer = Buffer.alloc(0);
    this.size = 0;
  }
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.size);
  }
}

/** Reads the upload form under `maxBody` bytes and checks its photo. Never throws for what a client sent. */
export async function readUpload(request: Request, maxBody: number): Promise<UploadRead> {
  const fields: UploadFields = { alt: "", place: "" };
  const refused = (problem: UploadProblem, status = 400): UploadRead => ({ ok: false, fields, problem, status });
  const body = request.body;
  if (mediaType(request) !== "multipart/form-data" || !body) return refused("notMultipart");

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      limits: { files: 1, fileSize: photoLimits.maxBytes, fields: 8, fieldSize: fieldBytes, parts: 12 },
    });
  } catch {
    drain(body.getReader());
    return refused("notMultipart");
  }
  const declared = Number(request.headers.get("content-length"));
  let file: FileBuffer | null = null;
  let fileName = "";
  let fileTooLarge = false;
  parser.on("field", (name, value) => {
    if (name === "alt" || name === "place") fields[name] = value;
  });
  parser.on("file", (name, stream, info) => {
    // A body cut off past the cap ends the file with an error: the refusal is already decided.
    stream.on("error", () => {});
    if (name !== "photo" || file) {
      stream.resume();
      return;
    }
    fileName = info.filename ?? "";
    const buffer = new FileBuffer(Number.isFinite(declared) && declared > 0 ? declared : 1024 * 1024);
    file = buffer;
    stream.on("data", (chunk: Buffer) => {
      if (!fileTooLarge) buffer.push(chunk);
    });
    stream.on("limit", () => {
      fileTooLarge = true;
      buffer.release();
    });
  });
  const finished = new Promise<void>((resolve, reject) => {
    parser.on("close", resolve);
    parser.on("error", reject);
  });
  finished.catch(() => {});

  const reader = body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBody) {
        // Past the cap: the fields up to it are still read (for the form again), nothing more is kept, and the rest
        // is read and thrown away so that the answer reaches the client.
        parser.write(value.subarray(0, value.byteLength - (size - maxBody)));
        drain(reader);
        parser.destroy();
        (file as FileBuffer | null)?.release();
        return refused("tooLarge", 413);
      }
      if (!parser.write(value)) await Promise.race([once(parser, "drain"), finished]);
    }
    parser.end();
    await finished;
  } catch {
    drain(reader);
    return refused("notMultipart");
  }

  const kept = file as FileBuffer | null;
  if (fileTooLarge) return refused("tooLarge", 413);
  if (!kept || (kept.size === 0 && fileName === "")) return refused("noFile");
  if (kept.size === 0) return refused("empty");
  const checked = await checkPhoto(kept.bytes());
  if (!checked.ok) return refused(checked.problem);
  return { ok: true, fields, photo: { ...checked, bytes: kept.bytes(), fileName: safeFileName(fileName) } };
}

/** The name a phone gave the file, for the owner's list only (never a path, never long). */
const safeFileName = (name: string) =>
  name
    .replace(/^.*[\\/]/, "")
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .slice(0, 120) || "photo";

type Check =
  | { ok: true; contentType: string; width: number; height: number }
  | { ok: false; problem: "notImage" | "tooManyPixels" | "unreadable" };

/** One small decode at a time: three uploads at once wait for each other instead of decoding side by side. */
let decoding: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = decoding.then(work, work);
  decoding = run.catch(() => {});
  return run;
}

/**
 * What the bytes are (never the name or the browser's type), how large they say the image is, and whether the whole
 * image decodes: a decompression bomb is refused by its declared size before any pixel is decoded, a truncated file
 * by the decode (shrunk while loading, so a 12-megapixel JPEG decodes to an eighth of its size).
 */
export async function checkPhoto(bytes: Uint8Array): Promise<Check> {
  const type = await fileTypeFromBuffer(bytes).catch(() => undefined);
  if (!type || !(photoLimits.types as readonly string[]).includes(type.mime)) return { ok: false, problem: "notImage" };
  let width: number;
  let height: number;
  try {
    const header = await sharp(bytes, { limitInputPixels: false }).metadata();
    width = header.autoOrient?.width ?? header.width ?? 0;
    height = header.autoOrient?.height ?? header.height ?? 0;
  } catch {
    return { ok: false, problem: "unreadable" };
  }
  if (width === 0 || height === 0) return { ok: false, problem: "unreadable" };
  if (width * height > photoLimits.maxPixels) return { ok: false, problem: "tooManyPixels" };
  try {
    await oneAtATime(() =>
      sharp(bytes, { limitInputPixels: photoLimits.maxPixels, failOn: "truncated" })
        .resize(256, 256, { fit: "inside" })
        .raw()
        .toBuffer(),
    );
  } catch {
    return { ok: false, problem: "unreadable" };
  }
  return { ok: true, contentType: type.mime, width, height };
}
