import type { Migration } from "~/store/sql.server";

/**
 * The schema's versions from 19: photos' originals in chunks, the owner's alerts. New versions go at the end of this
 * list.
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
  {
    // The owner's alerts (login_alerts) carried more than logins: a customer's answer on a build page kept the
    // customer's name in operator_email and its enquiry in a JSON detail, which the erase matched with LIKE. Now
    // `owner_alerts`, each column holding what its name says: operator_email (nullable) only for an operator's login
    // or added factor, customer_name and enquiry_id only for a customer's answer. Rebuilt rather than renamed, as
    // SQLite cannot drop a NOT NULL; the rows keep their state, attempts and claims, so pending ones are still sent.
    // enquiry_id is read back from the detail by the enquiry whose id starts it (the erase's old match), and the detail
    // keeps only the answer's words, {"text": ...}: JSON still, as SQL common to both databases cannot decode it.
    version: 20,
    statements: [
      `CREATE TABLE owner_alerts (
        id TEXT NOT NULL,
        channel TEXT NOT NULL,
        kind TEXT NOT NULL DEFAULT 'login',
        at BIGINT NOT NULL,
        operator_email TEXT,
        browser TEXT NOT NULL,
        address TEXT NOT NULL,
        customer_name TEXT,
        enquiry_id TEXT,
        detail TEXT,
        state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        claim_token TEXT,
        claim_until BIGINT,
        last_error TEXT,
        sent_at BIGINT,
        PRIMARY KEY (id, channel)
      )`,
      `INSERT INTO owner_alerts (id, channel, kind, at, operator_email, browser, address, customer_name, enquiry_id,
         detail, state, attempts, next_attempt_at, claim_token, claim_until, last_error, sent_at)
       SELECT id, channel, kind, at,
         CASE WHEN kind = 'customer-answer' THEN NULL ELSE operator_email END, browser, address,
         CASE WHEN kind = 'customer-answer' THEN operator_email END,
         CASE WHEN kind = 'customer-answer' THEN (
           SELECT MIN(e.id) FROM enquiries e WHERE login_alerts.detail LIKE '{"enquiryId":"' || e.id || '"%') END,
         detail, state, attempts, next_attempt_at, claim_token, claim_until, last_error, sent_at
       FROM login_alerts`,
      `UPDATE owner_alerts SET detail = '{' || substr(detail, length(enquiry_id) + 17)
       WHERE kind = 'customer-answer' AND detail LIKE '{"enquiryId":"' || enquiry_id || '",%'`,
      "DROP TABLE login_alerts",
      "CREATE INDEX owner_alerts_due ON owner_alerts (state, next_attempt_at)",
      "CREATE INDEX owner_alerts_enquiry ON owner_alerts (enquiry_id)",
    ],
  },
];
