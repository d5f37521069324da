import { randomUUID } from "node:crypto";
import { commissionFrom, eventFrom, time } from "~/store/rows.server";
import { transaction, type SqlClient } from "~/store/sql.server";
import { insertEvent, lockEnquiry } from "~/store/statements.server";
import { isWaiting, openStages, type PipelineStage, type PipelineStore, type Stage } from "~/store/pipeline.types";

/**
 * The commission pipeline over the enquiries (schema v16): an enquiry's stage and what it carries, its notes and
 * timeline, and who is waiting for an answer; written once over a SqlClient for SQLite and PostgreSQL. ADR 0043.
 */

/** Not spam, and the customer's newest message is newer than the owner's newest answer. */
export const waitingCondition =
  "status <> 'spam' AND (answered_at IS NULL OR answered_at < COALESCE(customer_at, received_at))";

/** The columns a stage change may set, in StageChange's terms. */
const carried = [
  ["lost_reason", "lostReason"],
  ["quote_amount", "quoteAmount"],
  ["quote_valid_until", "quoteValidUntil"],
  ["deposit_amount", "depositAmount"],
  ["needed_by", "neededBy"],
  ["service", "service"],
] as const;

export function pipelineOperations(db: SqlClient): PipelineStore {
  return {
    async saveStage(id, requested, revision, actor, now = new Date()) {
      const at = now.getTime();
      const change = { ...requested, lostReason: requested.stage === "lost" ? requested.lostReason : null };
      const [row] = await db.query("SELECT * FROM enquiries WHERE id = ?", [id]);
      if (!row) return { outcome: "missing" };
      const before = commissionFrom(row);
      if (before.revision !== revision) return { outcome: "stale" };
      const from: Stage = before.stage;
      const fields = Object.fromEntries(
        carried.filter(([, key]) => before[key] !== change[key]).map(([, key]) => [key, change[key]]),
      );
      const moved = from !== change.stage;
      if (!moved && Object.keys(fields).length === 0) return { outcome: "saved", changed: false };
      // Leaving New, or Replied chosen by hand: the owner has answered (from elsewhere, or this is how they say so).
      const answered = moved && (from === "new" || change.stage === "replied");
      // Every step holds only while the enquiry is still at the form's revision (its row locked on PostgreSQL; SQLite
      // runs one write transaction at a time): a change saved in between leaves this one without a trace.
      const atRevision = { sql: "revision = ?", params: [revision] };
      const { updated } = await transaction(db, [
        ...lockEnquiry(db, id),
        insertEvent(
          id,
          { at, kind: "stage", actor, detail: { from, to: change.stage, ...fields } },
          randomUUID(),
          atRevision,
        ),
        {
          sql: `INSERT INTO activity (id, at, actor, action, enquiry_id, detail)
                SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), id, CAST(? AS TEXT)
                FROM enquiries WHERE id = ? AND revision = ?`,
          params: [
            randomUUID(),
            at,
            actor,
            `stage ${from} -> ${change.stage}`,
            Object.keys(fields).join(", ") || null,
            id,
            revision,
          ],
        },
        {
          name: "updated",
          sql: `UPDATE enquiries SET stage = ?, lost_reason = ?, quote_amount = ?, quote_valid_until = ?,
                  deposit_amount = ?, needed_by = ?, service = ?, revision = revision + 1,
                  stage_at = CASE WHEN ? = 1 THEN CAST(? AS BIGINT) ELSE stage_at END,
                  answered_at = CASE WHEN ? = 1 THEN CAST(? AS BIGINT) ELSE answered_at END,
                  first_reply_at = CASE WHEN ? = 1 THEN COALESCE(first_reply_at, CAST(? AS BIGINT)) ELSE first_reply_at END,
                  delivered_at = CASE WHEN ? = 'delivered' THEN COALESCE(delivered_at, CAST(? AS BIGINT)) ELSE NULL END
                WHERE id = ? AND revision = ? RETURNING id`,
          params: [
            change.stage,
            change.lostReason,
            change.quoteAmount,
            change.quoteValidUntil,
            change.depositAmount,
            change.neededBy,
            change.service,
            moved ? 1 : 0,
            at,
            answered ? 1 : 0,
            at,
            moved && from === "new" ? 1 : 0,
            at,
            change.stage,
            at,
            id,
            revision,
          ],
        },
      ]);
      return updated.length === 0 ? { outcome: "stale" } : { outcome: "saved", changed: true };
    },

    async addNote(id, text, actor, now = new Date()) {
      const at = now.getTime();
      const noteId = randomUUID();
      await transaction(db, [
        insertEvent(id, { at, kind: "note", actor, body: text }, noteId),
        {
          sql: `INSERT INTO activity (id, at, actor, action, enquiry_id, detail)
                SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), 'note added', id, NULL FROM enquiries WHERE id = ?`,
          params: [randomUUID(), at, actor, id],
        },
      ]);
      return (await db.query("SELECT id FROM enquiry_events WHERE id = ?", [noteId])).length === 1;
    },

    async timeline(id) {
      const rows = await db.query("SELECT * FROM enquiry_events WHERE enquiry_id = ? ORDER BY at, id", [id]);
      return rows.map(eventFrom);
    },

    async waiting() {
      const [row] = await db.query(
        `SELECT COUNT(*) AS total, MIN(COALESCE(customer_at, received_at)) AS oldest FROM enquiries WHERE ${waitingCondition}`,
      );
      const count = Number(row?.total ?? 0);
      return { count, oldestSince: count > 0 && row?.oldest != null ? time(row.oldest) : null };
    },

    async pipeline(perStage) {
      const stageOf = "COALESCE(stage, 'new')";
      const open = `status <> 'spam' AND ${stageOf} IN (${openStages.map(() => "?").join(", ")})`;
      const totals = await db.query(
        `SELECT ${stageOf} AS stage, COUNT(*) AS total, SUM(quote_amount) AS quoted FROM enquiries WHERE ${open}
         GROUP BY ${stageOf}`,
        [...openStages],
      );
      const stages: PipelineStage[] = [];
      for (const stage of openStages) {
        const total = totals.find((row) => row.stage === stage);
        // Waiting ones first, each group oldest first: who has waited longest is at the top.
        const rows = total
          ? await db.query(
              `SELECT * FROM enquiries WHERE status <> 'spam' AND ${stageOf} = ?
               ORDER BY CASE WHEN ${waitingCondition} THEN 0 ELSE 1 END, COALESCE(customer_at, received_at), id LIMIT ?`,
              [stage, perStage],
            )
          : [];
        stages.push({
          stage,
          count: Number(total?.total ?? 0),
          quotedTotal: Number(total?.quoted ?? 0),
          items: rows.map((row) => {
            const commission = commissionFrom(row);
            return {
              id: String(row.id),
              name: String(row.name),
              receivedAt: time(row.received_at),
              stage,
              waiting: isWaiting(commission),
              customerAt: commission.customerAt,
              quoteAmount: commission.quoteAmount,
              neededBy: commission.neededBy,
              service: commission.service,
            };
          }),
        });
      }
      return stages;
    },
  };
}
