import { unlink } from "node:fs/promises";
import { listBackups, type BackupFile } from "~/store/backup-files.server";

const dayMs = 86_400_000;

/**
 * Which backups rotation keeps: the newest `keepHourly`, and the first of each UTC day for the last `keepDaily` days
 * (today included). Everything else goes. Called only after a backup succeeded, so a run of failures removes nothing.
 */
export function backupsToKeep(
  backups: readonly Pick<BackupFile, "name" | "takenAt">[],
  { keepHourly, keepDaily }: { keepHourly: number; keepDaily: number },
  now: Date,
): Set<string> {
  const newestFirst = [...backups].sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
  const keep = new Set(newestFirst.slice(0, keepHourly).map((backup) => backup.name));
  const today = Math.floor(now.getTime() / dayMs);
  const firstOfDay = new Map<number, string>();
  for (const backup of newestFirst) {
    const day = Math.floor(backup.takenAt.getTime() / dayMs);
    if (today - day < keepDaily) firstOfDay.set(day, backup.name); // newest first: the last one set is the day's first
  }
  for (const name of firstOfDay.values()) keep.add(name);
  return keep;
}

/** Deletes the backups rotation does not keep; resolves with their names. */
export async function rotateBackups(
  dir: string,
  databasePath: string,
  keep: { keepHourly: number; keepDaily: number },
  now: Date,
): Promise<string[]> {
  const backups = await listBackups(dir, databasePath);
  const kept = backupsToKeep(backups, keep, now);
  const removed: string[] = [];
  for (const backup of backups) {
    if (kept.has(backup.name)) continue;
    await unlink(backup.path);
    removed.push(backup.name);
  }
  return removed;
}
