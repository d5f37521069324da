import { createHash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { open, rm } from "node:fs/promises";
import { join } from "node:path";
import busboy from "busboy";
import { fileTypeFromFile } from "file-type";
import sharp from "sharp";
import { drain, mediaType } from "~/http/body.server";
import { decodeCost, photoLimits, pixelHeader, type DecodeCost } from "~/photos/limits";
import { photoTurn, PhotosBusy, turnAvailable } from "~/photos/turns.server";
import { collectYoungGarbage } from "~/store/memory.server";
import type { PhotoStore } from "~/store/photos.types";
import { scratchFolder } from "~/scratch.server";

/**
 * The Photos page's upload: the multipart body read by a streaming parser (busboy) under the route's
 * cap, the one file written to a temporary file as it arrives (never held in memory: four 25 MB uploads at once took
 * the server past its budget), then, one photo at a time in the process (app/photos/turns.server.ts), judged by its
 * bytes (file-type), its header (pixels, and what decoding it would hold) and a small decode (sharp) before anything is
 * stored. The form's text fields come before the file, so a refusal keeps what was typed.
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
  | "heic"
  | "tooManyPixels"
  | "tooCostly"
  | "unreadable"
  | "notMultipart"
  | "busy";

export interface CheckedPhoto {
  bytes: Uint8Array;
  fileName: string;
  contentType: string;
  width: number;
  height: number;
}

export type UploadRead =
  | { ok: true; fields: UploadFields; photo: CheckedPhoto }
  | { ok: false; fields: UploadFields; problem: UploadProblem; status: number; cost?: DecodeCost };

/**
 * What an upload form holds: the file's field, its own limit, the text fields kept, and whether it waits for a photo
 * turn (a photo is decoded in this process; a clip is judged by ffprobe in its own).
 */
export interface UploadSpec<F extends string> {
  file: string;
  maxFileBytes: number;
  fields: readonly F[];
  photoTurn: boolean;
}

/** The Photos page's upload form. */
export const photoUploadSpec: UploadSpec<keyof UploadFields> = {
  file: "photo",
  maxFileBytes: photoLimits.maxBytes,
  fields: ["alt", "place"],
  photoTurn: true,
};

/** The file as received: on disk until checked (and stored) or refused; `discard()` removes it either way. */
export interface ReceivedFile {
  path: string;
  size: number;
  fileName: string;
  discard(): Promise<void>;
}

export type UploadReceived<F extends string = keyof UploadFields> =
  | { ok: true; fields: Record<F, string>; file: ReceivedFile }
  | { ok: false; fields: Record<F, string>; problem: UploadProblem; status: number };

/** A field's value is never longer than this when parsed (the alt text's own limit is far below). */
const fieldBytes = 4096;

/** The upload's id: the first 24 hex digits of its bytes' SHA-256, so the same photo twice is one upload. */
export const uploadId = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex").slice(0, 24);

/**
 * Reads the upload form under `maxBody` bytes, its file into a temporary file. Never throws for what a client sent.
 * With too many photos already waiting for their turn, refuses at once (503, "busy") and reads nothing.
 */
export async function receiveUpload<F extends string = keyof UploadFields>(
  request: Request,
  maxBody: number,
  spec: UploadSpec<F> = photoUploadSpec as unknown as UploadSpec<F>,
): Promise<UploadReceived<F>> {
  const fields = Object.fromEntries(spec.fields.map((name) => [name, ""])) as Record<F, string>;
  const refused = (problem: UploadProblem, status = 400): UploadReceived<F> => ({ ok: false, fields, problem, status });
  const body = request.body;
  if (mediaType(request) !== "multipart/form-data" || !body) return refused("notMultipart");
  if (spec.photoTurn && !turnAvailable()) {
    drain(body.getReader());
    return refused("busy", 503);
  }

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      limits: { files: 1, fileSize: spec.maxFileBytes, fields: 8, fieldSize: fieldBytes, parts: 12 },
    });
  } catch {
    drain(body.getReader());
    return refused("notMultipart");
  }
  const dir = await scratchFolder("upload-");
  const discard = () => rm(dir, { recursive: true, force: true }).catch(() => {});
  let out: WriteStream | null = null;
  let written: Promise<unknown> = Promise.resolve();
  let fileName = "";
  let fileSize = 0;
  let fileTooLarge = false;
  parser.on("field", (name, value) => {
    if ((spec.fields as readonly string[]).includes(name)) fields[name as F] = value;
  });
  parser.on("file", (name, stream, info) => {
    // A body cut off past the cap ends the file with an error: the refusal is already decided.
    stream.on("error", () => {});
    if (name !== spec.file || out) {
      stream.resume();
      return;
    }
    fileName = info.filename ?? "";
    const file = createWriteStream(join(dir, "upload"));
    out = file;
    written = once(file, "close");
    written.catch(() => {});
    stream.on("data", (chunk: Buffer) => (fileSize += chunk.byteLength));
    stream.on("limit", () => (fileTooLarge = true));
    // The parser waits while the disk catches up (pipe's backpressure): the body is never held in memory.
    stream.pipe(file);
  });
  const finished = new Promise<void>((resolve, reject) => {
    parser.on("close", resolve);
    parser.on("error", reject);
  });
  finished.catch(() => {});

  const reader = body.getReader();
  const fail = async (problem: UploadProblem, status?: number) => {
    (out as WriteStream | null)?.destroy();
    await discard();
    return refused(problem, status);
  };
  try {
    if ((await feedCapped(reader, parser, finished, maxBody)) === "tooLarge") return await fail("tooLarge", 413);
    await finished;
    await written;
  } catch {
    drain(reader);
    return fail("notMultipart");
  }

  if (fileTooLarge) return fail("tooLarge", 413);
  if (!out || (fileSize === 0 && fileName === "")) return fail("noFile");
  if (fileSize === 0) return fail("empty");
  return {
    ok: true,
    fields,
    file: { path: join(dir, "upload"), size: fileSize, fileName: safeFileName(fileName), discard },
  };
}

export type FileCheck =
  | { ok: true; photo: CheckedPhoto }
  | { ok: false; problem: UploadProblem; status: number; cost?: DecodeCost };

/**
 * Checks a received file and reads its bytes (25 MB at most, once the check has passed). Call it in a photo turn
 * (photoTurn), with whatever stores the photo, so that one photo at a time is decoded and held.
 */
export async function checkReceived(file: ReceivedFile): Promise<FileCheck> {
  const checked = await checkPhoto(file.path);
  if (!checked.ok) return { ok: false, problem: checked.problem, status: 400, cost: checked.cost };
  const bytes = await readShared(file.path, file.size);
  const { contentType, width, height } = checked;
  return { ok: true, photo: { bytes, fileName: file.fileName, contentType, width, height } };
}

/**
 * Checks a received file and stores its bytes as an upload, in one photo turn: one photo's bytes in memory at a time.
 * With `keep` false (the form has other refusals) the file is checked, so every refusal is said at once, and not kept.
 * Answers the upload's id (null when not kept), or the check's refusal.
 */
type Refused = Extract<FileCheck, { ok: false }>;
interface StoreFields {
  alt?: string;
  uploadedBy: string;
}
export async function storeReceived(
  store: Pick<PhotoStore, "saveUpload">,
  file: ReceivedFile,
  fields: StoreFields,
): Promise<{ ok: true; id: string } | Refused>;
export async function storeReceived(
  store: Pick<PhotoStore, "saveUpload">,
  file: ReceivedFile,
  fields: StoreFields & { keep: boolean },
): Promise<{ ok: true; id: string | null } | Refused>;
export async function storeReceived(
  store: Pick<PhotoStore, "saveUpload">,
  file: ReceivedFile,
  { alt, uploadedBy, keep = true }: StoreFields & { keep?: boolean },
): Promise<{ ok: true; id: string | null } | Refused> {
  return photoTurn(
    async () => {
      const checked = await checkReceived(file);
      if (!checked.ok) return checked;
      if (!keep) return { ok: true as const, id: null };
      const { photo } = checked;
      const id = uploadId(photo.bytes);
      await store.saveUpload({
        id,
        original: photo.bytes,
        contentType: photo.contentType,
        width: photo.width,
        height: photo.height,
        byteSize: photo.bytes.byteLength,
        fileName: photo.fileName,
        ...(alt === undefined ? {} : { alt }),
        uploadedBy,
      });
      return { ok: true as const, id };
    },
    { release: true },
  );
}

/**
 * The file's bytes in memory shared with the SQLite worker (a SharedArrayBuffer): sending them there to be stored
 * then copies nothing, where a plain buffer is copied twice on the way (50 MB more per 25 MB photo).
 */
async function readShared(path: string, size: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(new SharedArrayBuffer(size));
  const handle = await open(path, "r");
  try {
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return at === size ? bytes : bytes.subarray(0, at);
  } finally {
    await handle.close();
  }
}

/** Reads the upload form and checks its photo in its turn (the route does the same with the storing in the turn). */
export async function readUpload(request: Request, maxBody: number): Promise<UploadRead> {
  const received = await receiveUpload(request, maxBody);
  if (!received.ok) return received;
  const { fields, file } = received;
  try {
    const checked = await photoTurn(() => checkReceived(file));
    return checked.ok ? { ok: true, fields, photo: checked.photo } : { ...checked, fields };
  } catch (error) {
    if (error instanceof PhotosBusy) return { ok: false, fields, problem: "busy", status: 503 };
    throw error;
  } finally {
    await file.discard();
  }
}

/** The name a phone gave the file, for the owner's list only (never a path, never long). */
const safeFileName = (name: string) =>
  name
    .replace(/^.*[\\/]/, "")
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .slice(0, 120) || "photo";

type Check =
  | { ok: true; contentType: string; width: number; height: number }
  | { ok: false; problem: "notImage" | "heic" | "tooManyPixels" | "tooCostly" | "unreadable"; cost?: DecodeCost };

/** What file-type calls a phone's HEIC/HEIF photo (browsers cannot show it; an iPhone can send a JPEG instead). */
const heicTypes = new Set(["image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence"]);

/**
 * What the bytes are (never the name or the browser's type), how large they say the image is, what decoding it would
 * hold (decodeCost), and whether the whole image decodes: a decompression bomb is refused by its header before any
 * pixel is decoded, a truncated file by the decode (shrunk while loading, so a 24-megapixel JPEG decodes to an eighth of
 * its size, a strip at a time).
 */
export async function checkPhoto(input: string): Promise<Check> {
  const type = await fileTypeFromFile(input).catch(() => undefined);
  if (type && heicTypes.has(type.mime)) return { ok: false, problem: "heic" };
  if (!type || !(photoLimits.types as readonly string[]).includes(type.mime)) return { ok: false, problem: "notImage" };
  let width: number;
  let height: number;
  let cost: DecodeCost;
  try {
    const header = await sharp(input, { limitInputPixels: false }).metadata();
    // An AVIF's container is HEIF; one whose pictures are not AV1 (a phone's HEIC) is refused as HEIC.
    if (header.format === "heif" && header.compression !== "av1") return { ok: false, problem: "heic" };
    width = header.autoOrient?.width ?? header.width ?? 0;
    height = header.autoOrient?.height ?? header.height ?? 0;
    cost = decodeCost(pixelHeader(header));
  } catch {
    return { ok: false, problem: "unreadable" };
  }
  if (width === 0 || height === 0) return { ok: false, problem: "unreadable" };
  if (width * height > photoLimits.maxPixels) return { ok: false, problem: "tooManyPixels" };
  if (cost.bytes > photoLimits.maxDecodeBytes) return { ok: false, problem: "tooCostly", cost };
  try {
    await sharp(input, { limitInputPixels: photoLimits.maxPixels, failOn: "truncated", sequentialRead: true })
      .resize(256, 256, { fit: "inside" })
      .raw()
      .toBuffer();
  } catch {
    return { ok: false, problem: "unreadable" };
  }
  return { ok: true, contentType: type.mime, width, height };
}

/**
 * Feeds a multipart body to its parser under `maxBody` bytes, waiting for the parser when it asks (backpressure).
 * Past the cap: the fields up to it are still read (for the form again), nothing more is kept, and the rest is read
 * and thrown away so that the answer reaches the client. Ends the parser when the whole body fitted.
 */
/** How much of a body is read between two young-generation collections (collectYoungGarbage says why). */
const collectEveryBytes = 4 * 1024 * 1024;

export async function feedCapped(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  parser: busboy.Busboy,
  finished: Promise<unknown>,
  maxBody: number,
): Promise<"fed" | "tooLarge"> {
  let size = 0;
  let sinceCollected = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    sinceCollected += value.byteLength;
    if (sinceCollected >= collectEveryBytes) {
      sinceCollected = 0;
      collectYoungGarbage();
    }
    if (size > maxBody) {
      parser.write(value.subarray(0, value.byteLength - (size - maxBody)));
      drain(reader);
      parser.destroy();
      return "tooLarge";
    }
    if (!parser.write(value)) await Promise.race([once(parser, "drain"), finished]);
  }
  parser.end();
  return "fed";
}
