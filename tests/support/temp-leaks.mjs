// What a test run leaves in the system's temp folder. Every test and bench removes what it makes there (and gives the
// servers it starts a TMPDIR of their own): whatever `haunt-*` entry is new at the end of a run is a leak to fix, or
// another process's on a shared machine, so it is printed as a warning and never fails the run. The copies of the site
// built with and without photos (photo-site.mjs) stay on purpose, one per checkout.
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename } from "node:path";

const kept = /^haunt-(photo|art)-site-/;

const entries = () => readdirSync(tmpdir()).filter((name) => name.startsWith("haunt-") && !kept.test(name));

/**
 * Notes what is there now; the function it returns prints a warning naming what is new since, apart from `except`
 * (paths or names of entries another part of the run removes later).
 * @param {string} run who is asking, for the warning's first words
 */
export function watchTempFolder(run) {
  const before = new Set(entries());
  return (/** @type {string[]} */ except = []) => {
    const skip = new Set(except.map((entry) => basename(entry)));
    const added = entries().filter((name) => !before.has(name) && !skip.has(name));
    if (added.length)
      console.warn(
        `[${run}] warning: ${added.length} new in ${tmpdir()} since the run began (a test that does not remove what ` +
          `it made, or another process): ${added.join(", ")}`,
      );
    return added;
  };
}
