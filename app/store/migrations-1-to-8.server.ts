import type { Migration } from "~/store/sql.server";

/**
 * The schema's versions 1 to 8: enquiries and notifications, the activity log, operators and sessions, the spam filter
 * and its digest, the site's content.
 */
export const migrations1To8: readonly Migration[] = [
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
    // The owner's inbox and the spam filter build on these: an enquiry's status, why it was held
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
    // The spam filter and retention: keys made once and shared by every instance (the form token's, the
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
    // The owner's inbox on the web: operators who may log in (argon2id PHC strings, never a password),
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
    // The login throttle counts each attempt before its password is checked: one row per account and
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
    // The spam filter learns from the owner: each enquiry keeps the filter's verdict and score and the
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
    // The daily spam digest: one row per local day, claimed by one instance with an insert that only one can
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
    // The site's content edited on the web: one shared draft (a single row whose revision every save raises,
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
];
