import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scratchFolder, sweepScratch } from "~/scratch.server";

/** A pid that was a process a moment ago and is gone now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("the scratch folders of processes", () => {
  let outer: string | undefined;
  let dir: string;
  beforeEach(() => {
    outer = process.env.TMPDIR;
    dir = mkdtempSync(join(tmpdir(), "haunt-scratch-test-"));
    process.env.TMPDIR = dir;
  });
  afterEach(() => {
    if (outer === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = outer;
    rmSync(dir, { recursive: true, force: true });
  });

  it("are made in the temp folder, named by the process", async () => {
    const folder = await scratchFolder("upload-");
    expect(folder.startsWith(join(dir, `haunt-scratch-${process.pid}-upload-`))).toBe(true);
    expect(existsSync(folder)).toBe(true);
  });

  it("left by a process that is gone are swept; a living process's, this one's and other files are kept", async () => {
    const gone = join(dir, `haunt-scratch-${deadPid()}-video-abc`);
    mkdirSync(gone);
    writeFileSync(join(gone, "original"), "a clip's bytes");
    // The parent of this test runner: alive for as long as the test runs.
    const living = join(dir, `haunt-scratch-${process.ppid}-upload-abc`);
    mkdirSync(living);
    mkdirSync(join(dir, "haunt-scratch-not-a-pid"));
    writeFileSync(join(dir, "someone-elses-file"), "");
    const mine = await scratchFolder("upload-");

    expect(sweepScratch()).toBe(1);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(living)).toBe(true);
    expect(existsSync(mine)).toBe(true);
    expect(readdirSync(dir)).toHaveLength(4);
  });

  it("with this pid's number made before this process started (a restarted container's) are swept", () => {
    const earlier = join(dir, `haunt-scratch-${process.pid}-upload-old`);
    mkdirSync(earlier);
    const before = new Date(performance.timeOrigin - 60_000);
    utimesSync(earlier, before, before);
    expect(sweepScratch()).toBe(1);
    expect(existsSync(earlier)).toBe(false);
  });
});
