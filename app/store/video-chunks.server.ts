import { open, rm, type FileHandle } from "node:fs/promises";
import { collectGarbage } from "~/store/memory.server";
import { transaction, type SqlClient } from "~/store/sql.server";

/**
 * The bytes of a video upload (app/store/videos.server.ts) as rows of 1 MiB: a file on disk into rows and rows into a
 * file, one chunk at a time, so that no whole clip is ever in memory.
 */

/** The bytes of each chunk but the last. Stored rows depend on it (a range is found by it): never change it. */
export const videoChunkBytes = 1 << 20;

export type Kind = "original" | "clip";

const bytesOf = (value: unknown): Uint8Array =>
  value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBufferLike);

/** True while `claim_token` (the save's or the encoder's token) still holds the upload. */
export const held = "EXISTS (SELECT 1 FROM video_uploads WHERE id = ? AND claim_token = ?)";

/** Fills `buffer` from `position` on (a read may give less than asked); how many bytes it got (0: end of file). */
async function readChunk(handle: FileHandle, buffer: Buffer, position: number): Promise<number> {
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/**
 * The file at `path`, chunk by chunk, to `write` (false from it: stop, the claim was lost). One buffer for the whole
 * file: `write` is done with it when its promise settles.
 */
export async function fromFile(path: string, write: (seq: number, bytes: Uint8Array) => Promise<boolean>) {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(videoChunkBytes);
    let size = 0;
    for (let seq = 0; ; seq++) {
      const length = await readChunk(handle, buffer, size);
      if (length === 0) return { held: true, size, chunks: seq };
      if (!(await write(seq, buffer.subarray(0, length)))) return { held: false, size, chunks: seq };
      size += length;
      if (length < buffer.length) return { held: true, size, chunks: seq + 1 };
    }
  } finally {
    await handle.close();
  }
}

/** A new file at `path` with the chunks' bytes; on any error none is left there. */
export async function toFile(path: string, chunks: AsyncIterable<Uint8Array>) {
  const handle = await open(path, "w", 0o600);
  try {
    for await (const bytes of chunks) {
      for (let done = 0; done < bytes.byteLength;)
        done += (await handle.write(bytes, done, bytes.byteLength - done)).bytesWritten;
    }
  } catch (error) {
    await handle.close().catch(() => {});
    await rm(path, { force: true });
    throw error;
  }
  await handle.close();
}

/** Writing and reading one upload's chunks on `db`. */
export function videoChunks(db: SqlClient) {
  /**
   * Each chunk leaves garbage that V8 lets pile up to tens of MiB before it collects: on SQLite the bytes sent to or
   * from the worker, and in the worker each statement that bound them (SQLite's own copy, which V8 does not see); on
   * PostgreSQL a chunk read is a 2 MiB hex string and the buffers it was read into. Left to itself, saving 60 MiB grew
   * the process by 76 MiB on SQLite, and copying it out by 53 MiB on PostgreSQL. So every few chunks, a collection
   * here (the SQLite worker collects by itself after every 4 MiB it moves).
   */
  const collectEvery = (db.dialect === "sqlite" ? 4 : 2) * videoChunkBytes;
  let sinceCollected = 0;
  const moved = async (bytes: number) => {
    sinceCollected += bytes;
    if (sinceCollected < collectEvery) return;
    sinceCollected = 0;
    collectGarbage();
  };

  // PostgreSQL infers an untyped parameter in a SELECT list as text; to SQLite, BYTEA is a numeric affinity that a
  // CAST would turn bytes into a number with.
  const bytesParam = db.dialect === "postgres" ? "CAST(? AS BYTEA)" : "?";

  /**
   * One chunk written while `token` holds the upload in `state`, the lease renewed to `claimUntil` (null: as it is).
   * The UPDATE first: on PostgreSQL it holds the upload's row until the chunk is in, so a claim or a new save that
   * takes the upload over waits for it, and then deletes it; a chunk written without the token is not written at all.
   */
  const writeChunk = async (
    id: string,
    token: string,
    state: "receiving" | "pending",
    kind: Kind,
    seq: number,
    bytes: Uint8Array,
    claimUntil: number | null,
  ) => {
    const steps = await transaction(db, [
      {
        name: "held",
        sql: `UPDATE video_uploads SET claim_until = COALESCE(CAST(? AS BIGINT), claim_until)
              WHERE id = ? AND claim_token = ? AND state = ? RETURNING id`,
        params: [claimUntil, id, token, state],
      },
      {
        sql: `INSERT INTO video_chunks (video_id, kind, seq, bytes)
              SELECT id, CAST(? AS TEXT), CAST(? AS INTEGER), ${bytesParam} FROM video_uploads
              WHERE id = ? AND claim_token = ? AND state = ?
              ON CONFLICT (video_id, kind, seq) DO UPDATE SET bytes = excluded.bytes`,
        params: [kind, seq, bytes, id, token, state],
      },
    ]);
    await moved(bytes.byteLength);
    return steps.held.length === 1;
  };

  /** The bytes of one upload's original or clip of `size` bytes, from `start` up to `end`, one row at a time. */
  async function* chunks(id: string, kind: Kind, size: number, start = 0, end = size): AsyncGenerator<Uint8Array> {
    for (let seq = Math.floor(start / videoChunkBytes); seq * videoChunkBytes < end; seq++) {
      const [row] = await db.query("SELECT bytes FROM video_chunks WHERE video_id = ? AND kind = ? AND seq = ?", [
        id,
        kind,
        seq,
      ]);
      const bytes = row ? bytesOf(row.bytes) : null;
      const offset = seq * videoChunkBytes;
      if (bytes?.byteLength !== Math.min(videoChunkBytes, size - offset))
        throw new Error(`video ${id}: chunk ${seq} of its ${kind} is ${bytes ? "of the wrong size" : "missing"}`);
      await moved(bytes.byteLength);
      yield bytes.subarray(Math.max(start - offset, 0), Math.min(end - offset, bytes.byteLength));
    }
  }

  return { writeChunk, chunks };
}
