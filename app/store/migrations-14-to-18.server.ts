import type { Migration } from "~/store/sql.server";

/**
 * The schema's versions 14 to 18: the owner's video clips, the project an enquiry was sent about, the commission
 * pipeline, the waitlist. New versions go in migrations-19-to-23.server.ts.
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
  {
    // The commission pipeline (docs/inbox.md, ADR 0043): an enquiry carried from New to Delivered beside its status.
    // - enquiries: its stage (NULL reads as 'new'), what the stage carries (amounts in the currency's minor unit,
    //   dates as YYYY-MM-DD), the service it is about, `revision` (bumped by every change the owner saves, so the later
    //   of two changes made from the same page is refused), and the times that say who is waiting: the customer's
    //   newest message (NULL: the enquiry itself), the owner's newest answer, the first reply (the figures' median).
    // - enquiry_events: the enquiry's timeline (stage changes, notes, replies, the customer's answers, progress
    //   updates, reminders), gone with the enquiry.
    // - outgoing_mail: e-mail the owner sends a customer (replies, "New photos of your build"), stored before it is
    //   sent and sent by a lease like the notifications, with the threading headers fixed when it is stored.
    // - reminders: "Remind me" on a day, due at REMINDER_HOUR in SITE_TIMEZONE, sent once under a lease.
    // - build_pages: the customer's private page, looked up by the token's hash; the token itself kept (sealed with
    //   SECRETS_KEY when set) so the owner can send the link again. build_updates: the owner's progress updates.
    // - figures_kept: the numbers of an erased or purged enquiry (never its words), so a season's figures stay whole.
    version: 16,
    statements: [
      "ALTER TABLE enquiries ADD COLUMN stage TEXT",
      "ALTER TABLE enquiries ADD COLUMN stage_at BIGINT",
      "ALTER TABLE enquiries ADD COLUMN lost_reason TEXT",
      "ALTER TABLE enquiries ADD COLUMN quote_amount BIGINT",
      "ALTER TABLE enquiries ADD COLUMN quote_valid_until TEXT",
      "ALTER TABLE enquiries ADD COLUMN deposit_amount BIGINT",
      "ALTER TABLE enquiries ADD COLUMN needed_by TEXT",
      "ALTER TABLE enquiries ADD COLUMN service TEXT",
      "ALTER TABLE enquiries ADD COLUMN revision INTEGER NOT NULL DEFAULT 0",
      "ALTER TABLE enquiries ADD COLUMN customer_at BIGINT",
      "ALTER TABLE enquiries ADD COLUMN answered_at BIGINT",
      "ALTER TABLE enquiries ADD COLUMN first_reply_at BIGINT",
      "ALTER TABLE enquiries ADD COLUMN delivered_at BIGINT",
      // Enquiries marked handled before the pipeline were answered (from elsewhere): none of them is waiting.
      "UPDATE enquiries SET answered_at = received_at WHERE status = 'handled'",
      `CREATE TABLE enquiry_events (
        id TEXT PRIMARY KEY,
        enquiry_id TEXT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
        at BIGINT NOT NULL,
        kind TEXT NOT NULL,
        actor TEXT NOT NULL,
        body TEXT,
        detail TEXT
      )`,
      "CREATE INDEX enquiry_events_by_enquiry ON enquiry_events (enquiry_id, at)",
      `CREATE TABLE outgoing_mail (
        id TEXT PRIMARY KEY,
        enquiry_id TEXT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
        event_id TEXT,
        kind TEXT NOT NULL,
        to_address TEXT NOT NULL,
        subject TEXT NOT NULL,
        body TEXT NOT NULL,
        message_id TEXT NOT NULL,
        in_reply_to TEXT,
        refs TEXT,
        created_at BIGINT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        window_start BIGINT NOT NULL,
        next_attempt_at BIGINT NOT NULL,
        claim_token TEXT,
        claim_until BIGINT,
        last_error TEXT,
        sent_at BIGINT
      )`,
      "CREATE INDEX outgoing_mail_due ON outgoing_mail (state, next_attempt_at)",
      "CREATE INDEX outgoing_mail_by_enquiry ON outgoing_mail (enquiry_id, created_at)",
      `CREATE TABLE reminders (
        id TEXT PRIMARY KEY,
        enquiry_id TEXT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
        due_on TEXT NOT NULL,
        due_at BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        created_by TEXT NOT NULL,
        done_at BIGINT,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        claim_token TEXT,
        claim_until BIGINT,
        last_error TEXT,
        sent_at BIGINT
      )`,
      "CREATE INDEX reminders_due ON reminders (state, next_attempt_at)",
      "CREATE INDEX reminders_by_enquiry ON reminders (enquiry_id, due_at)",
      `CREATE TABLE build_pages (
        enquiry_id TEXT PRIMARY KEY REFERENCES enquiries (id) ON DELETE CASCADE,
        token_hash TEXT NOT NULL UNIQUE,
        token_sealed TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        created_by TEXT NOT NULL,
        revoked_at BIGINT
      )`,
      `CREATE TABLE build_updates (
        id TEXT PRIMARY KEY,
        enquiry_id TEXT NOT NULL REFERENCES enquiries (id) ON DELETE CASCADE,
        at BIGINT NOT NULL,
        author TEXT NOT NULL,
        body TEXT NOT NULL,
        photos TEXT NOT NULL,
        emailed INTEGER NOT NULL DEFAULT 0
      )`,
      "CREATE INDEX build_updates_by_enquiry ON build_updates (enquiry_id, at)",
      `CREATE TABLE figures_kept (
        id TEXT PRIMARY KEY,
        received_at BIGINT NOT NULL,
        spam INTEGER NOT NULL,
        stage TEXT,
        lost_reason TEXT,
        quote_amount BIGINT,
        first_reply_at BIGINT,
        service TEXT
      )`,
    ],
  },
  {
    // A reminder's channels that have taken it (a comma list): a retry after one channel failed goes to the others
    // only, so no channel gets the same reminder twice. NULL: none yet.
    version: 17,
    statements: ["ALTER TABLE reminders ADD COLUMN sent_channels TEXT"],
  },
  {
    // "Tell me when orders open" (issue 35). One row per address (lower-cased): pending until its confirmation link's
    // POST, confirmed, or unsubscribed. The links' tokens are kept hashed (to find the row) and sealed (to write the
    // link into a mail again); a confirmation token ends at confirm_until and is cleared once used.
    version: 18,
    statements: [
      `CREATE TABLE waitlist (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE,
        state TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        confirm_token_hash TEXT UNIQUE,
        confirm_token_sealed TEXT,
        confirm_until BIGINT,
        confirmed_at BIGINT,
        unsubscribe_token_hash TEXT NOT NULL UNIQUE,
        unsubscribe_token_sealed TEXT NOT NULL,
        unsubscribed_at BIGINT
      )`,
      "CREATE INDEX waitlist_by_state ON waitlist (state, created_at)",
      // One announcement per season (its year), with the words the owner sent and how many it was for.
      `CREATE TABLE announcements (
        id TEXT PRIMARY KEY,
        season TEXT NOT NULL UNIQUE,
        subject TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        created_by TEXT NOT NULL,
        total INTEGER NOT NULL
      )`,
      // The list's durable outbox: a confirmation, or one announcement to one address (at most once: the UNIQUE).
      // The words are made when it is sent, from the waitlist row and the announcement.
      `CREATE TABLE list_mail (
        id TEXT PRIMARY KEY,
        waitlist_id TEXT NOT NULL REFERENCES waitlist (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        announcement_id TEXT REFERENCES announcements (id) ON DELETE CASCADE,
        message_id TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        claim_token TEXT,
        claim_until BIGINT,
        last_error TEXT,
        sent_at BIGINT,
        UNIQUE (announcement_id, waitlist_id)
      )`,
      "CREATE INDEX list_mail_due ON list_mail (state, next_attempt_at)",
      "CREATE INDEX list_mail_by_announcement ON list_mail (announcement_id, state)",
      // Pacing shared by every instance: the earliest time the next paced mail may go (MAIL_PER_MINUTE).
      `CREATE TABLE mail_pace (
        name TEXT PRIMARY KEY,
        next_at BIGINT NOT NULL
      )`,
      // The acknowledgements' limits count the outbox by kind and address.
      "CREATE INDEX outgoing_mail_by_kind ON outgoing_mail (kind, to_address, created_at)",
    ],
  },
];
