import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";

/**
 * Backups of the SQLite inbox (docs/decisions/0033-online-sqlite-backups.md), split by concern: their files and names
 * (here), the lock (backup-lock), the copy and its check in a worker thread (backup-thread), encryption
 * (backup-encryption), taking one (backups), rotation (backup-rotation) and restoring (backup-restore).
 */

/** What a backup holds, for `npm run inbox -- backups`; null: the table is not in that database (an older one). */
export interface BackupCounts {
  enquiries: number | null;
  siteVersions: number | null;
  photos: number | null;
}

export interface BackupFile {
  name: string;
  path: string;
  /** When it was taken (from its name). */
  takenAt: Date;
  bytes: number;
  encrypted: boolean;
}

/** A backup that could not be taken, checked or put back, in terms an operator can act on. */
export class BackupError extends Error {
  override name = "BackupError";
}

export const encryptedSuffix = ".enc";

/** `enquiries.db` -> `enquiries`: the backups carry the database's own name. */
export const stemOf = (databasePath: string) => basename(databasePath).replace(/\.(db|sqlite3?)$/i, "") || "database";

// Per database: two databases' backups in one directory never wait for each other. Fixed names: one at a time anyway.
export const inProgressName = (databasePath: string) => `.${stemOf(databasePath)}.backup-in-progress.db`;
export const lockName = (databasePath: string) => `.${stemOf(databasePath)}.backup.lock`;

/**
 * `enquiries-2026-11-26T11-00-00.000Z.db` (`.db.enc` when encrypted): names sort by time. To the millisecond: two
 * backups taken within one second (the command right after the server's) must not share a name, or the rename of the
 * second would replace the first.
 */
export function backupFileName(databasePath: string, at: Date, encrypted: boolean): string {
  const stamp = at.toISOString().slice(0, 23).replace(/:/g, "-");
  return `${stemOf(databasePath)}-${stamp}Z.db${encrypted ? encryptedSuffix : ""}`;
}

const namePattern = /-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3})Z\.db(\.enc)?$/;
const stampOnly = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.db(\.enc)?$/;

/** When the backup named `name` was taken, or null when it is not a backup's name. */
export function backupTime(name: string): Date | null {
  const match = namePattern.exec(name);
  if (!match) return null;
  const [date, time] = match[1]!.split("T");
  const at = new Date(`${date}T${time!.replace(/-/g, ":")}Z`);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** The backups in `dir` of the database at `databasePath`, newest first. Throws (ENOENT...) when `dir` cannot be read. */
export async function listBackups(dir: string, databasePath: string): Promise<BackupFile[]> {
  const prefix = `${stemOf(databasePath)}-`;
  const files: BackupFile[] = [];
  for (const name of await readdir(dir)) {
    // Exactly the stem, then the time: `spam-extra-…` is not a backup of `spam`.
    const takenAt = name.startsWith(prefix) && stampOnly.test(name.slice(prefix.length)) ? backupTime(name) : null;
    if (!takenAt) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) continue;
    files.push({ name, path, takenAt, bytes: info.size, encrypted: name.endsWith(encryptedSuffix) });
  }
  return files.sort((a, b) => b.name.localeCompare(a.name));
}
