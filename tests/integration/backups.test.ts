import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { sentLocation } from "~/enquiry/answers.server";
import { backupFileName } from "~/store/backup-files.server";
import { rotateBackups } from "~/store/backup-rotation.server";
import { openInboxStore } from "~/store/store.server";
import { enquiry } from "../support/enquiry";
import { postForm, sendAs } from "../support/site-http";
import { ensureBuilt, projectRoot, readInbox, startSite, waitFor, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * Backups of the SQLite inbox through the built server and `npm run inbox` (build/server/cli.js), on files in temp
 * dirs: a backup taken while enquiries arrive restores every one; a full disk (a small tmpfs where mount is allowed,
 * /dev/full otherwise) leaves the last good one and says so; a backup directory that goes is logged and shown on
 * /inbox, and the next interval takes one again; rotation keeps the right ones; a changed byte or another key is
 * refused; restore waits for the server to stop (kill -9 included).
 */

const temp = useTempDir("haunt-backups-");
const publicUrl = "http://inbox.example";
const operator = { email: "owner@example.com", password: "violet lantern over a mossy gravestone" };
const key = () => randomBytes(32).toString("base64");

let site: SiteServer | undefined;
afterEach(async () => {
  await site?.stop();
  site = undefined;
});
beforeAll(() => ensureBuilt());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run inbox -- ARGS` as a child process (asynchronous: it may run while the server takes enquiries). */
function cli(
  env: Record<string, string>,
  args: string[],
  { input, wrap = [] }: { input?: string; wrap?: string[] } = {},
) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", API_HOST: "", ...env };
  for (const name of Object.keys(childEnv)) if (name.startsWith("VITEST")) delete childEnv[name];
  const [command, ...prefix] = wrap.length > 0 ? wrap : [process.execPath];
  const commandArgs = wrap.length > 0 ? [...prefix, process.execPath] : [];
  return new Promise<Run>((resolve) => {
    const child = execFile(
      command!,
      [...commandArgs, "build/server/cli.js", ...args],
      { cwd: projectRoot, env: childEnv, timeout: 50_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** A database path and its environment: BACKUP_DIR beside it unless given. */
function place(extra: Record<string, string> = {}) {
  const dir = temp.dir();
  const database = join(dir, "enquiries.db");
  const backupDir = extra.BACKUP_DIR ?? join(dir, "backups");
  return { dir, database, backupDir, env: { DATABASE_URL: `file:${database}`, BACKUP_DIR: backupDir, ...extra } };
}

const backupNames = (dir: string) => readdirSync(dir).filter((name) => /^enquiries-.*Z\.db(\.enc)?$/.test(name));

async function fill(database: string, count: number, messageBytes = 200) {
  const store = await openInboxStore({ kind: "sqlite", path: database }, { timeoutMs: 10_000 });
  try {
    await store.importV1(
      Array.from({ length: count }, (_, n) => ({
        receivedAt: new Date(Date.UTC(2026, 9, 1, 0, 0, n)).toISOString(),
        name: `Filler ${n}`,
        email: `filler${n}@example.com`,
        message: `${randomBytes(messageBytes / 2).toString("hex")} ${n}`,
      })),
    );
  } finally {
    await store.close();
  }
}

const messagesIn = async (database: string) => (await readInbox(`file:${database}`)).map((row) => row.message).sort();

describe("a backup taken while enquiries arrive", () => {
  it("restores to a database holding every enquiry thanked before it began; one after the burst holds all 50", async () => {
    const where = place();
    site = await startSite({ API_HOST: "", ...where.env });
    const thanked: { message: string; at: number }[] = [];
    const backups: { startedAt: number; run: Promise<Run> }[] = [];
    // Three backups started while the posts go on (after 10, 25 and 40 were thanked), each running beside the next
    // posts: the server writes through its own connection all the while.
    const all = Array.from({ length: 50 }, () => enquiry());
    for (let i = 0; i < all.length; i += 5) {
      if ([10, 25, 40].includes(i)) {
        await backups.at(-1)?.run; // one at a time: a second one now would be refused ("another backup is being taken")
        backups.push({ startedAt: Date.now(), run: cli(where.env, ["backup"]) });
      }
      await Promise.all(
        all.slice(i, i + 5).map(async (one) => {
          const reply = await postForm(site!.url, one);
          expect(reply.location).toBe(sentLocation);
          thanked.push({ message: one.message, at: Date.now() });
        }),
      );
    }
    for (const { run } of backups) expect((await run).code, (await run).stderr).toBe(0);
    const final = await cli(where.env, ["backup"]);
    expect(final.code, final.stderr).toBe(0);
    expect(final.stdout).toMatch(/50 enquiries/);

    const names = backupNames(where.backupDir).sort();
    const midBurst = backups[1]!;
    const midName = /Backup (\S+) taken/.exec((await midBurst.run).stdout)![1]!;
    const finalName = /Backup (\S+) taken/.exec(final.stdout)![1]!;
    expect(names).toContain(midName);

    // Restore needs the server stopped; then start it on the restored file and count.
    await site.stop();
    site = undefined;
    const restoredMid = await cli(where.env, ["restore", join(where.backupDir, midName)]);
    expect(restoredMid.code, restoredMid.stderr).toBe(0);
    site = await startSite({ API_HOST: "", ...where.env });
    const mid = (await site.stored()).map((row) => row.message);
    const before = thanked.filter((one) => one.at < midBurst.startedAt).map((one) => one.message);
    for (const message of before) expect(mid).toContain(message);
    // Nothing half-written: whatever it holds was thanked.
    for (const message of mid) expect(all.map((one) => one.message)).toContain(message);
    await site.stop();
    site = undefined;

    const restoredFinal = await cli(where.env, ["restore", join(where.backupDir, finalName)]);
    expect(restoredFinal.code, restoredFinal.stderr).toBe(0);
    site = await startSite({ API_HOST: "", ...where.env });
    expect((await site.stored()).map((row) => row.message).sort()).toEqual(all.map((one) => one.message).sort());
    // Each restore kept the database it replaced.
    expect(readdirSync(where.dir).filter((name) => name.includes(".before-restore-"))).not.toHaveLength(0);
  }, 60_000);
});

describe("restore and the running server", () => {
  it("refuses while a server uses the database, works once it stops, and after kill -9", async () => {
    const where = place();
    await fill(where.database, 3);
    expect((await cli(where.env, ["backup"])).code).toBe(0);
    const [name] = backupNames(where.backupDir);
    site = await startSite({ API_HOST: "", ...where.env });
    expect((await postForm(site.url, enquiry())).location).toBe(sentLocation);

    const refused = await cli(where.env, ["restore", join(where.backupDir, name!)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Nothing was restored: a server \(or another command\) is using the database now/);
    expect(readdirSync(where.dir).filter((file) => file.includes("before-restore"))).toEqual([]);

    await site.kill("SIGKILL"); // no shutdown at all: nothing stale may block the restore
    site = undefined;
    const restored = await cli(where.env, ["restore", join(where.backupDir, name!)]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/Restored .* \(3 enquiries.*The database it replaced is kept as .*before-restore-/);
    // The replaced file with its WAL content (the enquiry posted before the kill) is whole, kept aside.
    const aside = readdirSync(where.dir).find((file) => /\.before-restore-[^-]+.*Z$/.test(file))!;
    expect(await messagesIn(join(where.dir, aside))).toHaveLength(4);
    expect(existsSync(`${where.database}-wal`)).toBe(false);
    expect(await messagesIn(where.database)).toHaveLength(3);
  }, 60_000);
});

describe("encrypted backups (BACKUP_KEY)", () => {
  it("are not readable as SQLite, list and restore with the key, and refuse a changed byte or another key with a plain message", async () => {
    const where = place({ BACKUP_KEY: key() });
    await fill(where.database, 5);
    const taken = await cli(where.env, ["backup"]);
    expect(taken.code, taken.stderr).toBe(0);
    const [name] = backupNames(where.backupDir);
    expect(name).toMatch(/^enquiries-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.db\.enc$/);
    const bytes = readFileSync(join(where.backupDir, name!));
    expect(bytes.includes(Buffer.from("SQLite format 3"))).toBe(false);
    expect(bytes.includes(Buffer.from("filler1@example.com"))).toBe(false);
    // No plaintext copy, lock or temp file left beside it.
    expect(readdirSync(where.backupDir)).toEqual([name]);

    const listed = await cli(where.env, ["backups"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^${name!.replace(/\./g, "\\.")}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC  \\d+ bytes  5 enquiries, 0 site versions, 0 photos$`,
        "m",
      ),
    );

    const otherKey = { ...where.env, BACKUP_KEY: key() };
    const wrongKey = await cli(otherKey, ["restore", join(where.backupDir, name!)]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/Nothing was restored: .* was encrypted with another key/);
    expect((await cli(otherKey, ["backups"])).stdout).toMatch(/NOT USABLE: .*encrypted with another key/);

    const changed = join(temp.dir(), name!);
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0x01;
    writeFileSync(changed, flipped);
    const tampered = await cli(where.env, ["restore", changed]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/Nothing was restored: .* has been changed or damaged since it was made/);
    // Nothing was set aside or replaced by the refusals, and no decrypted temp file stays.
    expect(readdirSync(where.dir).filter((file) => /before-restore|restore-|\.tmp$/.test(file))).toEqual([]);
    expect(readdirSync(tmpdir()).filter((file) => file.startsWith("haunt-backup-check-"))).toEqual([]);

    await fill(where.database, 2); // more after the backup: the restore gives back the five
    const restored = await cli(where.env, ["restore", join(where.backupDir, name!)]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(await messagesIn(where.database)).toHaveLength(5);
  }, 60_000);

  it("refuses a BACKUP_KEY that is not 32 bytes of base64, naming the variable", async () => {
    const run = await cli({ ...place().env, BACKUP_KEY: randomBytes(16).toString("base64") }, ["backup"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/BACKUP_KEY: must be 32 random bytes in base64/);
  });
});

/** Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN; CI containers usually may not). */
const canMount = (() => {
  const probe = join(temp.dir(), "mount-probe");
  mkdirSync(probe);
  const ok = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]).status === 0;
  if (ok) spawnSync("umount", [probe]);
  return ok;
})();

describe("a full disk", () => {
  it.skipIf(!canMount)(
    "(a 1 MiB tmpfs) leaves the last good backup, says so, and leaves no partial file",
    async () => {
      const where = place();
      mkdirSync(where.backupDir);
      expect(spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=700", "tmpfs", where.backupDir]).status).toBe(0);
      try {
        await fill(where.database, 3);
        const good = await cli(where.env, ["backup"]);
        expect(good.code, good.stderr).toBe(0);
        const [goodName] = backupNames(where.backupDir);
        await fill(where.database, 800, 2_000); // about 2 MiB more than the disk holds
        const full = await cli(where.env, ["backup"]);
        expect(full.code).toBe(1);
        expect(full.stderr).toMatch(/The backup failed: the disk is full\. Older backups are untouched\./);
        expect(readdirSync(where.backupDir)).toEqual([goodName]);
        const listed = await cli(where.env, ["backups"]);
        expect(listed.stdout).toMatch(new RegExp(`${goodName}.*3 enquiries`));
      } finally {
        spawnSync("umount", [where.backupDir]);
      }
    },
    60_000,
  );

  it("(writes into /dev/full, unprivileged) leaves the last good backup, says so, and leaves no partial file", async () => {
    const where = place({ BACKUP_KEY: key() });
    await fill(where.database, 3);
    expect((await cli(where.env, ["backup"])).code).toBe(0);
    const [goodName] = backupNames(where.backupDir);
    // The encrypted copy's temporary name leads to a device where every write fails with ENOSPC.
    symlinkSync("/dev/full", join(where.backupDir, ".enquiries.backup-in-progress.db.enc"));
    const full = await cli(where.env, ["backup"]);
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/The backup failed: the disk is full\. Older backups are untouched\./);
    expect(readdirSync(where.backupDir)).toEqual([goodName]);
    const again = await cli(where.env, ["backup"]);
    expect(again.code, again.stderr).toBe(0);
    expect(backupNames(where.backupDir)).toHaveLength(2);
  }, 60_000);
});

describe("one backup at a time", () => {
  it("waits for a backup in progress (a live process's lock) and takes over the lock of one that died", async () => {
    const where = place();
    await fill(where.database, 1);
    mkdirSync(where.backupDir);
    const lock = join(where.backupDir, ".enquiries.backup.lock");
    const holder = (pid: number) => JSON.stringify({ pid, host: hostname(), at: new Date().toISOString() });
    // This test's own process is alive: its lock is a backup in progress.
    writeFileSync(lock, holder(process.pid));
    const refused = await cli(where.env, ["backup"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/another backup is being taken now \(process \d+ since .*\); try again in a minute/);
    expect(backupNames(where.backupDir)).toEqual([]);
    // A process that has exited (as after kill -9) holds nothing.
    const gone = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
    writeFileSync(lock, holder(Number(gone.stdout.trim())));
    const taken = await cli(where.env, ["backup"]);
    expect(taken.code, taken.stderr).toBe(0);
    expect(backupNames(where.backupDir)).toHaveLength(1);
    expect(existsSync(lock)).toBe(false);
  });
});

/** Whether this process may make a directory immutable (chattr +i needs CAP_LINUX_IMMUTABLE: root, most CI runners). */
const canMakeImmutable = (() => {
  const probe = temp.dir();
  const ok = spawnSync("chattr", ["+i", probe]).status === 0;
  if (ok) spawnSync("chattr", ["-i", probe]);
  return ok;
})();

describe("a backup directory that cannot be written", () => {
  // Root ignores file modes: an immutable directory is what refuses even root a new file.
  it.skipIf(!canMakeImmutable)("(immutable) says so and leaves the backups there as they were", async () => {
    const where = place();
    await fill(where.database, 2);
    expect((await cli(where.env, ["backup"])).code).toBe(0);
    const before = readdirSync(where.backupDir);
    expect(spawnSync("chattr", ["+i", where.backupDir]).status).toBe(0);
    try {
      const refused = await cli(where.env, ["backup"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/The backup failed: this process may not write to the backup directory .*backups/);
      expect((await cli(where.env, ["backups"])).stdout).toMatch(/2 enquiries/);
    } finally {
      spawnSync("chattr", ["-i", where.backupDir]);
    }
    expect(readdirSync(where.backupDir)).toEqual(before);
  });

  it.skipIf(!canMount)("(a read-only file system) says so; the backups there still list and restore", async () => {
    const where = place();
    mkdirSync(where.backupDir);
    expect(spawnSync("mount", ["-t", "tmpfs", "-o", "size=4m,mode=700", "tmpfs", where.backupDir]).status).toBe(0);
    try {
      await fill(where.database, 2);
      expect((await cli(where.env, ["backup"])).code).toBe(0);
      const [name] = backupNames(where.backupDir);
      expect(spawnSync("mount", ["-o", "remount,ro", where.backupDir]).status).toBe(0);
      const refused = await cli(where.env, ["backup"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/The backup failed: the backup directory .*backups is read-only/);
      await fill(where.database, 1);
      const restored = await cli(where.env, ["restore", join(where.backupDir, name!)]);
      expect(restored.code, restored.stderr).toBe(0);
      expect(await messagesIn(where.database)).toHaveLength(2);
    } finally {
      spawnSync("umount", [where.backupDir]);
    }
  });
});

describe("the server's own backups", () => {
  it("takes one at start, logs and shows on /inbox a backup directory that went, and takes one again at the next interval", async () => {
    const where = place({ BACKUP_INTERVAL: "10s" });
    expect((await cli(where.env, ["operator", "add", operator.email], { input: `${operator.password}\n` })).code).toBe(
      0,
    );
    site = await startSite({ API_HOST: "", PUBLIC_URL: publicUrl, ...where.env });
    await waitFor(() => /\[backup\] enquiries-\S+\.db \(/.test(site!.output()), "the first backup", 20_000);
    expect(backupNames(where.backupDir)).toHaveLength(1);

    const login = await sendAs(publicUrl, site.url, "/inbox/login", {
      method: "POST",
      body: { ...operator, next: "/inbox" },
    });
    expect(login.status).toBe(302);
    const cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
    const inbox = () => sendAs(publicUrl, site!.url, "/inbox", { cookie }).then((answer) => answer.text);
    expect(await inbox()).not.toContain("data-backup-notice");
    // The privacy page says how long an erased address can remain in a backup (BACKUP_KEEP_DAILY 30, and a day).
    const privacy = await sendAs(publicUrl, site.url, "/privacy");
    expect(privacy.text).toContain("backups are deleted automatically, the last of them within 31 days of the erase");

    rmSync(where.backupDir, { recursive: true, force: true });
    await waitFor(() => site!.output().includes("BACKUP FAILED"), "a failed backup", 25_000);
    expect(site.output()).toMatch(/\[backup\] BACKUP FAILED into .*: the backup directory .* does not exist/);
    const page = await inbox();
    expect(page).toContain("data-backup-notice");
    expect(page).toMatch(
      /The last backup failed: the backup directory .* does not exist .*No good backup can be found/,
    );

    // Put back: the next interval takes one, and the notice goes.
    mkdirSync(where.backupDir);
    await waitFor(
      async () => backupNames(where.backupDir).length === 1,
      "a backup after the directory came back",
      25_000,
    );
    await waitFor(async () => !(await inbox()).includes("data-backup-notice"), "the notice gone", 5_000);
  }, 60_000);

  it("removes nothing while backups fail, and rotation after a success keeps the newest and one a day", async () => {
    const where = place();
    mkdirSync(where.backupDir);
    const now = new Date("2026-11-26T12:00:00Z");
    // 40 hourly backups over the last 40 hours, and one a day for 40 days before that.
    const times = [
      ...Array.from({ length: 40 }, (_, h) => new Date(now.getTime() - h * 3_600_000)),
      ...Array.from({ length: 40 }, (_, d) => new Date(now.getTime() - (d + 2) * 86_400_000 - 5 * 3_600_000)),
    ];
    for (const at of times) writeFileSync(join(where.backupDir, backupFileName(where.database, at, false)), "x");
    writeFileSync(join(where.backupDir, "spam-extra-2026-11-01T00-00-00.000Z.db"), "another database's");
    const before = backupNames(where.backupDir).length;

    const removed = await rotateBackups(where.backupDir, where.database, { keepHourly: 24, keepDaily: 30 }, now);
    const kept = backupNames(where.backupDir).sort().reverse();
    expect(kept.length + removed.length).toBe(before);
    // The newest 24, then one a day back to the 30th day (today and 29 before it).
    expect(kept.slice(0, 24)).toEqual(times.slice(0, 24).map((at) => backupFileName(where.database, at, false)));
    const days = new Set(kept.map((name) => name.slice("enquiries-".length, "enquiries-".length + 10)));
    expect(days.size).toBe(30);
    expect([...days].sort()[0]).toBe("2026-10-28");
    expect(existsSync(join(where.backupDir, "spam-extra-2026-11-01T00-00-00.000Z.db"))).toBe(true);

    // A failed backup rotates nothing, even with a rotation that would keep only one: here the database is not one.
    const keptBefore = backupNames(where.backupDir);
    writeFileSync(where.database, randomBytes(64 * 1024));
    const failed = await cli({ ...where.env, BACKUP_KEEP_HOURLY: "1", BACKUP_KEEP_DAILY: "0" }, ["backup"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/The backup failed: .*Older backups are untouched/);
    expect(backupNames(where.backupDir)).toEqual(keptBefore);
  }, 60_000);
});

describe("the commands' edges", () => {
  it("backup refuses a database that is not there (and makes none); restore a file that is not there", async () => {
    const where = place();
    const missing = await cli(where.env, ["backup"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/The backup failed: there is no database file at .*enquiries\.db/);
    expect(existsSync(where.database)).toBe(false);
    const nothing = await cli(where.env, ["restore", join(where.backupDir, "enquiries-2026-01-01T00-00-00.000Z.db")]);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/Nothing was restored: there is no file .*enquiries-2026-01-01T00-00-00\.000Z\.db/);
    expect((await cli(where.env, ["restore"])).code).toBe(2);
    const help = await cli(where.env, ["--help"]);
    for (const command of ["backup ", "backups ", "restore FILE"]) expect(help.stdout).toContain(command);
  });
});

describe("PostgreSQL", () => {
  it("backup says the database is backed up with pg_dump, and points to the docs", async () => {
    const run = await cli({ DATABASE_URL: "postgres://haunt@127.0.0.1:9/haunt" }, ["backup"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/PostgreSQL: back it up with pg_dump .* docs\/operating\.md#backups/);
  });
});
