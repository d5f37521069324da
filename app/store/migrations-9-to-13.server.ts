import type { Migration } from "~/store/sql.server";

/**
 * The schema's versions 9 to 13: photos, second factors and sessions' stages, login alerts, request ids. New versions go
 * at the end of this list.
 */
export const migrations9To13: readonly Migration[] = [
  {
    // The owner's photos, in the database so that every instance serves them: each upload's original bytes
    // (kept, so a photo can be placed again with another crop); a rendition per upload, shape and focal point, encoded
    // in the background by one instance at a time (claimed under a lease, its progress counted); and every encoded
    // file by its content-hashed name. BYTEA is a BLOB to SQLite (its affinity never converts bytes).
    version: 9,
    statements: [
      `CREATE TABLE photo_uploads (
        id TEXT PRIMARY KEY,
        original BYTEA NOT NULL,
        content_type TEXT NOT NULL,
        width INTEGER NOT NULL,
        height INTEGER NOT NULL,
        byte_size INTEGER NOT NULL,
        file_name TEXT NOT NULL,
        uploaded_at BIGINT NOT NULL,
        uploaded_by TEXT NOT NULL
      )`,
      `CREATE TABLE photo_renditions (
        key TEXT PRIMARY KEY,
        upload_id TEXT NOT NULL REFERENCES photo_uploads (id),
        shape TEXT NOT NULL,
        focus_x DOUBLE PRECISION NOT NULL,
        focus_y DOUBLE PRECISION NOT NULL,
        state TEXT NOT NULL,
        done INTEGER NOT NULL DEFAULT 0,
        total INTEGER NOT NULL DEFAULT 0,
        entry TEXT,
        error TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        claim_token TEXT,
        claim_until BIGINT,
        created_at BIGINT NOT NULL,
        ready_at BIGINT
      )`,
      "CREATE INDEX photo_renditions_by_state ON photo_renditions (state, created_at)",
      `CREATE TABLE photo_files (
        name TEXT PRIMARY KEY,
        rendition_key TEXT NOT NULL,
        content_type TEXT NOT NULL,
        bytes BYTEA NOT NULL
      )`,
      "CREATE INDEX photo_files_by_rendition ON photo_files (rendition_key)",
    ],
  },
  {
    // The alt text typed with an upload: kept with the photo, so one uploaded as "Not shown yet" or taken
    // off its place is placed later with the words the owner already wrote.
    version: 10,
    statements: ["ALTER TABLE photo_uploads ADD COLUMN alt TEXT NOT NULL DEFAULT ''"],
  },
  {
    // The second factor. A session's stage: 'password' (the password was right, a second factor is still
    // owed), 'setup' (password only, no factor yet, one is required: the Security page only) or 'full'; factor_at is
    // when it last passed a second factor (step-up). Sessions from before stay 'full' until they end. One-time codes
    // (the secret, confirmed or not, and the last 30 s step accepted, so no code is taken twice), recovery codes
    // (hashed, used once), passkeys, WebAuthn challenges (single-use, short-lived, shared by every instance), the
    // browsers each operator has logged in from (a hash of a long-lived cookie) and the login alerts to send.
    version: 11,
    statements: [
      "ALTER TABLE sessions ADD COLUMN stage TEXT NOT NULL DEFAULT 'full'",
      "ALTER TABLE sessions ADD COLUMN factor_at BIGINT",
      "ALTER TABLE sessions ADD COLUMN browser TEXT NOT NULL DEFAULT ''",
      "ALTER TABLE sessions ADD COLUMN client TEXT NOT NULL DEFAULT ''",
      `CREATE TABLE totp_factors (
        operator_id TEXT PRIMARY KEY REFERENCES operators (id) ON DELETE CASCADE,
        secret TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        confirmed_at BIGINT,
        last_step BIGINT NOT NULL DEFAULT 0
      )`,
      `CREATE TABLE recovery_codes (
        operator_id TEXT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
        code_hash TEXT NOT NULL,
        used_at BIGINT,
        PRIMARY KEY (operator_id, code_hash)
      )`,
      `CREATE TABLE passkeys (
        id TEXT PRIMARY KEY,
        operator_id TEXT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        public_key TEXT NOT NULL,
        counter BIGINT NOT NULL,
        transports TEXT NOT NULL DEFAULT '',
        created_at BIGINT NOT NULL,
        last_used_at BIGINT
      )`,
      "CREATE INDEX passkeys_by_operator ON passkeys (operator_id)",
      `CREATE TABLE webauthn_challenges (
        challenge TEXT PRIMARY KEY,
        purpose TEXT NOT NULL,
        operator_id TEXT,
        expires_at BIGINT NOT NULL
      )`,
      `CREATE TABLE known_browsers (
        operator_id TEXT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
        browser_hash TEXT NOT NULL,
        first_seen_at BIGINT NOT NULL,
        PRIMARY KEY (operator_id, browser_hash)
      )`,
      `CREATE TABLE login_alerts (
        id TEXT NOT NULL,
        channel TEXT NOT NULL,
        operator_email TEXT NOT NULL,
        at BIGINT NOT NULL,
        browser TEXT NOT NULL,
        address TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        claim_token TEXT,
        claim_until BIGINT,
        last_error TEXT,
        sent_at BIGINT,
        PRIMARY KEY (id, channel)
      )`,
      "CREATE INDEX login_alerts_due ON login_alerts (state, next_attempt_at)",
    ],
  },
  {
    // Logs a machine can read: the id of the request that stored a notification, so the outbox's lines
    // about sending it, later and from the background, carry the same request id as the visitor's post.
    version: 12,
    statements: ["ALTER TABLE notifications ADD COLUMN request_id TEXT"],
  },
  {
    version: 13,
    // Issue 31: a factor added to an account is announced like a new login (kind `passkey-added` or `codes-added`;
    // `detail` holds the passkey's name).
    statements: [
      "ALTER TABLE login_alerts ADD COLUMN kind TEXT NOT NULL DEFAULT 'login'",
      "ALTER TABLE login_alerts ADD COLUMN detail TEXT",
    ],
  },
];
