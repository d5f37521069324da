import type { Migration } from "~/store/sql.server";

/**
 * The inbox's schema, versioned. Applied at start, each version once (recorded in schema_migrations). The SQL is
 * plain enough for SQLite and PostgreSQL alike; times are milliseconds since the epoch (BIGINT). Add a new version
 * at the end; never edit one that has shipped.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    statements: [
      `CREATE TABLE enquiries (
        id TEXT PRIMARY KEY,
        received_at BIGINT NOT NULL,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        email_key TEXT NOT NULL,
        message TEXT NOT NULL,
        source TEXT NOT NULL
      )`,
      "CREATE INDEX enquiries_by_time ON enquiries (received_at, id)",
      "CREATE INDEX enquiries_by_sender ON enquiries (email_key, received_at)",
      `CREATE TABLE notifications (
        id TEXT PRIMARY KEY,
        enquiry_id TEXT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
        channel TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        window_start BIGINT NOT NULL,
        next_attempt_at BIGINT NOT NULL,
        claimed_by TEXT,
        claim_token TEXT,
        claim_until BIGINT,
        last_error TEXT,
        sent_at BIGINT,
        UNIQUE (enquiry_id, channel)
      )`,
      "CREATE INDEX notifications_due ON notifications (state, next_attempt_at)",
    ],
  },
  {
    // The owner's inbox (issue 16) and the spam filter (issue 17) build on these: an enquiry's status, why it was held
    // as spam, and the activity log (who did what, when; never the message text).
    version: 2,
    statements: [
      "ALTER TABLE enquiries ADD COLUMN status TEXT NOT NULL DEFAULT 'new'",
      "ALTER TABLE enquiries ADD COLUMN spam_reasons TEXT",
      "CREATE INDEX enquiries_by_status ON enquiries (status, received_at)",
      `CREATE TABLE activity (
        id TEXT PRIMARY KEY,
        at BIGINT NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        enquiry_id TEXT,
        detail TEXT
      )`,
      "CREATE INDEX activity_by_time ON activity (at, id)",
    ],
  },
  {
    // The spam filter and retention (issue 17): keys made once and shared by every instance (the form token's, the
    // erased-address hash's), form tokens already used (until they would have expired anyway), the keyed hashes of
    // erased addresses (so no import brings them back), and the v1 files already imported whole.
    version: 3,
    statements: [
      "CREATE TABLE site_keys (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
      "CREATE TABLE used_form_tokens (id TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)",
      "CREATE TABLE erased_addresses (hash TEXT PRIMARY KEY, erased_at BIGINT NOT NULL)",
      `CREATE TABLE v1_imports (
        sha256 TEXT PRIMARY KEY,
        size BIGINT NOT NULL,
        mtime_ms BIGINT NOT NULL,
        path TEXT NOT NULL,
        finished_at BIGINT NOT NULL
      )`,
      "CREATE INDEX activity_by_enquiry ON activity (enquiry_id)",
    ],
  },
  {
    // The owner's inbox on the web (issue 16): operators who may log in (argon2id PHC strings, never a password),
    // their sessions (only a SHA-256 of the cookie's id is stored) and recent failed logins for the throttle.
    version: 4,
    statements: [
      `CREATE TABLE operators (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL,
        email_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at BIGINT NOT NULL
      )`,
      `CREATE TABLE sessions (
        id_hash TEXT PRIMARY KEY,
        operator_id TEXT NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        last_seen_at BIGINT NOT NULL
      )`,
      "CREATE INDEX sessions_by_operator ON sessions (operator_id)",
      `CREATE TABLE login_failures (
        id TEXT PRIMARY KEY,
        account_key TEXT NOT NULL,
        client TEXT NOT NULL,
        at BIGINT NOT NULL
      )`,
      "CREATE INDEX login_failures_by_key ON login_failures (account_key, client, at)",
    ],
  },
  {
    // The login throttle counts each attempt before its password is checked (issue 22): one row per account and
    // client with the window's start and its count, raised in one atomic upsert. The failure rows it replaces were
    // counted after the check, so a burst walked past them.
    version: 5,
    statements: [
      "DROP TABLE login_failures",
      `CREATE TABLE login_attempts (
        account_key TEXT NOT NULL,
        client TEXT NOT NULL,
        window_start BIGINT NOT NULL,
        attempts INTEGER NOT NULL,
        PRIMARY KEY (account_key, client)
      )`,
      "CREATE INDEX login_attempts_by_window ON login_attempts (window_start)",
    ],
  },
  {
    // The spam filter learns from the owner (issue 26): each enquiry keeps the filter's verdict and score and the
    // owner's decision; spam_tokens holds the counts those decisions made, one row per feature ('*messages': how many
    // messages), shared by every instance, and spam_training which features each decided enquiry put there. Spam kept
    // aside before this had the verdict spam.
    version: 6,
    statements: [
      "ALTER TABLE enquiries ADD COLUMN spam_verdict TEXT NOT NULL DEFAULT 'none'",
      "ALTER TABLE enquiries ADD COLUMN spam_score DOUBLE PRECISION",
      "ALTER TABLE enquiries ADD COLUMN spam_decision TEXT",
      "UPDATE enquiries SET spam_verdict = 'spam', spam_score = 1 WHERE status = 'spam' AND spam_reasons IS NOT NULL",
      "CREATE TABLE spam_tokens (token TEXT PRIMARY KEY, spam INTEGER NOT NULL, ham INTEGER NOT NULL)",
      // Which features each decided enquiry added, so that an erase takes its decision back out of the counts.
      `CREATE TABLE spam_training (
        enquiry_id TEXT NOT NULL,
        token TEXT NOT NULL,
        PRIMARY KEY (enquiry_id, token)
      )`,
    ],
  },
  {
    // The daily spam digest (issue 26): one row per local day, claimed by one instance with an insert that only one can
    // make (the window of time it covers is fixed then), and one send per channel, claimed under a lease and retried
    // like a notification. Version 6 is the spam filter's model (same issue); the runner applies versions by set.
    version: 7,
    statements: [
      `CREATE TABLE spam_digests (
        day TEXT PRIMARY KEY,
        window_start BIGINT NOT NULL,
        window_end BIGINT NOT NULL,
        claimed_by TEXT NOT NULL,
        claimed_at BIGINT NOT NULL
      )`,
      `CREATE TABLE spam_digest_sends (
        day TEXT NOT NULL REFERENCES spam_digests (day) ON DELETE CASCADE,
        channel TEXT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        claim_token TEXT,
        claim_until BIGINT,
        last_error TEXT,
        sent_at BIGINT,
        PRIMARY KEY (day, channel)
      )`,
    ],
  },
  {
    // The site's content edited on the web (issue 24): one shared draft (a single row whose revision every save raises,
    // so a save from a stale form is refused) and every published version, numbered, never deleted: the newest is
    // what the public pages show, and each keeps what it changed for the history.
    version: 8,
    statements: [
      `CREATE TABLE site_draft (
        id INTEGER PRIMARY KEY,
        content TEXT,
        revision INTEGER NOT NULL,
        saved_at BIGINT,
        saved_by TEXT,
        save_token TEXT
      )`,
      "INSERT INTO site_draft (id, content, revision) VALUES (1, NULL, 0)",
      `CREATE TABLE site_versions (
        number INTEGER PRIMARY KEY,
        content TEXT NOT NULL,
        published_at BIGINT NOT NULL,
        published_by TEXT NOT NULL,
        changes TEXT NOT NULL,
        restored_from INTEGER
      )`,
    ],
  },
  {
    // The owner's photos (issue 25), in the database so that every instance serves them: each upload's original bytes
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
    // The alt text typed with an upload (issue 25): kept with the photo, so one uploaded as "Not shown yet" or taken
    // off its place is placed later with the words the owner already wrote.
    version: 10,
    statements: ["ALTER TABLE photo_uploads ADD COLUMN alt TEXT NOT NULL DEFAULT ''"],
  },
  {
    // The second factor (issue 27). A session's stage: 'password' (the password was right, a second factor is still
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
    // Logs a machine can read (issue 31): the id of the request that stored a notification, so the outbox's lines
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
