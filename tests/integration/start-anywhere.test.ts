import { cpSync, symlinkSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port.mjs";
import { ensureBuilt, projectRoot, runSiteExpectingExit, startSite, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * The built server started as an operator might (`cd / && node /app/build/server/index.js`): its static files are the
 * installation's, not the working directory's. And a port that is taken is one plain line and exit code 1.
 */

const temp = useTempDir("haunt-start-anywhere-");

describe("the server started from another working directory", () => {
  let site: SiteServer;
  beforeAll(async () => {
    site = await startSite({}, { cwd: "/" });
  }, 60_000);
  afterAll(() => site?.stop());

  it("serves the page's stylesheet, scripts, images and photo with 200", async () => {
    const page = await fetch(`${site.url}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const first = (pattern: RegExp) => {
      const match = pattern.exec(html);
      expect(match, String(pattern)).not.toBeNull();
      return match![1]!;
    };
    const files = [
      first(/href="(\/build\/[^"]+\.css)"/),
      first(/"(\/build\/entry\.client-[^"]+\.js)"/),
      first(/src="(\/(?:images\/|logo)[^"]+)"/),
      first(/(\/photos\/[^"\s,]+\.jpg)/),
      "/favicon.svg",
    ];
    for (const path of files) {
      const response = await fetch(`${site.url}${path}`, { redirect: "manual" });
      await response.arrayBuffer();
      expect([path, response.status]).toEqual([path, 200]);
    }
  }, 30_000);
});

/** A listener that holds a port, as another server would. */
async function holdPort(host: string): Promise<{ port: number; server: Server }> {
  const port = await freePort();
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return { port, server };
}

describe("a port already in use", () => {
  const cases = [
    ["PORT", "server"],
    ["METRICS_PORT", "metrics"],
  ] as const;
  it.each(cases)(
    "(%s) stops the start with one plain line and exit code 1",
    async (variable, area) => {
      const held = await holdPort("127.0.0.1");
      try {
        const dir = temp.dir();
        const result = await runSiteExpectingExit(
          {
            [variable]: String(held.port),
            DATABASE_URL: `file:${join(dir, "enquiries.db")}`,
            INBOX_FILE: join(dir, "enquiries.jsonl"),
          },
          { cwd: dir },
        );
        expect(result.code).toBe(1);
        expect(result.output).toContain(
          `[${area}] port ${held.port} on 127.0.0.1 is already in use: stop the other server or set ${variable}\n`,
        );
        expect(result.output).not.toMatch(/EADDRINUSE|Unhandled 'error' event|\n\s+at /);
      } finally {
        held.server.close();
      }
    },
    60_000,
  );
});

describe("an installation without its browser build", () => {
  it("does not start, and says to run the build", async () => {
    await ensureBuilt();
    // A copy of the server build with its packages but no public/ (no styles, scripts or images to serve).
    const app = temp.dir();
    cpSync(join(projectRoot, "build"), join(app, "build"), { recursive: true });
    symlinkSync(join(projectRoot, "node_modules"), join(app, "node_modules"));
    const result = await runSiteExpectingExit(
      { DATABASE_URL: `file:${join(app, "enquiries.db")}`, INBOX_FILE: join(app, "enquiries.jsonl") },
      { cwd: projectRoot, entry: join(app, "build/server/index.js") },
    );
    expect(result.code).toBe(1);
    expect(result.output).toContain(
      `[server] the browser build is missing (${join(app, "public/build")}): run \`npm run build\` in ${app}/`,
    );
  }, 60_000);
});
