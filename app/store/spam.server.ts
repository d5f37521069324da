import { randomUUID } from "node:crypto";
import { transaction, type SqlClient, type Step } from "~/store/sql.server";
import { advisoryLock, insertNotification, lockEnquiry } from "~/store/statements.server";
import type { EnquiryStatus, SpamDecision } from "~/store/records";
import type { LearnedCounts, SpamStore, TokenCounts } from "~/store/spam.types";

/**
 * The owner's spam decisions and the spam model's counts they make (ADR 0029). One row per feature in spam_tokens:
 * in how many messages the owner called spam, and not spam, it appeared; the row '*messages' counts the messages.
 * Every instance reads the same rows, so what the owner teaches one teaches all.
 */

/** The row that counts messages rather than one feature (features never start with "*"). */
const messagesRow = "*messages";

/**
 * How a decision changes the counts, from the enquiry's previous decision (read inside the transaction, after its
 * lock): the same decision again adds nothing, a changed one takes the old one back.
 */
const previous = "(SELECT spam_decision FROM enquiries WHERE id = ?)";
const deltas: Record<SpamDecision, { spam: string; ham: string }> = {
  spam: {
    spam: `CASE WHEN ${previous} = 'spam' THEN 0 ELSE 1 END`,
    ham: `CASE WHEN ${previous} = 'not-spam' THEN -1 ELSE 0 END`,
  },
  "not-spam": {
    spam: `CASE WHEN ${previous} = 'spam' THEN -1 ELSE 0 END`,
    ham: `CASE WHEN ${previous} = 'not-spam' THEN 0 ELSE 1 END`,
  },
};

const newStatus: Record<SpamDecision, string> = {
  spam: "'spam'",
  // A possible-spam enquiry the owner keeps stays where it is (new, read or handled).
  "not-spam": "CASE WHEN status = 'spam' THEN 'new' ELSE status END",
};

function countsFrom(rows: Record<string, unknown>[]): LearnedCounts {
  const tokens = new Map<string, TokenCounts>();
  let messages: TokenCounts = { spam: 0, ham: 0 };
  for (const row of rows) {
    const counts = { spam: Number(row.spam), ham: Number(row.ham) };
    if (row.token === messagesRow) messages = counts;
    else tokens.set(String(row.token), counts);
  }
  return { messages, tokens };
}

export function spamOperations(db: SqlClient): SpamStore {
  return {
    async decideSpam(id, decision, features, channels, actor, now = new Date()) {
      const at = now.getTime();
      const tokens = [...new Set([messagesRow, ...features])];
      const marks = tokens.map(() => "?").join(", ");
      const delta = deltas[decision];
      const steps: Step<"before">[] = [
        // One decision at a time: the counts' rows are updated in one order, and two instances never interleave.
        ...advisoryLock(db, "spam-model"),
        ...lockEnquiry(db, id),
        { name: "before", sql: "SELECT status FROM enquiries WHERE id = ?", params: [id] },
        {
          sql: `INSERT INTO spam_tokens (token, spam, ham) VALUES ${tokens.map(() => "(?, 0, 0)").join(", ")}
                ON CONFLICT (token) DO NOTHING`,
          params: tokens,
        },
        {
          sql: `UPDATE spam_tokens SET spam = spam + ${delta.spam}, ham = ham + ${delta.ham}
                WHERE token IN (${marks}) AND EXISTS (SELECT 1 FROM enquiries WHERE id = ?)`,
          params: [id, id, ...tokens, id],
        },
        { sql: "DELETE FROM spam_tokens WHERE spam <= 0 AND ham <= 0" },
        // What this enquiry taught, kept beside it: an erase takes it back (app/store/deletion.server.ts).
        { sql: "DELETE FROM spam_training WHERE enquiry_id = ?", params: [id] },
        {
          sql: `INSERT INTO spam_training (enquiry_id, token)
                SELECT id, token FROM enquiries, spam_tokens WHERE enquiries.id = ? AND token IN (${marks})`,
          params: [id, ...tokens],
        },
        {
          sql: `INSERT INTO activity (id, at, actor, action, enquiry_id, detail)
                SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), id,
                  'status ' || status || ' -> ' || ${newStatus[decision]}
                FROM enquiries WHERE id = ?`,
          params: [randomUUID(), at, actor, decision === "spam" ? "mark-spam" : "not-spam", id],
        },
        // Only for one kept aside as spam (before the status changes below); one that had its notifications keeps them.
        ...(decision === "not-spam" ? channels : []).map((channel) =>
          insertNotification(id, channel, at, { sql: "status = 'spam'", params: [] }),
        ),
        {
          sql: `UPDATE enquiries SET status = ${newStatus[decision]}, spam_decision = ? WHERE id = ?`,
          params: [decision, id],
        },
      ];
      const { before = [] } = await transaction(db, steps);
      return before.length === 0 ? null : (String(before[0]!.status) as EnquiryStatus);
    },

    async spamCounts(features) {
      const tokens = [...new Set([messagesRow, ...features])];
      return countsFrom(
        await db.query(
          `SELECT token, spam, ham FROM spam_tokens WHERE token IN (${tokens.map(() => "?").join(", ")})`,
          tokens,
        ),
      );
    },

    allSpamCounts: async () => countsFrom(await db.query("SELECT token, spam, ham FROM spam_tokens")),

    async resetSpamModel() {
      const { forgotten } = await transaction(db, [
        ...advisoryLock(db, "spam-model"),
        { name: "forgotten", sql: "SELECT COUNT(*) AS total FROM spam_tokens WHERE token <> ?", params: [messagesRow] },
        { sql: "DELETE FROM spam_tokens" },
        { sql: "DELETE FROM spam_training" },
        { sql: "UPDATE enquiries SET spam_decision = NULL WHERE spam_decision IS NOT NULL" },
      ]);
      return Number(forgotten[0]!.total);
    },
  };
}
