import { randomUUID } from "node:crypto";
import { time } from "~/store/rows.server";
import { transaction, type Row, type SqlClient } from "~/store/sql.server";
import type { PhotoRendition, PhotoShape, PhotoStore, PhotoUpload } from "~/store/photos.types";

/**
 * The owner's photos in the database: uploads with their original bytes, renditions encoded by one
 * instance at a time under a lease (as the outbox claims notifications), and the encoded files by name. Written once
 * for SQLite and PostgreSQL.
 */

const bytesOf = (value: unknown): Uint8Array =>
  value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBufferLike);

const uploadFrom = (row: Row): PhotoUpload => ({
  id: String(row.id),
  contentType: String(row.content_type),
  width: Number(row.width),
  height: Number(row.height),
  byteSize: Number(row.byte_size),
  fileName: String(row.file_name),
  alt: String(row.alt ?? ""),
  uploadedAt: time(row.uploaded_at),
  uploadedBy: String(row.uploaded_by),
});

const renditionFrom = (row: Row): PhotoRendition => ({
  key: String(row.key),
  uploadId: String(row.upload_id),
  shape: String(row.shape) as PhotoShape,
  focus: { x: Number(row.focus_x), y: Number(row.focus_y) },
  state: String(row.state) as PhotoRendition["state"],
  done: Number(row.done),
  total: Number(row.total),
  entry: row.entry === null || row.entry === undefined ? null : String(row.entry),
  error: row.error === null || row.error === undefined ? null : String(row.error),
});

const uploadColumns = "id, content_type, width, height, byte_size, file_name, alt, uploaded_at, uploaded_by";
const renditionColumns = "key, upload_id, shape, focus_x, focus_y, state, done, total, entry, error";

/** The bytes of each chunk of an original but the last. Stored rows depend on it: never change it. */
export const photoChunkBytes = 1 << 20;

export function photoOperations(db: SqlClient): PhotoStore {
  // PostgreSQL infers an untyped parameter in a SELECT list as text; to SQLite, BYTEA is a numeric affinity that a
  // CAST would turn bytes into a number with.
  const bytesParam = db.dialect === "postgres" ? "CAST(? AS BYTEA)" : "?";

  /** An upload's original, read one chunk at a time into one buffer of its size (never two copies of it at once). */
  async function originalOf(uploadId: string): Promise<Uint8Array> {
    const [upload] = await db.query("SELECT byte_size FROM photo_uploads WHERE id = ?", [uploadId]);
    const size = Number(upload?.byte_size ?? 0);
    const original = new Uint8Array(size);
    let at = 0;
    for (let seq = 0; at < size; seq++) {
      const [row] = await db.query("SELECT bytes FROM photo_chunks WHERE upload_id = ? AND seq = ?", [uploadId, seq]);
      if (!row) break;
      const bytes = bytesOf(row.bytes);
      original.set(bytes.subarray(0, size - at), at);
      at += bytes.byteLength;
    }
    // A missing chunk leaves the photo short: the encoder refuses it as damaged rather than encoding part of it.
    return at >= size ? original : original.subarray(0, at);
  }

  const operations: PhotoStore = {
    async saveUpload(
      { id, original, contentType, width, height, byteSize, fileName, alt = "", uploadedBy },
      now = new Date(),
    ) {
      // The upload and its chunks in one transaction; each chunk is a view of the original (nothing copied here).
      // Chunks are written only with the row this save inserted: the same photo saved before keeps its own.
      const chunks = [];
      for (let seq = 0; seq * photoChunkBytes < original.byteLength || seq === 0; seq++)
        chunks.push({
          sql: `INSERT INTO photo_chunks (upload_id, seq, bytes)
                SELECT id, CAST(? AS INTEGER), ${bytesParam} FROM photo_uploads WHERE id = ? AND uploaded_at = ?
                ON CONFLICT (upload_id, seq) DO NOTHING`,
          params: [seq, original.subarray(seq * photoChunkBytes, (seq + 1) * photoChunkBytes), id, now.getTime()],
        });
      const steps = await transaction(db, [
        {
          name: "inserted",
          sql: `INSERT INTO photo_uploads (id, original, content_type, width, height, byte_size, file_name, alt,
                  uploaded_at, uploaded_by)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id`,
          params: [
            id,
            new Uint8Array(0),
            contentType,
            width,
            height,
            byteSize,
            fileName,
            alt,
            now.getTime(),
            uploadedBy,
          ],
        },
        ...chunks,
      ]);
      return steps.inserted.length === 1;
    },

    async listUploads() {
      // A customer's build-update photos (renditions keyed `build-…` only) are not the site's: left out of its library.
      return (
        await db.query(
          `SELECT ${uploadColumns} FROM photo_uploads u
           WHERE NOT EXISTS (SELECT 1 FROM photo_renditions r WHERE r.upload_id = u.id AND r.key LIKE 'build-%')
              OR EXISTS (SELECT 1 FROM photo_renditions r WHERE r.upload_id = u.id AND r.key NOT LIKE 'build-%')
           ORDER BY uploaded_at DESC, id`,
        )
      ).map(uploadFrom);
    },

    async getUpload(id) {
      const [row] = await db.query(`SELECT ${uploadColumns} FROM photo_uploads WHERE id = ?`, [id]);
      return row ? uploadFrom(row) : null;
    },

    async requestRendition(key, uploadId, shape, { x, y }, now = new Date()) {
      const steps = await transaction(db, [
        {
          sql: `INSERT INTO photo_renditions (key, upload_id, shape, focus_x, focus_y, state, created_at)
                VALUES (?, ?, ?, ?, ?, 'pending', ?) ON CONFLICT (key) DO NOTHING`,
          params: [key, uploadId, shape, x, y, now.getTime()],
        },
        { name: "rendition", sql: `SELECT ${renditionColumns} FROM photo_renditions WHERE key = ?`, params: [key] },
      ]);
      return renditionFrom(steps.rendition[0]!);
    },

    async renditions(keys) {
      if (keys.length === 0) return [];
      const rows = await db.query(
        `SELECT ${renditionColumns} FROM photo_renditions WHERE key IN (${keys.map(() => "?").join(", ")})`,
        [...keys],
      );
      return rows.map(renditionFrom);
    },

    async readyRenditionCount() {
      const [row] = await db.query("SELECT COUNT(*) AS n FROM photo_renditions WHERE state = 'ready'");
      return Number(row?.n ?? 0);
    },

    async pendingRenditionCount() {
      const [row] = await db.query("SELECT COUNT(*) AS n FROM photo_renditions WHERE state = 'pending'");
      return Number(row?.n ?? 0);
    },

    async claimRendition(leaseMs, now = new Date()) {
      const at = now.getTime();
      const token = randomUUID();
      // One statement picks and claims, so two instances never encode the same rendition at once.
      const [claimed] = await db.query(
        `UPDATE photo_renditions SET claim_token = ?, claim_until = ?, attempts = attempts + 1, done = 0
         WHERE key = (SELECT key FROM photo_renditions
                      WHERE state = 'pending' AND (claim_until IS NULL OR claim_until <= ?)
                      ORDER BY created_at, key LIMIT 1)
           AND state = 'pending' AND (claim_until IS NULL OR claim_until <= ?)
         RETURNING ${renditionColumns}, claim_until, attempts`,
        [token, at + leaseMs, at, at],
      );
      if (!claimed) return null;
      return {
        ...renditionFrom(claimed),
        claimToken: token,
        claimUntil: time(claimed.claim_until),
        attempts: Number(claimed.attempts),
        original: await originalOf(String(claimed.upload_id)),
      };
    },

    async addRenditionFile(claim, file, total, leaseMs, now = new Date()) {
      // Content-hashed: the same name is the same bytes, so a file a lost claim wrote is kept as it is (harmless).
      await db.query(
        `INSERT INTO photo_files (name, rendition_key, content_type, bytes) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO NOTHING`,
        [file.name, claim.key, file.contentType, file.bytes],
      );
      const counted = await db.query(
        `UPDATE photo_renditions SET done = done + 1, total = ?, claim_until = COALESCE(CAST(? AS BIGINT), claim_until)
         WHERE key = ? AND claim_token = ? RETURNING key`,
        [total, leaseMs === undefined ? null : now.getTime() + leaseMs, claim.key, claim.claimToken],
      );
      return counted.length === 1;
    },

    async releaseRendition(claim, retryAt) {
      const rows = await db.query(
        `UPDATE photo_renditions SET claim_token = NULL, claim_until = ?
         WHERE key = ? AND claim_token = ? AND state = 'pending' RETURNING key`,
        [retryAt.getTime(), claim.key, claim.claimToken],
      );
      return rows.length === 1;
    },

    async finishRendition(claim, result, now = new Date()) {
      const ready = "entry" in result;
      const rows = await db.query(
        `UPDATE photo_renditions SET state = ?, entry = ?, error = ?, ready_at = ?, claim_token = NULL,
           claim_until = NULL
         WHERE key = ? AND claim_token = ? RETURNING key`,
        [
          ready ? "ready" : "failed",
          ready ? result.entry : null,
          ready ? null : result.error,
          ready ? now.getTime() : null,
          claim.key,
          claim.claimToken,
        ],
      );
      return rows.length === 1;
    },

    async photoFile(name) {
      // A build update's photos (their renditions' keys start with `build-`) are served under their build page only.
      const [row] = await db.query(
        "SELECT name, content_type, bytes FROM photo_files WHERE name = ? AND rendition_key NOT LIKE 'build-%'",
        [name],
      );
      return row ? { name: String(row.name), contentType: String(row.content_type), bytes: bytesOf(row.bytes) } : null;
    },
  };
  return operations;
}
