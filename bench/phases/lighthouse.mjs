import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resultsDir, root } from "../lib/servers.mjs";

/** Keeps the full report of a page's representative run: bench/results/lighthouse/<side>-<page>.json. */
export function saveLighthouseReport(side, path, lhr) {
  const dir = join(resultsDir, "lighthouse");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${side}-${path === "/" ? "home" : path.slice(1).replace(/\W+/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(lhr));
  return file.slice(root.length + 1);
}
