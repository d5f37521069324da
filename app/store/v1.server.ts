import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { emailKey } from "~/store/rows.server";
import { transaction, type SqlClient } from "~/store/sql.server";
import { erasedAddressHash } from "~/store/statements.server";
import type { V1ImportStore, V1Record } from "~/store/v1.types";

/**
 * The v1 JSON-lines inbox in the database: its lines imported once each (never one from an erased address), and the
 * files imported whole remembered. Reading the file at start is server/v1-import.ts's job.
 */

/** Lines per transaction. */
const batchSize = 500;

/** A v1 line's id is derived from its content, so importing the same file again adds nothing. */
function v1Id(record: V1Record): string {
  const digest = createHash("sha256")
    .update(JSON.stringify([record.receivedAt, record.name, record.email, record.message]))
    .digest("hex");
  return `v1-${digest.slice(0, 32)}`;
}

export function v1Operations(db: SqlClient): V1ImportStore {
  return {
    async v1FileImported({ size, mtimeMs, sha256 }) {
      const rows = sha256
        ? await db.query("SELECT 1 AS seen FROM v1_imports WHERE sha256 = ? AND size = ?", [sha256, size])
        : await db.query("SELECT 1 AS seen FROM v1_imports WHERE size = ? AND mtime_ms = ?", [
            size,
            Math.trunc(mtimeMs),
          ]);
      return rows.length > 0;
    },

    async rememberV1File(file, now = new Date()) {
      await db.query(
        `INSERT INTO v1_imports (sha256, size, mtime_ms, path, finished_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (sha256) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, path = excluded.path`,
        [file.sha256, file.size, Math.trunc(file.mtimeMs), file.path, now.getTime()],
      );
    },

    async importV1(records) {
      const erasedHash = await erasedAddressHash(db);
      let added = 0;
      for (let start = 0; start < records.length; start += batchSize) {
        const steps = records.slice(start, start + batchSize).map((record) => {
          const receivedAt = Date.parse(record.receivedAt);
          const key = emailKey(record.email);
          return {
            name: "added" as const,
            sql: `INSERT INTO enquiries (id, received_at, name, email, email_key, message, source)
                  SELECT CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), 'v1'
                  WHERE NOT EXISTS (SELECT 1 FROM erased_addresses WHERE hash = ?)
                  ON CONFLICT (id) DO NOTHING RETURNING id`,
            params: [
              v1Id(record),
              Number.isNaN(receivedAt) ? 0 : receivedAt,
              record.name,
              record.email,
              key,
              record.message,
              erasedHash(key),
            ],
          };
        });
        added += (await transaction(db, steps)).added.length;
      }
      return added;
    },
  };
}

/**
 * Whether the v1 file still holds this address (anywhere in a line, any case). An erase never rewrites the operator's
 * file (ADR 0015), so the operator is told instead. Read line by line: a large file in constant memory.
 */
export async function v1FileHolds(file: string, email: string): Promise<boolean> {
  const key = emailKey(email);
  try {
    await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  try {
    for await (const line of lines) if (key && line.toLowerCase().includes(key)) return true;
    return false;
  } finally {
    lines.close();
  }
}
