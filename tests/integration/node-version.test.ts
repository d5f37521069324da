import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, projectRoot } from "../support/site-server";

/**
 * The server and the CLI on a Node.js older than 24 (the machine's own node here, 20): one clear line naming the way
 * out and exit code 1, instead of a stack trace from node:sqlite deep inside. Where no older node is installed
 * (Playwright's images, a developer's laptop), there is nothing to run it with.
 */
const candidates = ["/usr/bin/node", "/usr/local/bin/node"];
const olderNode = candidates.find((path) => {
  const version = spawnSync(path, ["-p", "process.versions.node"], { encoding: "utf8" });
  return version.status === 0 && Number(version.stdout.split(".")[0]) < 24;
});

describe.skipIf(!olderNode)(`on an older Node.js (${olderNode})`, () => {
  beforeAll(() => ensureBuilt());

  it.each([
    ["the server", "build/server/index.js", "The site's server needs Node.js 24"],
    ["npm run inbox", "build/server/cli.js", "npm run inbox needs Node.js 24"],
  ])("%s refuses to start with one line saying what to do", (_name, entry, says) => {
    const run = spawnSync(olderNode!, [join(projectRoot, entry), "--help"], {
      encoding: "utf8",
      env: { ...process.env, PORT: "1" },
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual([expect.stringContaining(says)]);
    expect(run.stderr).toContain("source scripts/node24.sh");
  });
});
