import { Worker } from "node:worker_threads";
import type { BackupCounts } from "~/store/backup-files.server";

type WorkerJob = { op: "copy"; source: string; target: string; busyTimeoutMs: number } | { op: "check"; path: string };
export type WorkerAnswer = { ok: true; counts: BackupCounts } | { ok: false; message: string; errcode?: number };

/** The worker's whole program (run from its source text: only Node's built-in modules, through getBuiltinModule). */
function backupWorker() {
  const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
  const { DatabaseSync, backup } = process.getBuiltinModule("node:sqlite");
  const job = workerData as WorkerJob;
  const countsOf = (db: InstanceType<typeof DatabaseSync>) => {
    const count = (table: string) => {
      try {
        return Number(db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get()?.n);
      } catch {
        return null;
      }
    };
    return { enquiries: count("enquiries"), siteVersions: count("site_versions"), photos: count("photo_uploads") };
  };
  /** Opened read-only: nothing is written to the file being checked. */
  const check = (path: string) => {
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const rows = db.prepare("PRAGMA integrity_check").all();
      const verdict = rows.map((row) => String(row.integrity_check)).join("; ");
      if (verdict !== "ok") throw new Error(`the integrity check found: ${verdict.slice(0, 500)}`);
      return countsOf(db);
    } finally {
      db.close();
    }
  };
  const run = async (): Promise<BackupCounts> => {
    if (job.op === "check") return check(job.path);
    const source = new DatabaseSync(job.source, { timeout: job.busyTimeoutMs });
    try {
      // One step (the largest page count there is): one read snapshot, never restarted by the server's writes.
      await backup(source, job.target, { rate: 2_147_483_647 });
    } finally {
      source.close();
    }
    // A backup is one self-contained file: no -wal or -shm beside it.
    const copy = new DatabaseSync(job.target);
    try {
      copy.exec("PRAGMA journal_mode = DELETE");
    } finally {
      copy.close();
    }
    return check(job.target);
  };
  run().then(
    (counts) => parentPort!.postMessage({ ok: true, counts }),
    (error: { message: string; errcode?: number }) =>
      parentPort!.postMessage({ ok: false, message: error.message, errcode: error.errcode }),
  );
}

const workerSource = `(${backupWorker.toString()})()`;

export function inWorker(job: WorkerJob): Promise<WorkerAnswer> {
  return new Promise((resolve) => {
    const worker = new Worker(workerSource, { eval: true, workerData: job });
    let answered = false;
    worker.once("message", (answer: WorkerAnswer) => {
      answered = true;
      resolve(answer);
      void worker.terminate();
    });
    worker.once("error", (error) => resolve({ ok: false, message: error.message }));
    worker.once("exit", (code) => {
      if (!answered) resolve({ ok: false, message: `the backup thread stopped (exit code ${code})` });
    });
  });
}

// --- Words for what went wrong -----------------------------------------------------------------------------------

/** A file system or SQLite failure with a plain message: what the operator is to fix. */
export function failureWords(error: unknown, dir: string): string {
  const { code, errcode, message } = error as NodeJS.ErrnoException & { errcode?: number };
  const primary = typeof errcode === "number" ? errcode & 0xff : undefined;
  if (code === "ENOSPC" || code === "EDQUOT" || primary === 13 || /disk is full|no space/i.test(message ?? ""))
    return "the disk is full";
  if (code === "EFBIG") return "the file is larger than the disk or a limit allows";
  if (code === "EROFS" || primary === 8) return `the backup directory ${dir} is read-only`;
  if (code === "EACCES" || code === "EPERM") return `this process may not write to the backup directory ${dir}`;
  if (code === "ENOENT" || code === "ENOTDIR")
    return `the backup directory ${dir} does not exist (removed, or its disk is not mounted)`;
  if (primary === 14) return `a file cannot be created in the backup directory ${dir}`;
  if (primary === 10) return `a disk error while writing to ${dir} (${message})`;
  return message ?? String(error);
}

export function answerError(answer: Extract<WorkerAnswer, { ok: false }>): Error {
  return Object.assign(new Error(answer.message), { errcode: answer.errcode });
}
