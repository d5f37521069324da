import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultSiteContent, type SiteContent } from "~/site-content/schema.server";
import { openInboxStore } from "~/store/store.server";
import { ensureBuilt, projectRoot, startSite, waitFor } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * `npm run inbox -- site export` and `site import FILE` (build/server/cli.js) as child processes on SQLite files in
 * temp dirs: the file's shape, a round trip, files refused with nothing published, and a running server that shows
 * an import by itself.
 */

const script = join(projectRoot, "build/server/cli.js");
const temp = useTempDir("haunt-site-transfer-");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], databaseUrl: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production" };
  delete env.API_HOST;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: projectRoot, env, timeout: 20_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

const newDatabase = () => `file:${temp.file("enquiries.db")}`;

function writeJson(value: unknown): string {
  const file = temp.file("site.json");
  writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return file;
}

async function exported(databaseUrl: string) {
  const result = await run(["site", "export"], databaseUrl);
  expect(result).toMatchObject({ code: 0, stderr: "" });
  return JSON.parse(result.stdout) as { version: number; content: SiteContent } & Record<string, unknown>;
}

async function withStore<T>(databaseUrl: string, work: (store: Awaited<ReturnType<typeof openInboxStore>>) => T) {
  const store = await openInboxStore({ kind: "sqlite", path: databaseUrl.slice("file:".length) }, { timeoutMs: 5_000 });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

const edited = (content: SiteContent): SiteContent => ({
  ...content,
  season: { ...content.season, year: 2027, closesOn: "2027-09-01" },
  services: [
    ...content.services,
    { name: "Prop repair", detail: "Tired props made to scare again.", startingPrice: 1200, leadTime: "2–3 weeks" },
  ],
  business: { ...content.business, phone: "+1 (555) 013-2027", region: "Salem, Massachusetts" },
});

beforeAll(() => ensureBuilt());

describe("npm run inbox -- site export / import", () => {
  it("exports a new site as the defaults, version 0, and nothing else on stdout", async () => {
    const result = await run(["site", "export"], newDatabase());
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual({
      format: "haunt-site-content",
      formatVersion: 1,
      version: 0,
      publishedAt: null,
      publishedBy: null,
      content: defaultSiteContent,
    });
  });

  it("round trip: export, edit, import publishes a new version with its changes, in the activity log", async () => {
    const databaseUrl = newDatabase();
    const before = await exported(databaseUrl);
    const file = writeJson({ ...before, content: edited(before.content) });

    const imported = await run(["site", "import", file], databaseUrl);
    expect(imported).toMatchObject({ code: 0, stderr: "" });
    expect(imported.stdout).toContain("Published version 1.");
    expect(imported.stdout).toContain("  Season year: 2025 → 2027\n");
    expect(imported.stdout).toContain("  Service 6 name: (empty) → Prop repair\n");
    expect(imported.stdout).toContain("  Phone: (empty) → +1 (555) 013-2027\n");

    const after = await exported(databaseUrl);
    expect(after).toMatchObject({ version: 1, publishedBy: "command line (site import)" });
    expect(new Date(after.publishedAt as string).getTime()).not.toBeNaN();
    expect(after.content).toEqual(edited(defaultSiteContent));

    const activity = await withStore(databaseUrl, (store) => store.listActivity({ limit: 10 }));
    expect(activity).toContainEqual(
      expect.objectContaining({
        actor: "command line (site import)",
        action: "published the site",
        detail: expect.stringContaining("Season year: 2025 → 2027") as string,
      }),
    );

    // The same file again: nothing to publish, no new version.
    const again = await run(["site", "import", file], databaseUrl);
    expect(again).toEqual({
      code: 0,
      stdout: "Nothing to publish: the file holds what is already published.\n",
      stderr: "",
    });
    expect((await exported(databaseUrl)).version).toBe(1);
  });

  it("says when the import replaced a draft saved on the Site page and not published", async () => {
    const databaseUrl = newDatabase();
    await withStore(databaseUrl, async (store) => {
      const draft = { ...defaultSiteContent, home: { ...defaultSiteContent.home, tagline: "Half-finished words" } };
      expect(await store.saveSiteDraft(JSON.stringify(draft), 0, "owner@grimforge.example")).toMatchObject({
        ok: true,
      });
    });
    const result = await run(
      ["site", "import", writeJson({ ...(await exported(databaseUrl)), content: edited(defaultSiteContent) })],
      databaseUrl,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /The draft saved on the Site page by owner@grimforge\.example \(.+ UTC\) was replaced/,
    );
  });

  it("refuses a file too large, not JSON, of another format or version, or without content: exit 1, nothing published", async () => {
    const databaseUrl = newDatabase();
    const good = await exported(databaseUrl);
    const cases: [string, string][] = [
      [writeJson(`{"format":"haunt-site-content","pad":"${"x".repeat(1024 * 1024)}"}`), "larger than 1 MiB"],
      [writeJson("{ not json"), "is not JSON"],
      [writeJson({ ...good, format: "wordpress" }), 'is not a site export (its "format" is not "haunt-site-content")'],
      [writeJson(defaultSiteContent), "is not a site export"],
      [writeJson({ ...good, formatVersion: 2 }), "format version 2, which this version of the site cannot read"],
      [writeJson({ ...good, content: undefined }), 'has no "content" to publish'],
      [join(temp.dir(), "missing.json"), "no such file"],
    ];
    for (const [file, words] of cases) {
      const result = await run(["site", "import", file], databaseUrl);
      expect(result, words).toMatchObject({ code: 1, stdout: "" });
      expect(result.stderr).toContain(words);
      expect(result.stderr).toContain("Nothing was published.");
    }
    expect((await exported(databaseUrl)).version).toBe(0);
  });

  it("lists every field's problem by its label, and publishes nothing", async () => {
    const databaseUrl = newDatabase();
    const good = await exported(databaseUrl);
    const bad = structuredClone(good.content) as unknown as Record<string, Record<string, unknown>>;
    bad.season!.year = 1999;
    bad.season!.closesOn = "2027-02-30";
    (bad.services as unknown as { name: string }[])[1]!.name = "  ";
    bad.about!.text = "We build <b>scary</b> things.";
    bad.business!.links = ["ftp://example.com"];
    bad.business!.email = "not an address";
    const result = await run(["site", "import", writeJson({ ...good, content: bad })], databaseUrl);
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toContain("cannot be published: 6 fields need fixing. Nothing was published.");
    for (const line of [
      "  Season year: Please enter a four-digit year from 2000 to 2100.",
      "  Orders close on: Please enter a date as YYYY-MM-DD, e.g. 2026-09-01.",
      "  Service 2 name: Please fill this in.",
      "  About text: Text only: please remove the HTML tag (the page shows text as written).",
      "  Social links 1: Please enter a full web address starting with https:// or http://.",
      "  Public e-mail: Please enter an e-mail address like name@example.com, or leave it empty.",
    ])
      expect(result.stderr).toContain(`${line}\n`);
    expect((await exported(databaseUrl)).version).toBe(0);
  });

  it("wrong usage exits 2 and --help describes both commands", async () => {
    const databaseUrl = newDatabase();
    for (const args of [["site"], ["site", "import"], ["site", "export", "extra"], ["site", "publish"]]) {
      const result = await run(args, databaseUrl);
      expect(result, args.join(" ")).toMatchObject({ code: 2, stdout: "" });
      expect(result.stderr).toContain("site export, or site import FILE");
    }
    const help = await run(["--help"], databaseUrl);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("site export");
    expect(help.stdout).toContain("site import FILE");
    expect((await run(["site", "--help"], databaseUrl)).stdout).toBe(help.stdout);
  });
});

describe("a running server and site import", () => {
  it("shows the imported content on / by itself, within 2 s", { timeout: 60_000 }, async () => {
    const site = await startSite({ API_HOST: "" });
    try {
      const home = () => fetch(`${site.url}/`).then((response) => response.text());
      expect(await home()).toContain("Orders are open for the 2025 haunt season.");
      const content: SiteContent = {
        ...defaultSiteContent,
        season: { ...defaultSiteContent.season, year: 2031 },
        home: { ...defaultSiteContent.home, tagline: "Imported from the terminal" },
      };
      const result = await run(
        ["site", "import", writeJson({ format: "haunt-site-content", formatVersion: 1, content })],
        site.databaseUrl,
      );
      expect(result).toMatchObject({ code: 0, stderr: "" });
      // The server's own poll (every second) finds the new version: nothing tells it.
      await waitFor(
        async () => {
          const html = await home();
          return (
            html.includes("Orders are open for the 2031 haunt season.") && html.includes("Imported from the terminal")
          );
        },
        "the imported season and tagline on /",
        2_000,
      );
    } finally {
      await site.stop();
    }
  });
});
