import { readdirSync, rmSync, statSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where a process keeps files for a moment (an upload being received, a clip being encoded, a backup being checked):
 * folders named `haunt-scratch-<pid>-…` in the temp folder, each removed by whoever made it when done. A process killed
 * mid-work (SIGKILL, a crash, a container's hard stop) cannot remove them: the server's next start sweeps every such
 * folder whose process is gone, and its own pid's made before it started (a restarted container's server often has the
 * same pid), so a crash loop does not fill the disk with 25 MB uploads and 200 MB clips. Each container is assumed to
 * have its own temp folder (as Docker gives it): two hosts' pids in one shared folder cannot be told apart.
 */

const pattern = /^haunt-scratch-(\d+)-/;

/** A new folder in the temp folder for this process's work, its name ending in `name`; the caller removes it. */
export function scratchFolder(name: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `haunt-scratch-${process.pid}-${name}`));
}

/** Whether a process with this pid exists (EPERM: it does, under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the scratch folders of processes that are gone, and this pid's made before this process started (an earlier
 * life's). Run once at the server's start; answers how many were removed.
 */
export function sweepScratch(): number {
  let entries: string[];
  try {
    entries = readdirSync(tmpdir());
  } catch {
    return 0;
  }
  let removed = 0;
  for (const entry of entries) {
    const pid = Number(pattern.exec(entry)?.[1] ?? NaN);
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    const path = join(tmpdir(), entry);
    if (pid === process.pid) {
      const made = statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
      if (made >= performance.timeOrigin) continue;
    } else if (processAlive(pid)) continue;
    try {
      rmSync(path, { recursive: true, force: true });
      removed += 1;
    } catch {
      // Another user's folder this process may not remove: left as it is.
    }
  }
  return removed;
}
