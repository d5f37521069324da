import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where a process keeps files for a moment (an upload being received, a clip being encoded, a backup being checked):
 * one folder per process, `haunt-scratch-<pid>` in the temp folder, removed when the process exits. A process killed
 * mid-work (SIGKILL, a crash, a container's hard stop) cannot remove it: the server's next start sweeps every such
 * folder whose process is gone, its own pid's too (a restarted container's server often has the same pid), so a
 * crash loop does not fill the disk with 25 MB uploads and 200 MB clips. Each container is assumed to have its own
 * temp folder (as Docker gives it): two hosts' pids in one shared folder cannot be told apart.
 */

const prefix = "haunt-scratch-";

/** This process's folders (one per temp folder it has used: tests change TMPDIR), each removed at exit. */
const own = new Set<string>();

function ownFolder(): string {
  const folder = join(tmpdir(), `${prefix}${process.pid}`);
  mkdirSync(folder, { recursive: true });
  if (!own.has(folder)) {
    own.add(folder);
    // Also on process.exit() and an uncaught error; a SIGKILL is left to the next start's sweep.
    process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
  }
  return folder;
}

/** A new folder in this process's scratch folder, its name starting with `name`; the caller removes it when done. */
export function scratchFolder(name: string): Promise<string> {
  return mkdtemp(join(ownFolder(), name));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the scratch folders of processes that are gone, and this pid's own (left by an earlier life: nothing of
 * this process is in it yet). Run once at the server's start; answers how many were removed.
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
    const pid = entry.startsWith(prefix) ? Number(entry.slice(prefix.length)) : NaN;
    if (!Number.isSafeInteger(pid) || pid <= 0) continue;
    if (pid !== process.pid && alive(pid)) continue;
    if (pid === process.pid && own.has(join(tmpdir(), entry))) continue;
    try {
      rmSync(join(tmpdir(), entry), { recursive: true, force: true });
      removed += 1;
    } catch {
      // Another process's folder this user may not remove: left as it is.
    }
  }
  return removed;
}
