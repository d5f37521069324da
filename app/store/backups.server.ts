import { open, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { encryptFile, syncDir, syncFile } from "~/store/backup-encryption.server";
import {
  BackupError,
  backupFileName,
  encryptedSuffix,
  inProgressName,
  type BackupCounts,
  type BackupFile,
} from "~/store/backup-files.server";
import { takeLock } from "~/store/backup-lock.server";
import { answerError, failureWords, inWorker } from "~/store/backup-thread.server";

/**
 * Taking a backup of the SQLite inbox (docs/decisions/0033-online-sqlite-backups.md): SQLite's online backup API from a
 * connection of its own in a worker thread (consistent while the server writes; neither the event loop nor the
 * server's own connection waits for the copy), `PRAGMA integrity_check` on the copy, then (with a key) AES-256-GCM,
 * and only then the file's real name. One backup at a time per directory (a lock file), across processes.
 */

export interface TakenBackup {
  file: BackupFile;
  counts: BackupCounts;
}

/**
 * Takes one backup of the database at `databasePath` into `dir`: the copy under a temporary name, checked, encrypted
 * when there is a key (the plaintext copy removed), then renamed. Throws BackupError with a plain message; nothing is left behind
 * but the lock's absence and the older backups, untouched.
 */
export async function takeBackup({
  databasePath,
  dir,
  key,
  now = new Date(),
  busyTimeoutMs = 5_000,
}: {
  databasePath: string;
  dir: string;
  key: Buffer | undefined;
  now?: Date;
  busyTimeoutMs?: number;
}): Promise<TakenBackup> {
  // Never made here: opening a missing file would create an empty database where a removed one should be missed.
  if (
    !(await stat(databasePath).then(
      (info) => info.isFile(),
      () => false,
    ))
  )
    throw new BackupError(`there is no database file at ${databasePath}`);
  let release: () => Promise<void>;
  try {
    release = await takeLock(dir, databasePath, now);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(failureWords(error, dir));
  }
  const plain = join(dir, inProgressName(databasePath));
  const sealed = plain + encryptedSuffix;
  try {
    await rm(plain, { force: true });
    // Personal data: the copy is readable by its owner only (SQLite writes into the empty file it finds).
    await (await open(plain, "wx", 0o600)).close();
    const answer = await inWorker({ op: "copy", source: databasePath, target: plain, busyTimeoutMs });
    if (!answer.ok) {
      const error = answerError(answer);
      throw new BackupError(
        /integrity check/.test(answer.message)
          ? `the copy failed its check: ${answer.message}`
          : failureWords(error, dir),
      );
    }
    let written = plain;
    if (key) {
      await encryptFile(plain, sealed, key);
      await rm(plain, { force: true });
      written = sealed;
    }
    await syncFile(written);
    const name = backupFileName(databasePath, now, Boolean(key));
    const path = join(dir, name);
    await rename(written, path);
    await syncDir(dir);
    const bytes = (await stat(path)).size;
    return { file: { name, path, takenAt: now, bytes, encrypted: Boolean(key) }, counts: answer.counts };
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(failureWords(error, dir));
  } finally {
    // Whatever went wrong, no half-written copy stays (nor a plaintext one beside an encrypted backup).
    const leftovers = [plain, sealed, ...["-journal", "-wal", "-shm"].map((suffix) => plain + suffix)];
    await Promise.all(leftovers.map((path) => rm(path, { force: true }))).catch(() => {});
    await release();
  }
}
