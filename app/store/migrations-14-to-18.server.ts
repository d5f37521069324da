import type { Migration } from "~/store/sql.server";

/**
 * The schema's versions 14 to 18: the owner's video clips. New versions go at the end of this list.
 */
export const migrations14To18: readonly Migration[] = [
  {
    // The owner's video clips (app/store/videos.server.ts). A phone clip is up to 200 MB and the server runs in
    // 256 MiB, so no row holds a whole file: the original and the encoded clip are kept as 1 MiB chunks, written and
    // read one row at a time. An upload is 'receiving' while its chunks are written (a crash leaves it so, never
    // claimed; the next save of the same bytes starts it again), then 'pending' until one instance at a time has
    // encoded it under a lease (progress in percent for the owner's page), then 'ready' or 'failed'. The poster frame
    // is a photo upload, so the photo encoder makes its AVIF, WebP and JPEG. Originals are kept after encoding, so a
    // clip can be encoded again. Chunks go with their upload (ON DELETE CASCADE, also for one written while the
    // upload was being deleted).
    version: 14,
    statements: [
      `CREATE TABLE video_uploads (
        id TEXT PRIMARY KEY,
        file_name TEXT NOT NULL,
        content_type TEXT NOT NULL,
        byte_size BIGINT NOT NULL,
        duration_ms BIGINT,
        width INTEGER,
        height INTEGER,
        uploaded_at BIGINT NOT NULL,
        uploaded_by TEXT NOT NULL,
        state TEXT NOT NULL,
        progress INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        claim_token TEXT,
        claim_until BIGINT,
        error TEXT,
        created_at BIGINT NOT NULL,
        clip_name TEXT,
        clip_size BIGINT,
        clip_width INTEGER,
        clip_height INTEGER,
        clip_duration_ms BIGINT,
        poster_upload TEXT REFERENCES photo_uploads (id) ON DELETE SET NULL,
        ready_at BIGINT
      )`,
      "CREATE INDEX video_uploads_by_state ON video_uploads (state, created_at)",
      "CREATE INDEX video_uploads_by_clip ON video_uploads (clip_name)",
      `CREATE TABLE video_chunks (
        video_id TEXT NOT NULL REFERENCES video_uploads (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        seq INTEGER NOT NULL,
        bytes BYTEA NOT NULL,
        PRIMARY KEY (video_id, kind, seq)
      )`,
    ],
  },
  {
    // The portfolio project an enquiry was sent about ("Ask for one like this" on a project's page): its id, and its
    // address and title as they were then, since the project may be renamed or taken off the site later. NULL for
    // every other enquiry.
    version: 15,
    statements: [
      "ALTER TABLE enquiries ADD COLUMN about_project_id TEXT",
      "ALTER TABLE enquiries ADD COLUMN about_slug TEXT",
      "ALTER TABLE enquiries ADD COLUMN about_title TEXT",
    ],
  },
];
