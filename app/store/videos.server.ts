import { randomUUID } from "node:crypto";
import { time } from "~/store/rows.server";
import { transaction, type Row, type SqlClient } from "~/store/sql.server";
import { fromFile, held, toFile, videoChunks } from "~/store/video-chunks.server";
import type { VideoStore, VideoUpload } from "~/store/videos.types";

/**
 * The owner's video clips in the database: uploads with their original bytes, encoded by one instance at a time under
 * a lease (as photo renditions are), and the encoded clips. Bytes are kept as chunks of 1 MiB, one row each, and go
 * between the database and files on disk one chunk at a time (app/store/video-chunks.server.ts): a 200 MB clip never
 * sits in the server's 256 MiB. Written once for SQLite and PostgreSQL.
 */

const textOrNull = (value: unknown) => (value === null || value === undefined ? null : String(value));
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

const videoFrom = (row: Row): VideoUpload => ({
  id: String(row.id),
  fileName: String(row.file_name),
  contentType: String(row.content_type),
  byteSize: Number(row.byte_size),
  durationMs: numberOrNull(row.duration_ms),
  width: numberOrNull(row.width),
  height: numberOrNull(row.height),
  uploadedAt: time(row.uploaded_at),
  uploadedBy: String(row.uploaded_by),
  state: String(row.state) as VideoUpload["state"],
  progress: Number(row.progress),
  attempts: Number(row.attempts),
  error: textOrNull(row.error),
  clip:
    row.state === "ready" && row.clip_name !== null && row.clip_name !== undefined
      ? {
          name: String(row.clip_name),
          size: Number(row.clip_size),
          width: Number(row.clip_width),
          height: Number(row.clip_height),
          durationMs: Number(row.clip_duration_ms),
          posterUpload: textOrNull(row.poster_upload),
        }
      : null,
  readyAt: row.ready_at === null || row.ready_at === undefined ? null : time(row.ready_at),
});

const columns = `id, file_name, content_type, byte_size, duration_ms, width, height, uploaded_at, uploaded_by, state,
  progress, attempts, error, clip_name, clip_size, clip_width, clip_height, clip_duration_ms, poster_upload, ready_at`;

export function videoOperations(db: SqlClient): VideoStore {
  // Two instances claiming at once each get a different upload (SQLite runs one write at a time anyway).
  const skipLocked = db.dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";

  const { writeChunk, chunks } = videoChunks(db);

  const readyClip = async (clipName: string) => {
    const [row] = await db.query(
      "SELECT id, clip_size FROM video_uploads WHERE clip_name = ? AND state = 'ready' ORDER BY id LIMIT 1",
      [clipName],
    );
    return row ? { videoId: String(row.id), size: Number(row.clip_size) } : null;
  };

  const count = async (state: string) => {
    const [row] = await db.query("SELECT COUNT(*) AS n FROM video_uploads WHERE state = ?", [state]);
    return Number(row?.n ?? 0);
  };

  const operations: VideoStore = {
    async saveVideoUpload(video, originalPath, now = new Date()) {
      const { id } = video;
      const token = randomUUID();
      // A row still receiving was left by a save that died (or runs beside this one with the same bytes): taken over,
      // its chunks gone. Any other row is these bytes already stored.
      const { taken } = await transaction(db, [
        {
          name: "taken",
          sql: `INSERT INTO video_uploads (id, file_name, content_type, byte_size, duration_ms, width, height,
                  uploaded_at, uploaded_by, state, claim_token, created_at)
                VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, 'receiving', ?, ?)
                ON CONFLICT (id) DO UPDATE SET file_name = excluded.file_name, content_type = excluded.content_type,
                  duration_ms = excluded.duration_ms, width = excluded.width, height = excluded.height,
                  uploaded_at = excluded.uploaded_at, uploaded_by = excluded.uploaded_by,
                  claim_token = excluded.claim_token, created_at = excluded.created_at
                WHERE video_uploads.state = 'receiving' RETURNING id`,
          params: [
            id,
            video.fileName,
            video.contentType,
            video.durationMs,
            video.width,
            video.height,
            now.getTime(),
            video.uploadedBy,
            token,
            now.getTime(),
          ],
        },
        { sql: `DELETE FROM video_chunks WHERE video_id = ? AND ${held}`, params: [id, id, token] },
      ]);
      if (taken.length === 0) return false;
      let written;
      try {
        written = await fromFile(originalPath, (seq, bytes) =>
          writeChunk(id, token, "receiving", "original", seq, bytes, null),
        );
      } catch (error) {
        // Nothing half-stored is left of a save that failed here (a crash leaves it receiving, for the next save).
        await db
          .transaction([
            { sql: `DELETE FROM video_chunks WHERE video_id = ? AND ${held}`, params: [id, id, token] },
            { sql: "DELETE FROM video_uploads WHERE id = ? AND claim_token = ?", params: [id, token] },
          ])
          .catch(() => {});
        throw error;
      }
      if (!written.held) return false;
      const { stored } = await transaction(db, [
        {
          sql: `DELETE FROM video_chunks WHERE video_id = ? AND kind = 'original' AND seq >= ? AND ${held}`,
          params: [id, written.chunks, id, token],
        },
        {
          name: "stored",
          sql: `UPDATE video_uploads SET state = 'pending', byte_size = ?, claim_token = NULL, claim_until = NULL
                WHERE id = ? AND claim_token = ? AND state = 'receiving' RETURNING id`,
          params: [written.size, id, token],
        },
      ]);
      return stored.length === 1;
    },

    async listVideos(ids) {
      if (ids?.length === 0) return [];
      const where = ids ? `WHERE id IN (${ids.map(() => "?").join(", ")})` : "";
      const rows = await db.query(
        `SELECT ${columns} FROM video_uploads ${where} ORDER BY uploaded_at DESC, id`,
        ids ? [...ids] : [],
      );
      return rows.map(videoFrom);
    },

    async getVideo(id) {
      const [row] = await db.query(`SELECT ${columns} FROM video_uploads WHERE id = ?`, [id]);
      return row ? videoFrom(row) : null;
    },

    async claimVideo(leaseMs, now = new Date()) {
      const at = now.getTime();
      const token = randomUUID();
      // One statement picks and claims, so two instances never encode the same upload at once; a clip a lost claim
      // began to write goes with the new claim.
      const { claimed } = await transaction(db, [
        {
          name: "claimed",
          sql: `UPDATE video_uploads SET claim_token = ?, claim_until = ?, attempts = attempts + 1, progress = 0
                WHERE id = (SELECT id FROM video_uploads
                            WHERE state = 'pending' AND (claim_until IS NULL OR claim_until <= ?)
                            ORDER BY created_at, id LIMIT 1${skipLocked})
                  AND state = 'pending' AND (claim_until IS NULL OR claim_until <= ?)
                RETURNING ${columns}, claim_until`,
          params: [token, at + leaseMs, at, at],
        },
        {
          sql: "DELETE FROM video_chunks WHERE kind = 'clip' AND video_id IN (SELECT id FROM video_uploads WHERE claim_token = ?)",
          params: [token],
        },
      ]);
      const [row] = claimed;
      if (!row) return null;
      return { ...videoFrom(row), claimToken: token, claimUntil: time(row.claim_until), leaseMs };
    },

    async copyOriginalToFile(video, path) {
      const id = typeof video === "string" ? video : video.id;
      const [row] = await db.query("SELECT byte_size FROM video_uploads WHERE id = ? AND state <> 'receiving'", [id]);
      if (!row) return false;
      await toFile(path, chunks(id, "original", Number(row.byte_size)));
      return true;
    },

    async copyClipToFile(clipName, path) {
      const clip = await readyClip(clipName);
      if (!clip) return false;
      await toFile(path, chunks(clip.videoId, "clip", clip.size));
      return true;
    },

    async *clipBytes(clipName, range) {
      const clip = await readyClip(clipName);
      if (!clip) throw new Error(`no ready video clip ${clipName}`);
      const { start, end } = range ?? { start: 0, end: clip.size };
      if (!(start >= 0 && start <= end && end <= clip.size))
        throw new RangeError(`bytes ${start} to ${end} are not within video clip ${clipName}`);
      yield* chunks(clip.videoId, "clip", clip.size, start, end);
    },

    async reportVideoProgress(claim, percent, leaseMs, now = new Date()) {
      const rows = await db.query(
        `UPDATE video_uploads SET progress = ?, claim_until = ?
         WHERE id = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
        [Math.round(Math.min(Math.max(percent, 0), 100)), now.getTime() + leaseMs, claim.id, claim.claimToken],
      );
      return rows.length === 1;
    },

    async finishVideo(claim, outcome, now = new Date()) {
      const { id, claimToken: token } = claim;
      const dropClip = { sql: `DELETE FROM video_chunks WHERE video_id = ? AND kind = 'clip' AND ${held}` };
      if ("error" in outcome) {
        const { failed } = await transaction(db, [
          { ...dropClip, params: [id, id, token] },
          {
            name: "failed",
            sql: `UPDATE video_uploads SET state = 'failed', error = ?, claim_token = NULL, claim_until = NULL
                  WHERE id = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
            params: [outcome.error, id, token],
          },
        ]);
        return failed.length === 1;
      }
      // Writing a long clip takes a while: each chunk renews the lease, measured on the caller's clock.
      const started = Date.now();
      const leaseUntil = () => now.getTime() + (Date.now() - started) + claim.leaseMs;
      const { renewed } = await transaction(db, [
        {
          name: "renewed",
          sql: "UPDATE video_uploads SET claim_until = ? WHERE id = ? AND claim_token = ? AND state = 'pending' RETURNING id",
          params: [leaseUntil(), id, token],
        },
        { ...dropClip, params: [id, id, token] },
      ]);
      if (renewed.length === 0) return false;
      const written = await fromFile(outcome.clipPath, (seq, bytes) =>
        writeChunk(id, token, "pending", "clip", seq, bytes, leaseUntil()),
      );
      if (!written.held) return false;
      const { ready } = await transaction(db, [
        {
          sql: `DELETE FROM video_chunks WHERE video_id = ? AND kind = 'clip' AND seq >= ? AND ${held}`,
          params: [id, written.chunks, id, token],
        },
        {
          name: "ready",
          sql: `UPDATE video_uploads SET state = 'ready', progress = 100, error = NULL, clip_name = ?, clip_size = ?,
                  clip_width = ?, clip_height = ?, clip_duration_ms = ?, poster_upload = ?, ready_at = ?,
                  claim_token = NULL, claim_until = NULL
                WHERE id = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
          params: [
            outcome.clipName,
            written.size,
            outcome.width,
            outcome.height,
            outcome.durationMs,
            outcome.posterUpload,
            now.getTime(),
            id,
            token,
          ],
        },
      ]);
      return ready.length === 1;
    },

    async releaseVideo(claim, retryAt) {
      const rows = await db.query(
        `UPDATE video_uploads SET claim_token = NULL, claim_until = ?
         WHERE id = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
        [retryAt.getTime(), claim.id, claim.claimToken],
      );
      return rows.length === 1;
    },

    async retryVideo(id) {
      const rows = await db.query(
        `UPDATE video_uploads SET state = 'pending', attempts = 0, progress = 0, error = NULL, claim_token = NULL,
           claim_until = NULL
         WHERE id = ? AND state = 'failed' RETURNING id`,
        [id],
      );
      return rows.length === 1;
    },

    pendingVideoCount: () => count("pending"),
    readyVideoCount: () => count("ready"),

    async videoClip(clipName) {
      const clip = await readyClip(clipName);
      return clip ? { name: clipName, ...clip, contentType: "video/mp4" } : null;
    },

    async deleteVideo(id) {
      // The chunks by name too, not only by the foreign key's cascade (a connection without foreign keys on).
      const { deleted } = await transaction(db, [
        { sql: "DELETE FROM video_chunks WHERE video_id = ?", params: [id] },
        { name: "deleted", sql: "DELETE FROM video_uploads WHERE id = ? RETURNING id", params: [id] },
      ]);
      return deleted.length === 1;
    },
  };
  return operations;
}
