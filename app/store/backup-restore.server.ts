import { copyFile, mkdir, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { decryptFile, syncDir } from "~/store/backup-encryption.server";
import { BackupError, encryptedSuffix, type BackupCounts } from "~/store/backup-files.server";
import { inWorker } from "~/store/backup-thread.server";
import { scratchFolder } from "~/scratch.server";

/** Putting a backup of the SQLite inbox back: checked (and decrypted) first, the current database kept aside. */

/**
 * A backup file made ready to use: decrypted when it is encrypted, into a temporary file in `workDir` (on the same
 * disk as where it is going), and checked. The caller removes `path` when done with it.
 */
export async function readyBackup(
  file: string,
  key: Buffer | undefined,
  workDir: string,
): Promise<{ path: string; counts: BackupCounts }> {
  const path = join(workDir, `.restore-${process.pid}-${basename(file)}.tmp`);
  try {
    if (file.endsWith(encryptedSuffix)) await decryptFile(file, path, key);
    else await copyFile(file, path);
    const answer = await inWorker({ op: "check", path });
    if (!answer.ok) {
      throw new BackupError(
        /integrity check/.test(answer.message)
          ? `${basename(file)} is damaged: ${answer.message}`
          : `${basename(file)} is not a usable database (${answer.message})`,
      );
    }
    return { path, counts: answer.counts };
  } catch (error) {
    await rm(path, { force: true });
    if (error instanceof BackupError) throw error;
    const { code } = error as NodeJS.ErrnoException;
    if (code === "ENOENT") throw new BackupError(`there is no file ${file}`);
    throw new BackupError(`${basename(file)} could not be read: ${(error as Error).message}`);
  }
}

/** Checks a backup and says what it holds, without keeping anything (a private temporary directory). */
export async function inspectBackup(file: string, key: Buffer | undefined): Promise<BackupCounts> {
  const work = await scratchFolder("backup-check-");
  try {
    return (await readyBackup(file, key, work)).counts;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** `enquiries.db` -> `enquiries.db.before-restore-2026-11-26T11-00-00Z` */
export const asideName = (databasePath: string, now: Date) =>
  `${databasePath}.before-restore-${now.toISOString().slice(0, 19).replace(/:/g, "-")}Z`;

/**
 * Puts a backup in place of the database at `databasePath`: checked first; refused while any process has the
 * database open (an exclusive SQLite lock that cannot be had); the current file (its WAL checkpointed into it first)
 * kept aside under a timestamped name with any -wal and -shm moved with it. Resolves with where the old one went.
 */
export async function restoreBackup({
  databasePath,
  file,
  key,
  now = new Date(),
}: {
  databasePath: string;
  file: string;
  key: Buffer | undefined;
  now?: Date;
}): Promise<{ asidePath: string | null; counts: BackupCounts }> {
  await mkdir(dirname(databasePath), { recursive: true }); // a restore onto a new, empty volume
  const ready = await readyBackup(file, key, dirname(databasePath));
  try {
    const asidePath = await setAside(databasePath, now);
    await rename(ready.path, databasePath);
    await syncDir(dirname(databasePath));
    return { asidePath, counts: ready.counts };
  } finally {
    await rm(ready.path, { force: true });
  }
}

/** Thrown when a server (or another command) holds the database open. */
export class DatabaseInUseError extends BackupError {
  override name = "DatabaseInUseError";
}

async function setAside(databasePath: string, now: Date): Promise<string | null> {
  const exists = await stat(databasePath).then(
    () => true,
    () => false,
  );
  if (!exists) return null;
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(databasePath, { timeout: 0 });
  try {
    // Every connection of another process holds a shared lock as long as it is open: the exclusive one fails (BUSY).
    // The OS drops a killed process's locks, so a server gone by kill -9 never blocks this.
    try {
      db.exec("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT");
    } catch (error) {
      if (((error as { errcode?: number }).errcode ?? 0) % 256 === 5)
        throw new DatabaseInUseError(
          "a server (or another command) is using the database now: stop the server first, then run restore again",
        );
      throw error;
    }
    db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
  const aside = asideName(databasePath, now);
  // Moved together, the database last: its -wal (empty after the checkpoint) and -shm never pair with another file.
  for (const suffix of ["-wal", "-shm"])
    await rename(databasePath + suffix, aside + suffix).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
  await rename(databasePath, aside);
  return aside;
}
