import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
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

  it("are made per process in the temp folder", async () => {
    const folder = await scratchFolder("upload-");
    expect(folder.startsWith(join(dir, `haunt-scratch-${process.pid}`, "upload-"))).toBe(true);
    expect(existsSync(folder)).toBe(true);
  });

  it("left by a process that is gone are swept at the start; a living process's and other files are kept", async () => {
    const gone = join(dir, `haunt-scratch-${deadPid()}`);
    mkdirSync(join(gone, "video-abc"), { recursive: true });
    writeFileSync(join(gone, "video-abc", "original"), "a clip's bytes");
    // The parent of this test runner: alive for as long as the test runs.
    const living = join(dir, `haunt-scratch-${process.ppid}`);
    mkdirSync(living);
    mkdirSync(join(dir, "haunt-scratch-not-a-pid"));
    writeFileSync(join(dir, "someone-elses-file"), "");
    const mine = await scratchFolder("upload-");

    expect(sweepScratch()).toBe(1);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(living)).toBe(true);
    expect(existsSync(mine)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(
      [
        `haunt-scratch-${process.pid}`,
        `haunt-scratch-${process.ppid}`,
        "haunt-scratch-not-a-pid",
        "someone-elses-file",
      ].sort(),
    );
  });

  it("with this pid's number, left by an earlier life (a restarted container), are swept when this process has none", () => {
    const earlier = join(dir, `haunt-scratch-${process.pid}`);
    mkdirSync(join(earlier, "upload-old"), { recursive: true });
    expect(sweepScratch()).toBe(1);
    expect(existsSync(earlier)).toBe(false);
  });
});
