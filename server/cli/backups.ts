import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { backupCopy as copy } from "~/wording/backups";
import { BackupError, listBackups, type BackupFile } from "~/store/backup-files.server";
import { inspectBackup, restoreBackup } from "~/store/backup-restore.server";
import { visible } from "~/text/safety";
import { backupAndRotate } from "../backups";
import { commandConfig, type CommandIo } from "./command-io";

/**
 * `npm run inbox -- backup`, `backups` and `restore FILE` (docs/operating.md#backups): the same backup as the server's
 * schedule (one at a time, across both), the list with each file checked, and a restore refused while the database
 * is in use.
 */

export const backupUsage = copy.usage;
export const isBackupCommand = (argv: readonly string[]) => ["backup", "backups", "restore"].includes(argv[0] ?? "");

const when = (at: Date) => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** Resolves with the exit code (0 done, 1 failed, 2 wrong usage). */
export async function runBackupCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const [command, ...rest] = argv;
  const expected = command === "restore" ? 1 : 0;
  if (rest.length !== expected) {
    io.stderr.write(
      `inbox: ${command === "restore" ? "restore takes one backup file" : `${command} takes no arguments`}\n` +
        "Try 'npm run inbox -- --help'.\n",
    );
    return 2;
  }
  const config = commandConfig(io);
  if (config.database.kind !== "sqlite" || !config.backup?.dir) {
    (command === "backup" ? io.stdout : io.stderr).write(`${copy.postgres}\n`);
    return command === "backup" ? 0 : 1;
  }
  const databasePath = config.database.path;
  const { dir, key } = config.backup;
  try {
    if (command === "backup") {
      // The operator asked for it: the directory is made when missing (the server only makes it at its start).
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const { taken, removed } = await backupAndRotate(config, databasePath);
      io.stdout.write(`${copy.taken(taken.file.name, taken.file.bytes, copy.counts(taken.counts), removed.length)}\n`);
      return 0;
    }
    if (command === "backups") return await list(dir, databasePath, key, io);
    const { asidePath, counts } = await restoreBackup({ databasePath, file: resolve(rest[0]!), key });
    io.stdout.write(`${copy.restored(visible(rest[0]!), copy.counts(counts), asidePath)}\n`);
    return 0;
  } catch (error) {
    const words = error instanceof BackupError ? error.message : (error as Error).message;
    io.stderr.write(`inbox: ${command === "restore" ? copy.refused(words) : copy.failed(words)}\n`);
    return 1;
  }
}

async function list(dir: string, databasePath: string, key: Buffer | undefined, io: CommandIo): Promise<number> {
  let backups: BackupFile[];
  try {
    backups = await listBackups(dir, databasePath);
  } catch (error) {
    io.stderr.write(`inbox: ${copy.unreadableDir(dir, (error as Error).message)}\n`);
    return 1;
  }
  if (backups.length === 0) {
    io.stdout.write(`${copy.noneYet(dir)}\n`);
    return 0;
  }
  let bad = 0;
  for (const backup of backups) {
    // Each one opened and checked: a list that says "fine" for a file that would not restore is worse than none.
    const what = await inspectBackup(backup.path, key).then(
      (counts) => copy.counts(counts),
      (error: Error) => {
        bad++;
        return `NOT USABLE: ${error.message}`;
      },
    );
    io.stdout.write(`${backup.name}  ${when(backup.takenAt)}  ${backup.bytes} bytes  ${what}\n`);
  }
  io.stdout.write(`${copy.listed(backups.length, dir)}\n`);
  return bad > 0 ? 1 : 0;
}
