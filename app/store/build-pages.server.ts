import { createHash, randomBytes, randomUUID } from "node:crypto";
import { buildTokenColumn, sealerWith, type SecretsSealer } from "~/store/sealed-secrets.server";
import { time, timeOrNull } from "~/store/rows.server";
import { insertEvent, lockEnquiry } from "~/store/statements.server";
import { queueCustomerMail } from "~/store/outgoing-mail.server";
import { answerDetail } from "~/store/owner-alerts.server";
import { transaction, type Params, type Row, type SqlClient, type Statement } from "~/store/sql.server";
import { stages, wonStages, type Stage } from "~/store/pipeline.types";
import type { BuildPageLink, BuildPageStore, BuildPhoto, BuildUpdate, SharedBuild } from "~/store/build-pages.types";

/**
 * The build pages' side of the database (tables `build_pages` and `build_updates`, schema v16). The token is 32 random
 * bytes (hex): only its SHA-256 is looked up, and its clear copy is kept sealed with SECRETS_KEY (when set) so the
 * owner can send the link again. Written once over a SqlClient for SQLite and PostgreSQL.
 */

/** The address ends this long after the build was delivered. */
export const buildPageDaysAfterDelivery = 90;
const afterDeliveryMs = buildPageDaysAfterDelivery * 24 * 60 * 60_000;

/** The renditions of build-update photos: their keys start with this, so /photos/ never serves their files. */
export const buildRenditionPrefix = "build-";

/** 256 random bits in lower-case hex: the site's paths are lower case (app/http/canonical-path.ts), so base64url would be redirected. */
export const newBuildToken = () => randomBytes(32).toString("hex");
export const hashBuildToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** The rendition key of an update's photo (its own shape, around the middle). */
export const buildPhotoKey = (uploadId: string) =>
  `${buildRenditionPrefix}${createHash("sha256").update(`build:${uploadId}:1`).digest("hex").slice(0, 24)}`;

/** The stages a customer is shown, in order (Lost is the owner's business). */
const shownStages: readonly Stage[] = stages.filter((stage) => stage !== "lost");

const endsAt = (deliveredAt: unknown): Date | null =>
  deliveredAt === null || deliveredAt === undefined ? null : new Date(Number(deliveredAt) + afterDeliveryMs);

function photosOf(value: unknown): BuildPhoto[] {
  try {
    const parsed = JSON.parse(String(value ?? "[]")) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((photo: { upload?: unknown; key?: unknown }) =>
      typeof photo?.upload === "string" && typeof photo.key === "string"
        ? [{ upload: photo.upload, key: photo.key }]
        : [],
    );
  } catch {
    return [];
  }
}

const updateFrom = (row: Row): BuildUpdate => ({
  id: String(row.id),
  enquiryId: String(row.enquiry_id),
  at: time(row.at),
  author: String(row.author),
  body: String(row.body),
  photos: photosOf(row.photos),
  emailed: Number(row.emailed) === 1,
});

/** The stages reached, each with when it was last entered, in the pipeline's order up to the current stage. */
export function reachedStages(
  receivedAt: Date,
  current: Stage,
  changes: readonly { at: Date; to: unknown }[],
  stageAt: Date | null = null,
): { stage: Stage; at: Date | null }[] {
  const last = new Map<Stage, Date | null>([["new", receivedAt]]);
  for (const change of changes) {
    if (shownStages.includes(change.to as Stage)) last.set(change.to as Stage, change.at);
  }
  // The current stage is always shown: set without a timeline line (by hand, or before the timeline), it is dated by
  // the enquiry's `stage_at` when there is one.
  if (current !== "lost" && !last.has(current)) last.set(current, stageAt);
  const upTo = current === "lost" ? -1 : shownStages.indexOf(current);
  return shownStages.flatMap((stage, index) =>
    last.has(stage) && index <= Math.max(upTo, 0) ? [{ stage, at: last.get(stage) ?? null }] : [],
  );
}

export function buildPageOperations(db: SqlClient, sealer: SecretsSealer = sealerWith(undefined)): BuildPageStore {
  const activity = (actor: string, action: string, enquiryId: string, at: number, detail: string | null = null) => ({
    sql: "INSERT INTO activity (id, at, actor, action, enquiry_id, detail) VALUES (?, ?, ?, ?, ?, ?)",
    params: [randomUUID(), at, actor, action, enquiryId, detail],
  });

  const linkFrom = (row: Row): BuildPageLink => ({
    token: sealer.open(String(row.token_sealed), buildTokenColumn, String(row.enquiry_id)),
    createdAt: time(row.created_at),
    createdBy: String(row.created_by),
    revokedAt: timeOrNull(row.revoked_at),
    endsAt: endsAt(row.delivered_at),
  });

  const updatesOf = async (enquiryId: string) =>
    (await db.query("SELECT * FROM build_updates WHERE enquiry_id = ? ORDER BY at DESC, id DESC", [enquiryId])).map(
      updateFrom,
    );

  const readLink = async (enquiryId: string) => {
    const [row] = await db.query(
      `SELECT b.*, e.delivered_at FROM build_pages b JOIN enquiries e ON e.id = b.enquiry_id WHERE b.enquiry_id = ?`,
      [enquiryId],
    );
    return row ? linkFrom(row) : null;
  };

  return {
    async shareBuildPage(enquiryId, actor, now = new Date()) {
      const [enquiry] = await db.query("SELECT stage FROM enquiries WHERE id = ?", [enquiryId]);
      if (!enquiry) return { ok: false, refusal: "not-found" };
      if (!wonStages.includes(enquiry.stage as Stage)) return { ok: false, refusal: "stage" };
      const existing = await readLink(enquiryId);
      if (existing && existing.revokedAt === null) return { ok: true, link: existing, created: false };
      const token = newBuildToken();
      const at = now.getTime();
      // A share after a revoke replaces the row: the old token's hash is gone, so the old address stays a 404.
      const shared: Statement[] = [
        { sql: "DELETE FROM build_pages WHERE enquiry_id = ? AND revoked_at IS NOT NULL", params: [enquiryId] },
        {
          sql: `INSERT INTO build_pages (enquiry_id, token_hash, token_sealed, created_at, created_by, revoked_at)
                VALUES (?, ?, ?, ?, ?, NULL) ON CONFLICT (enquiry_id) DO NOTHING`,
          params: [enquiryId, hashBuildToken(token), sealer.seal(token, buildTokenColumn, enquiryId), at, actor],
        },
        insertEvent(enquiryId, { at, kind: "build-page", actor, detail: { action: "shared" } }),
        activity(actor, "build page shared", enquiryId, at),
      ];
      await db.transaction(shared);
      const link = await readLink(enquiryId);
      // Two owners at once: the other's share stands, and is shown.
      return link ? { ok: true, link, created: true } : { ok: false, refusal: "not-found" };
    },

    buildPageLink: (enquiryId) => readLink(enquiryId),

    async revokeBuildPage(enquiryId, actor, now = new Date()) {
      const at = now.getTime();
      const { revoked } = await transaction(db, [
        {
          name: "revoked",
          sql: "UPDATE build_pages SET revoked_at = ? WHERE enquiry_id = ? AND revoked_at IS NULL RETURNING enquiry_id",
          params: [at, enquiryId],
        },
      ]);
      if ((revoked ?? []).length === 0) return false;
      await db.transaction([
        insertEvent(enquiryId, { at, kind: "build-page", actor, detail: { action: "revoked" } }),
        activity(actor, "build page revoked", enquiryId, at),
      ]);
      return true;
    },

    async sharedBuild(token, now = new Date()) {
      // The same work for every token: one hash, one lookup by the unique index; what follows is decided in memory.
      const [row] = await db.query(
        `SELECT b.enquiry_id, b.revoked_at, e.name, e.received_at, e.stage, e.stage_at, e.delivered_at, e.service, e.about_title
         FROM build_pages b JOIN enquiries e ON e.id = b.enquiry_id WHERE b.token_hash = ?`,
        [hashBuildToken(token)],
      );
      if (!row || row.revoked_at !== null) return null;
      const ends = endsAt(row.delivered_at);
      if (ends && ends.getTime() <= now.getTime()) return null;
      const enquiryId = String(row.enquiry_id);
      const stage = stages.includes(row.stage as Stage) ? (row.stage as Stage) : "new";
      const changes = await db.query(
        "SELECT at, detail FROM enquiry_events WHERE enquiry_id = ? AND kind = 'stage' ORDER BY at, id",
        [enquiryId],
      );
      const title = [row.about_title, row.service].find((value) => typeof value === "string" && value.trim() !== "");
      const shared: SharedBuild = {
        enquiryId,
        customerName: String(row.name),
        title: typeof title === "string" ? title : null,
        stage,
        stages: reachedStages(
          time(row.received_at),
          stage,
          changes.map((change) => {
            let to: unknown = null;
            try {
              to = (JSON.parse(String(change.detail ?? "null")) as { to?: unknown } | null)?.to;
            } catch {
              // A line written by hand: no stage.
            }
            return { at: time(change.at), to };
          }),
          timeOrNull(row.stage_at),
        ),
      };
      return shared;
    },

    async postBuildUpdate(enquiryId, { author, body, photos, mail }, now = new Date()) {
      const id = randomUUID();
      const eventId = randomUUID();
      const at = now.getTime();
      const emailed = mail !== null;
      const { stored } = await transaction(db, [
        // Held first: a mail queued here chains after one queued at the same moment (queueCustomerMail).
        ...lockEnquiry(db, enquiryId),
        {
          name: "stored",
          // Typed: PostgreSQL cannot tell a parameter's type from a select list.
          sql: `INSERT INTO build_updates (id, enquiry_id, at, author, body, photos, emailed)
                SELECT CAST(? AS TEXT), id, CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT),
                       CAST(? AS INTEGER)
                FROM enquiries WHERE id = ? RETURNING *`,
          params: [id, at, author, body, JSON.stringify(photos), emailed ? 1 : 0, enquiryId],
        },
        insertEvent(
          enquiryId,
          { at, kind: "update", actor: author, body, detail: { update: id, photos: photos.length, emailed } },
          eventId,
        ),
        activity(
          author,
          "build update posted",
          enquiryId,
          at,
          `${photos.length} photo(s)${emailed ? ", e-mailed" : ""}`,
        ),
        ...(mail ? [queueCustomerMail({ enquiryId, kind: "build-update", eventId, at, ...mail })] : []),
      ]);
      const [row] = stored ?? [];
      return row ? updateFrom(row) : null;
    },

    buildUpdates: updatesOf,

    async answerFromBuildPage(enquiryId, text, channels, now = new Date(), spam) {
      const at = now.getTime();
      const alertId = randomUUID();
      const line = insertEvent(enquiryId, {
        at,
        kind: "customer",
        actor: "customer",
        body: text,
        detail: { via: "build-page", ...(spam ? { spam } : {}) },
      });
      const logged = (action: string) => ({
        sql: `INSERT INTO activity (id, at, actor, action, enquiry_id, detail)
              SELECT CAST(? AS TEXT), CAST(? AS BIGINT), 'customer', CAST(? AS TEXT), id, NULL
              FROM enquiries WHERE id = ?`,
        params: [randomUUID(), at, action, enquiryId],
      });
      // Judged spam: kept in the timeline for the owner to read, marked, but nobody is told and nothing waits (a real
      // customer's words are never thrown away on a filter's say-so).
      if (spam) {
        const { found } = await transaction(db, [
          { name: "found", sql: "SELECT id FROM enquiries WHERE id = ?", params: [enquiryId] },
          line,
          logged("answered on the build page (kept aside as spam)"),
        ]);
        return (found ?? []).length === 1;
      }
      const { answered } = await transaction(db, [
        {
          name: "answered",
          // Waiting again, and back in the New folder when it had been marked handled: there is something to answer.
          sql: `UPDATE enquiries SET customer_at = ?, status = CASE WHEN status = 'handled' THEN 'new' ELSE status END
                WHERE id = ? RETURNING id, name`,
          params: [at, enquiryId],
        },
        line,
        logged("answered on the build page"),
        // The owner's announcement, sent by the owner's alerts' sender (kind `customer-answer`): the customer's name
        // (read from the enquiry in the statement), the enquiry's id for the link, and the text; nothing else.
        ...channels.map((channel) => ({
          sql: `INSERT INTO owner_alerts (id, channel, kind, at, operator_email, browser, address, customer_name,
                  enquiry_id, detail, state, attempts, next_attempt_at)
                SELECT CAST(? AS TEXT), CAST(? AS TEXT), 'customer-answer', CAST(? AS BIGINT), NULL, '', '', name,
                       id, CAST(? AS TEXT), 'pending', 0, CAST(? AS BIGINT)
                FROM enquiries WHERE id = ?`,
          params: [alertId, channel, at, answerDetail(text), at, enquiryId],
        })),
      ]);
      return (answered ?? []).length === 1;
    },

    async buildPhotoFile(enquiryId, name) {
      const keys = [...new Set((await updatesOf(enquiryId)).flatMap((update) => update.photos.map((p) => p.key)))];
      if (keys.length === 0) return null;
      const [row] = await db.query(
        `SELECT name, content_type, bytes FROM photo_files WHERE name = ? AND rendition_key IN (${keys.map(() => "?").join(", ")})`,
        [name, ...keys],
      );
      if (!row) return null;
      const bytes = row.bytes instanceof Uint8Array ? row.bytes : new Uint8Array(row.bytes as ArrayBuffer);
      return { name: String(row.name), contentType: String(row.content_type), bytes };
    },
  };
}

/**
 * For an erase (app/store/deletion.server.ts): the statements that remove what the build pages of the enquiries
 * `enquiries` (a sub-select over `params`) left outside their own rows, which go with the enquiry (ON DELETE CASCADE):
 * the owner's announcements of the customers' answers (their name and words), and the updates' photos (their encoded
 * files, renditions and, unless another rendition uses it, the upload). Read before the erase's transaction.
 */
export async function buildPageErasure(db: SqlClient, enquiries: string, params: Params): Promise<Statement[]> {
  const rows = await db.query(`SELECT photos FROM build_updates WHERE enquiry_id IN ${enquiries}`, params);
  const photos = rows.flatMap((row) => photosOf(row.photos));
  const keys = [...new Set(photos.map((photo) => photo.key))];
  const uploads = [...new Set(photos.map((photo) => photo.upload))];
  const list = (values: readonly string[]) => values.map(() => "?").join(", ");
  return [
    {
      sql: `DELETE FROM owner_alerts WHERE enquiry_id IN ${enquiries}`,
      params,
    },
    ...(keys.length === 0
      ? []
      : [
          { sql: `DELETE FROM photo_files WHERE rendition_key IN (${list(keys)})`, params: keys },
          { sql: `DELETE FROM photo_renditions WHERE key IN (${list(keys)})`, params: keys },
          {
            sql: `DELETE FROM photo_uploads WHERE id IN (${list(uploads)})
                  AND NOT EXISTS (SELECT 1 FROM photo_renditions r WHERE r.upload_id = photo_uploads.id)`,
            params: uploads,
          },
        ]),
  ];
}

/** The tables an erase of a build page's enquiry changes besides the enquiry's own. */
export const buildPageErasedTables = [
  "build_updates",
  "build_pages",
  "enquiry_events",
  "owner_alerts",
  "photo_files",
  "photo_renditions",
  "photo_uploads",
];
