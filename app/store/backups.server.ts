import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import {
  copyFile,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
} from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { Worker } from "node:worker_threads";

/**
 * Backups of the SQLite inbox (docs/decisions/0033-online-sqlite-backups.md): SQLite's online backup API from a
 * connection of its own in a worker thread (consistent while the server writes; neither the event loop nor the
 * server's own connection waits for the copy), `PRAGMA integrity_check` on the copy, then (with a key) AES-256-GCM,
 * and only then the file's real name. One backup at a time per directory (a lock file), across processes.
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

/** A backup that could not be taken, checked or put back, in words an operator can act on. */
export class BackupError extends Error {
  override name = "BackupError";
}

const encryptedSuffix = ".enc";

/** `enquiries.db` -> `enquiries`: the backups carry the database's own name. */
const stemOf = (databasePath: string) => basename(databasePath).replace(/\.(db|sqlite3?)$/i, "") || "database";

// Per database: two databases' backups in one directory never wait for each other. Fixed names: one at a time anyway.
const inProgressName = (databasePath: string) => `.${stemOf(databasePath)}.backup-in-progress.db`;
const lockName = (databasePath: string) => `.${stemOf(databasePath)}.backup.lock`;

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

// --- Rotation -------------------------------------------------------------------------------------------------------

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

// --- The lock: one backup at a time per directory, across the server and the command -----------------------------

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
async function takeLock(dir: string, databasePath: string, now: Date): Promise<() => Promise<void>> {
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

// --- SQLite in a worker thread: the copy, its check and its counts -------------------------------------------------

type WorkerJob = { op: "copy"; source: string; target: string; busyTimeoutMs: number } | { op: "check"; path: string };
type WorkerAnswer = { ok: true; counts: BackupCounts } | { ok: false; message: string; errcode?: number };

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

function inWorker(job: WorkerJob): Promise<WorkerAnswer> {
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

/** A file system or SQLite failure in words: what the operator is to fix. */
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

function answerError(answer: Extract<WorkerAnswer, { ok: false }>): Error {
  return Object.assign(new Error(answer.message), { errcode: answer.errcode });
}

// --- Encryption (BACKUP_KEY): AES-256-GCM, streamed ----------------------------------------------------------------

// File layout: magic (8) | version (1) | key id (8) | nonce (12) | ciphertext | tag (16). The header is authenticated
// too (additional data). The key id tells a wrong key from a changed file, in words.
const magic = Buffer.from("HAUNTBK\0", "latin1");
const formatVersion = 1;
const headerLength = magic.length + 1 + 8 + 12;
const tagLength = 16;

const keyId = (key: Buffer) => createHmac("sha256", key).update("haunt backup key id").digest().subarray(0, 8);

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function encryptFile(plain: string, target: string, key: Buffer): Promise<void> {
  const nonce = randomBytes(12);
  const header = Buffer.concat([magic, Buffer.from([formatVersion]), keyId(key), nonce]);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(header);
  await pipeline(
    createReadStream(plain),
    async function* (source: AsyncIterable<Buffer>) {
      yield header;
      for await (const chunk of source) yield cipher.update(chunk);
      yield cipher.final();
      yield cipher.getAuthTag();
    },
    createWriteStream(target, { mode: 0o600 }),
  );
}

/** Decrypts `file` into `target`; throws BackupError in words for a wrong key, a changed byte or not a backup. */
async function decryptFile(file: string, target: string, key: Buffer | undefined): Promise<void> {
  const name = basename(file);
  if (!key) throw new BackupError(`${name} is encrypted: set BACKUP_KEY to the key it was made with`);
  const size = (await stat(file)).size;
  const handle = await open(file, "r");
  let header: Buffer;
  let tag: Buffer;
  try {
    if (size < headerLength + tagLength) throw new BackupError(`${name} is not an encrypted backup (too short)`);
    header = Buffer.alloc(headerLength);
    tag = Buffer.alloc(tagLength);
    await handle.read(header, 0, headerLength, 0);
    await handle.read(tag, 0, tagLength, size - tagLength);
  } finally {
    await handle.close();
  }
  if (!header.subarray(0, magic.length).equals(magic)) throw new BackupError(`${name} is not an encrypted backup`);
  if (header[magic.length] !== formatVersion)
    throw new BackupError(`${name} is in a newer backup format (${header[magic.length]}) than this version reads`);
  if (!header.subarray(magic.length + 1, magic.length + 9).equals(keyId(key)))
    throw new BackupError(`${name} was encrypted with another key: BACKUP_KEY is not the key it was made with`);
  const decipher = createDecipheriv("aes-256-gcm", key, header.subarray(magic.length + 9));
  decipher.setAAD(header);
  decipher.setAuthTag(tag);
  try {
    await pipeline(
      createReadStream(file, { start: headerLength, end: size - tagLength - 1 }),
      decipher,
      createWriteStream(target, { mode: 0o600 }),
    );
  } catch (error) {
    await rm(target, { force: true });
    if (/authenticate/i.test((error as Error).message))
      throw new BackupError(`${name} has been changed or damaged since it was made: it cannot be trusted`);
    throw error;
  }
}

// --- Taking, checking and restoring -------------------------------------------------------------------------------

export interface TakenBackup {
  file: BackupFile;
  counts: BackupCounts;
}

/**
 * Takes one backup of the database at `databasePath` into `dir`: the copy under a temporary name, checked, encrypted
 * when there is a key (the plaintext copy removed), then renamed. Throws BackupError in words; nothing is left behind
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
  const work = await mkdtemp(join(tmpdir(), "haunt-backup-check-"));
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
