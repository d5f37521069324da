import { spawnSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sentLocation } from "~/enquiry/answers.server";
import { startSite, waitFor, type SiteServer } from "../support/site-server";
import { postForm, statusArea } from "../support/site-http";
import { useTempDir } from "../support/temp-dir";
import { enquiry } from "../support/enquiry";

/**
 * The disk under the running, built server going wrong: the data directory removed, the database file replaced, the
 * disk full (a file-size limit set on the server process with prlimit: no mount, no privileges). Within 10 s /readyz
 * says 503, an enquiry is answered 503 "could not confirm" with what the visitor typed kept (never a thank-you for a
 * row that is not on disk), the cause is logged once, and the server recovers without a restart once the file is back.
 */

const temp = useTempDir("haunt-disk-");
let site: SiteServer | undefined;
afterEach(async () => {
  await site?.stop();
  site = undefined;
});

const values = () => enquiry();

const readyStatus = async (url: string) => {
  const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) });
  await response.body?.cancel();
  return response.status;
};

/** Posts until the server refuses; every post it thanked must be in the database afterwards (returned). */
async function expectRefusedWithin10s(server: SiteServer) {
  const started = Date.now();
  await waitFor(async () => (await readyStatus(server.url)) === 503, "/readyz 503", 10_000);
  expect(Date.now() - started).toBeLessThan(10_000);
  const typed = values();
  const reply = await postForm(server.url, typed);
  expect(reply.status).toBe(503);
  expect(statusArea(reply.text)).toContain("could not confirm");
  for (const value of [typed.name, typed.email, typed.message]) expect(reply.text).toContain(value);
}

/** Whether this process may make a file immutable (chattr +i needs CAP_LINUX_IMMUTABLE: root, most CI runners). */
const canMakeImmutable = (() => {
  const probe = join(temp.dir(), "probe");
  writeFileSync(probe, "");
  const ok = spawnSync("chattr", ["+i", probe]).status === 0;
  if (ok) spawnSync("chattr", ["-i", probe]);
  return ok;
})();

const unavailableLines = (output: string) => output.split("\n").filter((line) => line.includes("DATABASE UNAVAILABLE"));

describe("a disk that goes wrong under the running server", () => {
  it("data directory removed: 503 within 10 s, logged once, back once a database file is at the path again", async () => {
    const dataDir = join(temp.dir(), "data");
    const databaseFile = join(dataDir, "enquiries.db");
    site = await startSite({ DATABASE_URL: `file:${databaseFile}` });
    expect((await postForm(site.url, values())).location).toBe(sentLocation);

    rmSync(dataDir, { recursive: true, force: true });
    // Posted at once, before any timer: the worker compares the file before the write, so no thank-you for a lost row.
    const right = await postForm(site.url, values());
    expect(right.status).toBe(503);
    await expectRefusedWithin10s(site);
    await postForm(site.url, values());
    expect(unavailableLines(site.output())).toHaveLength(1);
    expect(unavailableLines(site.output())[0]).toContain("removed");

    // The operator puts a database back (here: a new empty one): taken up without a restart.
    mkdirSync(dataDir);
    writeFileSync(databaseFile, "");
    await waitFor(async () => (await readyStatus(site!.url)) === 200, "/readyz 200 again", 10_000);
    const after = values();
    expect((await postForm(site.url, after)).location).toBe(sentLocation);
    expect((await site.stored()).map((row) => row.message)).toEqual([after.message]);
  }, 60_000);

  it("database file replaced: nothing is thanked into the old file; the new file takes the enquiries", async () => {
    const dir = temp.dir();
    const databaseFile = join(dir, "enquiries.db");
    site = await startSite({ DATABASE_URL: `file:${databaseFile}` });
    const before = values();
    expect((await postForm(site.url, before)).location).toBe(sentLocation);

    writeFileSync(join(dir, "restored.db"), "");
    renameSync(join(dir, "restored.db"), databaseFile);
    const thanked: string[] = [];
    const deadline = Date.now() + 10_000;
    // Whatever is answered meanwhile, a thank-you means the row is in the file now at the path.
    while (Date.now() < deadline) {
      const posted = values();
      const reply = await postForm(site.url, posted);
      expect([303, 503]).toContain(reply.status);
      if (reply.status === 303) thanked.push(posted.message);
      if (thanked.length >= 2) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(thanked.length).toBeGreaterThan(0);
    expect(await readyStatus(site.url)).toBe(200);
    const stored = (await site.stored()).map((row) => row.message);
    expect(stored.sort()).toEqual(thanked.sort());
    expect(stored).not.toContain(before.message);
    expect(site.output()).toContain("replaced");
  }, 60_000);

  it("disk full (no room to grow a file): 503 within 10 s, logged once, recovers when space is back", async () => {
    site = await startSite({});
    const accepted = [values()];
    expect((await postForm(site.url, accepted[0]!)).location).toBe(sentLocation);

    const limit = (size: string) => {
      const result = spawnSync("prlimit", ["--pid", String(site!.pid), `--fsize=${size}`], { encoding: "utf8" });
      expect(result.status, result.stderr).toBe(0);
    };
    limit("1:unlimited"); // soft limit: writes past the first byte of any file fail (EFBIG), as on a full disk
    await expectRefusedWithin10s(site);
    await postForm(site.url, values());
    expect(unavailableLines(site.output())).toHaveLength(1);

    limit("unlimited:unlimited");
    await waitFor(async () => (await readyStatus(site!.url)) === 200, "/readyz 200 again", 10_000);
    accepted.push(values());
    expect((await postForm(site.url, accepted[1]!)).location).toBe(sentLocation);
    expect(site.output()).toContain("database back");
    const stored = (await site.stored()).map((row) => row.message);
    expect(stored.sort()).toEqual(accepted.map((one) => one.message).sort());
  }, 60_000);

  // chmod cannot do this for a running server: its descriptor stays writable (and root ignores modes anyway).
  it.skipIf(!canMakeImmutable)(
    "read-only files (chattr +i on the database and its WAL): 503 within 10 s, recovers when writable again",
    async () => {
      const dir = temp.dir();
      const databaseFile = join(dir, "enquiries.db");
      site = await startSite({ DATABASE_URL: `file:${databaseFile}` });
      const accepted = [values()];
      expect((await postForm(site.url, accepted[0]!)).location).toBe(sentLocation);
      const files = [databaseFile, `${databaseFile}-wal`];
      const chattr = (flag: string) => expect(spawnSync("chattr", [flag, ...files]).status).toBe(0);
      chattr("+i");
      try {
        await expectRefusedWithin10s(site);
        expect(unavailableLines(site.output())).toHaveLength(1);
      } finally {
        chattr("-i");
      }
      await waitFor(async () => (await readyStatus(site!.url)) === 200, "/readyz 200 again", 10_000);
      accepted.push(values());
      expect((await postForm(site.url, accepted[1]!)).location).toBe(sentLocation);
      const stored = (await site.stored()).map((row) => row.message);
      expect(stored.sort()).toEqual(accepted.map((one) => one.message).sort());
    },
    60_000,
  );
});
