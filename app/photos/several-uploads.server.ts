import { once } from "node:events";
import { createWriteStream, type WriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import busboy from "busboy";
import { drain, mediaType } from "~/http/body.server";
import { turnAvailable } from "~/photos/turns.server";
import { feedCapped, type ReceivedFile, type UploadProblem } from "~/photos/upload.server";
import { scratchFolder } from "~/scratch.server";

/**
 * A form with a few photos in one multipart body (a build update's, up to six): the body read by busboy under the
 * route's cap, each file written to its own temporary file as it arrives (never held in memory), each under the one
 * photo's limit. Each file is then checked like any upload (checkReceived, in the photo turn) by the caller. The text
 * fields come before the files, so a refusal keeps what was typed.
 */

export type SeveralReceived<F extends string> =
  | { ok: true; fields: Record<F, string>; files: ReceivedFile[] }
  | { ok: false; fields: Record<F, string>; problem: UploadProblem | "tooManyFiles"; status: number };

export interface SeveralSpec<F extends string> {
  /** The files' field (the same name for every file: `<input type=file multiple>`). */
  file: string;
  maxFiles: number;
  maxFileBytes: number;
  fields: readonly F[];
  /** The longest a text field may be (bytes); longer is cut off, and the caller's own check refuses it. */
  fieldBytes: number;
}

const safeFileName = (name: string) =>
  name
    .replace(/^.*[\\/]/, "")
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .slice(0, 120) || "photo";

export async function receiveSeveral<F extends string>(
  request: Request,
  maxBody: number,
  spec: SeveralSpec<F>,
): Promise<SeveralReceived<F>> {
  const fields = Object.fromEntries(spec.fields.map((name) => [name, ""])) as Record<F, string>;
  const refused = (problem: UploadProblem | "tooManyFiles", status = 400): SeveralReceived<F> => ({
    ok: false,
    fields,
    problem,
    status,
  });
  const body = request.body;
  if (mediaType(request) !== "multipart/form-data" || !body) return refused("notMultipart");
  if (!turnAvailable()) {
    drain(body.getReader());
    return refused("busy", 503);
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      // One file past the most, so that too many is told apart from the most.
      limits: {
        files: spec.maxFiles + 1,
        fileSize: spec.maxFileBytes,
        fields: spec.fields.length + 4,
        fieldSize: spec.fieldBytes,
        parts: spec.maxFiles + spec.fields.length + 6,
      },
    });
  } catch {
    drain(body.getReader());
    return refused("notMultipart");
  }
  const dir = await scratchFolder("uploads-");
  const discard = () => rm(dir, { recursive: true, force: true }).catch(() => {});
  const received: { path: string; name: string; size: number; out: WriteStream; done: Promise<unknown> }[] = [];
  let tooLarge = false;
  let tooMany = false;
  parser.on("field", (name, value) => {
    if ((spec.fields as readonly string[]).includes(name)) fields[name as F] = value;
  });
  parser.on("file", (name, stream, info) => {
    stream.on("error", () => {});
    // A file input left empty still sends a part with no name and no bytes.
    if (name !== spec.file || !info.filename) {
      stream.resume();
      return;
    }
    if (received.length >= spec.maxFiles) {
      tooMany = true;
      stream.resume();
      return;
    }
    const path = join(dir, `upload-${received.length}`);
    const out = createWriteStream(path);
    const done = once(out, "close");
    done.catch(() => {});
    const file = { path, name: safeFileName(info.filename), size: 0, out, done };
    received.push(file);
    stream.on("data", (chunk: Buffer) => (file.size += chunk.byteLength));
    stream.on("limit", () => (tooLarge = true));
    stream.pipe(out);
  });
  parser.on("filesLimit", () => (tooMany = true));
  const finished = new Promise<void>((resolve, reject) => {
    parser.on("close", resolve);
    parser.on("error", reject);
  });
  finished.catch(() => {});
  const fail = async (problem: UploadProblem | "tooManyFiles", status?: number) => {
    for (const file of received) file.out.destroy();
    await discard();
    return refused(problem, status);
  };
  const reader = body.getReader();
  try {
    if ((await feedCapped(reader, parser, finished, maxBody)) === "tooLarge") return await fail("tooLarge", 413);
    await finished;
    await Promise.all(received.map((file) => file.done));
  } catch {
    drain(reader);
    return fail("notMultipart");
  }
  if (tooLarge) return fail("tooLarge", 413);
  if (tooMany) return fail("tooManyFiles", 400);
  if (received.some((file) => file.size === 0)) return fail("empty");
  // No file (a text-only update): nobody will discard one, so the folder goes now.
  if (received.length === 0) await discard();
  // Each file's discard removes the whole folder: the caller discards them all at once when done.
  return {
    ok: true,
    fields,
    files: received.map((file) => ({ path: file.path, size: file.size, fileName: file.name, discard })),
  };
}
