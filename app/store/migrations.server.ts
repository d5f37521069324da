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
];
