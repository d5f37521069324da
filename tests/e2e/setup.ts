import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processAlive } from "../../app/scratch.server";
import { buildPhotoSite } from "../support/photo-site.mjs";
import { watchTempFolder } from "../support/temp-leaks.mjs";
import { e2eDataDir } from "./servers";

/**
 * Runs once before the end-to-end tests (playwright.config.ts, globalSetup), in the runner's process: builds the copy
 * of the site with the fixture photos (tests/support/photo-site.mjs) when this run includes photos.spec.ts, so that
 * the file's hook only starts its server and no test's time limit pays for encoding 12-megapixel photos. After the
 * integration stage (npm test, CI) the copy is already built and this returns at once. It also removes the data
 * folders killed runs left (removeStaleDataDirs), and at the end names what the run left in the system's temp folder.
 */
export default async function setup() {
  removeStaleDataDirs();
  const leftInTemp = watchTempFolder("e2e");
  // The file filters given on the command line (none: every file runs), each matched as part of a file's path; an
  // option's value (`--workers 4`, `-g words`) is no path.
  const filters = process.argv
    .slice(process.argv.indexOf("test") + 1)
    .filter((arg) => !arg.startsWith("-") && /[/.]/.test(arg));
  if (filters.length === 0 || filters.some((filter) => "tests/e2e/photos.spec.ts".includes(filter)))
    await buildPhotoSite();
  // Playwright runs this before it stops the webServer, whose launcher removes the run's data folder after.
  return () => void leftInTemp([e2eDataDir]);
}

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The data folders (tests/e2e/servers.ts) of runs whose launcher is gone: a run killed before it could remove its own.
 * A folder without launcher.pid (made before it was written) is left a day, as a run of that time may still be on.
 */
function removeStaleDataDirs() {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith("haunt-e2e-inbox-")) continue;
    const dir = join(tmpdir(), name);
    if (dir === e2eDataDir) continue;
    let pid: number | undefined;
    try {
      pid = Number(readFileSync(join(dir, "launcher.pid"), "utf8"));
    } catch {
      // none
    }
    const stale = pid
      ? !processAlive(pid)
      : Date.now() - (statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? 0) > dayMs;
    if (stale) rmSync(dir, { recursive: true, force: true });
  }
}
