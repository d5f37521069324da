import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brand, homePage } from "../../app/wording";
import { ensureBuilt, projectRoot, startSite, type SiteServer } from "../support/site-server";

/**
 * The Dockerfile's runtime stage, reproduced without Docker: a directory holding only what the image holds (the
 * build output, public/, scripts/, package files) and production dependencies from `npm ci --omit=dev`, started with
 * `npm start`. A dependency the server needs at run time but that is listed as a devDependency fails here.
 */
describe("the runtime stage (build output + production dependencies only)", () => {
  let dir: string;
  let site: SiteServer;

  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), "haunt-runtime-"));
    for (const entry of ["package.json", "package-lock.json", "build", "public", "scripts"]) {
      cpSync(join(projectRoot, entry), join(dir, entry), { recursive: true });
    }
    // --prefer-offline: the packages are in npm's cache from the project's own install; the registry is not asked
    // again (a registry hiccup here once failed the whole run).
    const install = spawnSync("npm", ["ci", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund"], {
      cwd: dir,
      encoding: "utf8",
      timeout: 55_000,
      env: { ...process.env, NODE_ENV: "production" },
    });
    expect(install.status, `npm ci --omit=dev failed:\n${install.stdout}\n${install.stderr}`).toBe(0);
  });
  // A hook of its own: the install above may take most of one hook's time on a loaded machine.
  beforeAll(async () => {
    site = await startSite({ API_HOST: "" }, { appDir: dir, startTimeoutMs: 45_000 });
  });

  afterAll(async () => {
    await site?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("has no development tooling installed", () => {
    const probe = spawnSync(process.execPath, ["-e", "require.resolve('@remix-run/dev')"], { cwd: dir });
    expect(probe.status).not.toBe(0);
  });

  it("answers /healthz", async () => {
    const response = await fetch(`${site.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok\n");
  });

  it("renders the home page with its assets", async () => {
    const response = await fetch(`${site.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(homePage.heading(brand.name));
    const script = html.match(/\/build\/[^"]+\.js/)?.[0];
    expect(script).toBeDefined();
    expect((await fetch(`${site.url}${script}`)).status).toBe(200);
    expect((await fetch(`${site.url}/favicon.svg`)).status).toBe(200);
  });

  it("runs the operator's inbox command", () => {
    const result = spawnSync("npm", ["run", "--silent", "inbox", "--", "--json"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: site.databaseUrl },
    });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
  });

  it("takes a backup with the operator's command while the server runs (BACKUP_DIR a volume of its own)", () => {
    const backups = join(dir, "backups-volume");
    const result = spawnSync("npm", ["run", "--silent", "inbox", "--", "backup"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, DATABASE_URL: site.databaseUrl, BACKUP_DIR: backups, BACKUP_KEY: "" },
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Backup enquiries-\S+Z\.db taken \(\d+ bytes; 0 enquiries/);
    expect(readdirSync(backups)).toEqual([/^Backup (\S+) taken/.exec(result.stdout)![1]]);
  });
});
