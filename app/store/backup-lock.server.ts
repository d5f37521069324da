import { readFile, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { BackupError, lockName } from "~/store/backup-files.server";

// A backup of a small business's database takes seconds; a lock this old is from a process that hung or died.
const staleLockMs = 60 * 60_000;
const heldHere = new Set<string>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the database's lock in `dir` (O_EXCL); one left by a process that is gone (kill -9 too) is taken over. */
export async function takeLock(dir: string, databasePath: string, now: Date): Promise<() => Promise<void>> {
  const path = join(dir, lockName(databasePath));
  if (heldHere.has(path)) throw new BackupError("a backup is already being taken by this process");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, JSON.stringify({ pid: process.pid, host: hostname(), at: now.toISOString() }), {
        flag: "wx",
        mode: 0o600,
      });
      heldHere.add(path);
      return async () => {
        heldHere.delete(path);
        await unlink(path).catch(() => {}); // gone already (the directory removed meanwhile)
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let holder: { pid?: number; host?: string; at?: string } = {};
      try {
        holder = JSON.parse(await readFile(path, "utf8")) as typeof holder;
      } catch {
        // unreadable or half-written: judged by its age alone
      }
      const age = now.getTime() - new Date(holder.at ?? 0).getTime();
      // Same host: the process is asked; our own pid is a previous life of this container (pid 1 again).
      const ownerGone =
        holder.host === hostname() &&
        typeof holder.pid === "number" &&
        (holder.pid === process.pid || !processAlive(holder.pid));
      if (!ownerGone && age < staleLockMs) {
        throw new BackupError(
          `another backup is being taken now (process ${holder.pid ?? "?"} since ${holder.at ?? "?"}); try again in a minute`,
        );
      }
      await unlink(path).catch(() => {});
    }
  }
  throw new BackupError("could not take the backup lock");
}
