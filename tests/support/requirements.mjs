// The outside programs the test tiers need, found the same way by the tests and by the CI summary, so that a part
// that is missing fails the run by name instead of letting its tests skip in silence. Plain JS: .ci/summary.mjs
// imports it before anything is built or installed.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** The bin directory of the newest Debian PostgreSQL (initdb, pg_ctl), or undefined. */
export function postgresBinDir() {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const dir = join(root, version, "bin");
    if (existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl"))) return dir;
  }
  return undefined;
}

/**
 * Debian's Chromium builds, lightest first: the headless shell (package chromium-headless-shell, the same headless
 * browser Playwright downloads for its own tests) draws no browser window, and an end-to-end run takes about half the
 * CPU it takes in the full browser. The full browser is started directly, not through its /usr/bin/chromium launcher,
 * which adds desktop flags (GPU rasterization, the bundled extensions) that only cost CPU here.
 */
export const debianChromiums = ["/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium"];

/** The Chromium the end-to-end tests drive: CHROMIUM_PATH, else Debian's, else undefined (Playwright's own). */
export function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return debianChromiums.find((path) => existsSync(path));
}

const runs = (command, args) => {
  const result = spawnSync(command, args, { stdio: "ignore", timeout: 20_000 });
  return result.status === 0;
};

/**
 * True when this process may start a program as PID 1 of a new PID namespace (`unshare --pid --fork --mount-proc`):
 * root with CAP_SYS_ADMIN. Not in most CI containers, and never as non-root.
 */
export function pidNamespacePermitted() {
  return runs("unshare", ["--pid", "--fork", "--mount-proc", "true"]);
}

/** Each part a test stage needs: what it is for, how to get it, and whether it is here. */
export const parts = {
  postgresql: {
    label: "PostgreSQL",
    why: "the PostgreSQL store, outbox and multi-instance tests",
    install: "apt-get install postgresql",
    present: () => postgresBinDir() !== undefined,
  },
  java: {
    label: "Java",
    why: "the W3C HTML checker (vnu.jar)",
    install: "apt-get install default-jre-headless",
    present: () => runs("java", ["-version"]),
  },
  chromium: {
    label: "Chromium",
    why: "the end-to-end tests",
    install: "apt-get install chromium-headless-shell fonts-dejavu-core, or set CHROMIUM_PATH",
    present: () => {
      const path = chromiumPath();
      return path !== undefined && existsSync(path);
    },
  },
};

/** Which parts each test stage of .ci/test.mjs needs. */
export const partsByStage = {
  integration: ["postgresql", "java"],
  e2e: ["chromium"],
};
