import { mkdirSync } from "node:fs";
import { backgroundLoop, loopSlot } from "~/background-loop.server";
import type { Config } from "~/config.server";
import type { BackupStatus } from "~/site-services.server";
import { BackupError, listBackups } from "~/store/backup-files.server";
import { rotateBackups } from "~/store/backup-rotation.server";
import { takeBackup, type TakenBackup } from "~/store/backups.server";
import { log } from "~/log.server";

/**
 * The server's backups of its SQLite inbox (docs/operating.md#backups): one at start when the newest is older than
 * BACKUP_INTERVAL, then one every interval. A failure is logged, kept in the status the Enquiries page and the metrics
 * read, and tried again at the next interval; rotation runs only after a success, so failures never remove a good one.
 * Nothing on PostgreSQL (pg_dump is the operator's) or with BACKUP_INTERVAL=off.
 */

const running = loopSlot();
let settings: { databasePath: string; dir: string; intervalMs: number } | undefined;
const status: {
  lastAttemptAt: Date | null;
  ok: boolean | null;
  error: string | null;
  lastSuccessAt: Date | null;
  newestBackupAt: Date | null;
} = { lastAttemptAt: null, ok: null, error: null, lastSuccessAt: null, newestBackupAt: null };

/**
 * The backups' state in this process, for the Enquiries page and a metrics gauge: null when the server takes none
 * (PostgreSQL, API_HOST, BACKUP_INTERVAL=off).
 */
export function backupStatus(now = new Date()): BackupStatus | null {
  if (!settings) return null;
  return {
    intervalMs: settings.intervalMs,
    lastAttemptAt: status.lastAttemptAt,
    ok: status.ok,
    error: status.error,
    lastSuccessAt: status.lastSuccessAt,
    newestBackupAt: status.newestBackupAt,
    newestBackupAgeMs: status.newestBackupAt ? Math.max(0, now.getTime() - status.newestBackupAt.getTime()) : null,
  };
}

/** One backup now, then the rotation; logged either way. The command uses the same steps (server/cli/backups.ts). */
export async function backupAndRotate(
  config: Config,
  databasePath: string,
  now = new Date(),
): Promise<{ taken: TakenBackup; removed: string[] }> {
  const backup = config.backup!;
  const taken = await takeBackup({ databasePath, dir: backup.dir!, key: backup.key, now });
  const removed = await rotateBackups(backup.dir!, databasePath, backup, now);
  return { taken, removed };
}

async function attempt(config: Config) {
  const { databasePath, dir } = settings!;
  const now = new Date();
  status.lastAttemptAt = now;
  try {
    const { taken, removed } = await backupAndRotate(config, databasePath, now);
    Object.assign(status, { ok: true, error: null, lastSuccessAt: now, newestBackupAt: now });
    log.info(
      `[backup] ${taken.file.name} (${taken.file.bytes} bytes, ${taken.counts.enquiries ?? 0} enquiries)` +
        (removed.length > 0 ? `; rotation removed ${removed.length}` : ""),
    );
  } catch (error) {
    const words = error instanceof BackupError ? error.message : (error as Error).message;
    Object.assign(status, { ok: false, error: words });
    // What is really there now (the directory may be gone with every backup in it).
    status.newestBackupAt = await listBackups(dir, databasePath)
      .then((backups) => backups[0]?.takenAt ?? null)
      .catch(() => null);
    log.error(`[backup] BACKUP FAILED into ${dir}: ${words}; older backups are kept, tried again at the next interval`);
  }
}

/** Starts the schedule once the inbox is open (SQLite only). */
export function startBackups(config: Config): void {
  const backup = config.backup;
  if (config.apiHost || config.database.kind !== "sqlite" || !backup?.dir || backup.intervalMs === null) return;
  const { path: databasePath } = config.database;
  const dir = backup.dir;
  settings = { databasePath, dir, intervalMs: backup.intervalMs };
  // Made once at start, as the database's directory is; a directory that goes later is a failure to report.
  try {
    mkdirSync(backup.dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    log.error(`[backup] cannot make the backup directory ${backup.dir}: ${(error as Error).message}`);
  }
  const intervalMs = backup.intervalMs;
  running.start(() => {
    let first = true;
    const loop = backgroundLoop({
      intervalMs,
      pass: async () => {
        if (first) {
          first = false;
          const newest = await listBackups(dir, databasePath)
            .then((backups) => backups[0]?.takenAt ?? null)
            .catch(() => null);
          status.newestBackupAt = newest;
          // Due now when the newest is older than the interval (or there is none), else when it will be.
          const dueIn = newest ? newest.getTime() + intervalMs - Date.now() : 0;
          if (dueIn > 0) return Math.min(dueIn, intervalMs);
        }
        await attempt(config);
      },
      onError: (error) => log.error(`[backup] ${(error as Error).message}`),
      stopWaitMs: 3_000,
    });
    loop.start();
    return loop;
  });
}

/** At shutdown: no new backup; one in flight may finish within the shutdown's grace (its temp file is removed). */
export const stopBackups = running.stop;
