import type { Migration } from "~/store/sql.server";

/**
 * The schema's versions from 19: photos' originals in chunks. New versions go at the end of this list.
 */
export const migrations19To23: readonly Migration[] = [
  {
    // A photo's original in 1 MiB chunks (as a clip's, version 14): one 25 MB value was copied twice by the database
    // driver while it was written, 50 MB beside the upload's own 25 within the 256 MiB budget. The originals stored
    // before are moved into one chunk each; the column keeps an empty value.
    version: 19,
    statements: [
      `CREATE TABLE photo_chunks (
        upload_id TEXT NOT NULL REFERENCES photo_uploads (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        bytes BYTEA NOT NULL,
        PRIMARY KEY (upload_id, seq)
      )`,
      "INSERT INTO photo_chunks (upload_id, seq, bytes) SELECT id, 0, original FROM photo_uploads",
      "UPDATE photo_uploads SET original = substr(original, 1, 0)",
    ],
  },
];
