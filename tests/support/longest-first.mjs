import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { BaseSequencer } from "vitest/node";

/**
 * The order test files start in: within a project, the longest first (seconds from a recent run, in
 * tests/support/file-durations.json; a file not listed there first of all). A fresh clone has no vitest cache, and
 * vitest would then start the largest files first, leaving a long, small file such as multi-instance.test.ts to run
 * alone at the end while the other cores wait.
 */
export class LongestFirst extends BaseSequencer {
  /** @param {import("vitest/node").TestSpecification[]} files */
  async sort(files) {
    const root = this.ctx.config.root;
    /** @type {Record<string, number>} */
    const durations = JSON.parse(readFileSync(join(root, "tests/support/file-durations.json"), "utf8"));
    /** @param {import("vitest/node").TestSpecification} spec */
    const seconds = (spec) => durations[relative(root, spec.moduleId)] ?? Number.MAX_SAFE_INTEGER;
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      return seconds(b) - seconds(a);
    });
  }
}
