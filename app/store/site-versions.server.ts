import { randomUUID } from "node:crypto";
import { time } from "~/store/rows.server";
import { transaction, type Row, type SqlClient } from "~/store/sql.server";
import type { SiteChange, SiteDraft, SiteStore, SiteVersion } from "~/store/site-versions.types";

/**
 * The site's content in the database (ADR 0030): one draft row whose revision every save raises (compared
 * and raised in one UPDATE, so of two saves from the same revision exactly one lands, on any instance), and the
 * published versions, numbered in the same transaction as the save that made them. Written once for SQLite and
 * PostgreSQL.
 */

const versionFrom = (row: Row): SiteVersion => ({
  number: Number(row.number),
  publishedAt: time(row.published_at),
  publishedBy: String(row.published_by),
  changes: JSON.parse(String(row.changes)) as SiteChange[],
  restoredFrom: row.restored_from === null || row.restored_from === undefined ? null : Number(row.restored_from),
});

const draftFrom = (row: Row | undefined): SiteDraft => ({
  content: row?.content === null || row?.content === undefined ? null : String(row.content),
  revision: Number(row?.revision ?? 0),
  savedAt: row?.saved_at === null || row?.saved_at === undefined ? null : time(row.saved_at),
  savedBy: row?.saved_by === null || row?.saved_by === undefined ? null : String(row.saved_by),
});

/** The activity entry's detail: the version and its changes, kept short (the history page has them all). */
function changesDetail(changes: readonly SiteChange[], restoredFrom: number | undefined): string {
  const listed = changes
    .map(({ label, before, after }) => (before === "" ? `${label}: ${after}` : `${label}: ${before} → ${after}`))
    .join("; ");
  const detail = `${restoredFrom ? `restored version ${restoredFrom}; ` : ""}${listed}`;
  return detail.length > 500 ? `${detail.slice(0, 499)}…` : detail;
}

export function siteOperations(db: SqlClient): SiteStore {
  const operations: SiteStore = {
    async latestSiteVersion() {
      const [row] = await db.query("SELECT MAX(number) AS n FROM site_versions");
      return Number(row?.n ?? 0);
    },

    async siteState() {
      const [row] = await db.query(
        `SELECT (SELECT MAX(number) FROM site_versions) AS version,
                (SELECT COUNT(*) FROM photo_renditions WHERE state = 'ready') AS ready`,
      );
      return { version: Number(row?.version ?? 0), readyRenditions: Number(row?.ready ?? 0) };
    },

    async publishedSite() {
      const [row] = await db.query("SELECT * FROM site_versions ORDER BY number DESC LIMIT 1");
      return row ? { ...versionFrom(row), content: String(row.content) } : null;
    },

    async siteVersion(number) {
      const [row] = await db.query("SELECT * FROM site_versions WHERE number = ?", [number]);
      return row ? { ...versionFrom(row), content: String(row.content) } : null;
    },

    async siteVersions({ limit, offset }) {
      const rows = await db.query(
        `SELECT number, published_at, published_by, changes, restored_from FROM site_versions
         ORDER BY number DESC LIMIT ? OFFSET ?`,
        [limit, offset],
      );
      return rows.map(versionFrom);
    },

    async siteDraft() {
      const [row] = await db.query("SELECT * FROM site_draft WHERE id = 1");
      return draftFrom(row);
    },

    async saveSiteDraft(content, baseRevision, actor, now = new Date()) {
      const [row] = await db.query(
        `UPDATE site_draft SET content = ?, revision = revision + 1, saved_at = ?, saved_by = ?, save_token = NULL
         WHERE id = 1 AND revision = ? RETURNING revision`,
        [content, now.getTime(), actor, baseRevision],
      );
      return row ? { ok: true, revision: Number(row.revision) } : { ok: false, draft: await operations.siteDraft() };
    },

    async publishSite(content, baseRevision, actor, changes, { restoredFrom, now = new Date() } = {}) {
      const at = now.getTime();
      // The token marks this transaction's save, so the steps after it act only if that save landed (a WHERE on the
      // revision alone could match a concurrent save that raised it to the same number).
      const token = randomUUID();
      const steps = await transaction(db, [
        {
          name: "saved",
          sql: `UPDATE site_draft SET content = ?, revision = revision + 1, saved_at = ?, saved_by = ?, save_token = ?
                WHERE id = 1 AND revision = ? RETURNING revision`,
          params: [content, at, actor, token, baseRevision],
        },
        {
          name: "published",
          sql: `INSERT INTO site_versions (number, content, published_at, published_by, changes, restored_from)
                SELECT COALESCE((SELECT MAX(number) FROM site_versions), 0) + 1, content, CAST(? AS BIGINT),
                  CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER)
                FROM site_draft WHERE id = 1 AND save_token = ? RETURNING number`,
          params: [at, actor, JSON.stringify(changes), restoredFrom ?? null, token],
        },
        {
          sql: `INSERT INTO activity (id, at, actor, action, enquiry_id, detail)
                SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), NULL,
                  'version ' || CAST((SELECT MAX(number) FROM site_versions) AS TEXT) || ': ' || CAST(? AS TEXT)
                FROM site_draft WHERE id = 1 AND save_token = ?`,
          params: [randomUUID(), at, actor, "published the site", changesDetail(changes, restoredFrom), token],
        },
      ]);
      const [saved] = steps.saved;
      const [published] = steps.published;
      if (!saved || !published) return { ok: false, draft: await operations.siteDraft() };
      return { ok: true, version: Number(published.number), revision: Number(saved.revision) };
    },
  };
  return operations;
}
