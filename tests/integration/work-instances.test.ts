import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draftContent, publishContent, publishedContent } from "~/site-content/publish.server";
import { contentFromJson } from "~/site-content/schema.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { phoneClip, phoneClipSecrets } from "../support/fixture-clips";
import { runInbox } from "../support/inbox-command";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { sendAs } from "../support/site-http";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * The Work pages on two instances of the built server sharing one PostgreSQL database: a project and a phone's clip
 * added on one instance (the clip encoded by whichever instance claims it), previewed but not public, published, and
 * then shown by the other instance on /work, its service's page and its own page, the clip served there from that
 * instance's own file cache with byte ranges; History's restore brings back the version that had the project.
 */

const publicUrl = "https://grimforge.example";
const temp = useTempDir("haunt-work-instances-");
const password = "a coffin full of moonlit bats";
let databases: TestDatabases;
let databaseUrl: string;
let store: InboxStore;
const sites: SiteServer[] = [];
let cookie = "";

const page = async (site: SiteServer, path: string, headers: Record<string, string> = {}) => {
  const answer = await sendAs(publicUrl, site.url, path, { headers });
  return { status: answer.status, html: answer.text, location: answer.headers.location };
};

beforeAll(async () => {
  if (!postgresAvailable) return;
  await ensureBuilt();
  databases = await sharedPostgres();
  databaseUrl = await databases.createDatabase();
  const env = { API_HOST: "", DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl };
  expect((await runInbox(["operator", "add", "ann@example.com"], { env, input: `${password}\n` })).status).toBe(0);
  sites.push(
    ...(await Promise.all([0, 1].map((n) => startSite({ ...env, MEDIA_CACHE_DIR: temp.dir() + `/media-${n}` })))),
  );
  const login = await sendAs(publicUrl, sites[0]!.url, "/inbox/login", {
    method: "POST",
    body: { email: "ann@example.com", password, next: "/inbox/work" },
  });
  expect(login.status).toBe(302);
  cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
  store = await openInboxStore({ kind: "postgres", url: databaseUrl }, { timeoutMs: 10_000 });
}, 60_000);
afterAll(async () => {
  await Promise.all(sites.map((site) => site.stop()));
  await store?.close();
  await databases?.stop();
});

describe.skipIf(!postgresAvailable)("the Work pages on two instances on one PostgreSQL database", () => {
  it(
    "a project added on one is previewed, published and shown by the other with its clip; restore brings it back",
    { timeout: 120_000 },
    async () => {
      const [first, second] = sites as [SiteServer, SiteServer];
      const owner = (path: string, options: Parameters<typeof sendAs>[3] = {}) =>
        sendAs(publicUrl, first.url, path, { cookie, ...options });
      const revision = /name="revision" value="(\d+)"/.exec((await owner("/inbox/work")).text)![1]!;
      const added = await owner("/inbox/work", {
        method: "POST",
        body: {
          revision,
          intent: "add",
          title: "Reaper with pneumatic lunge",
          service: "Custom pneumatic animatronics",
        },
      });
      expect(added.status).toBe(303);
      const projectPath = added.headers.location!.replace(/\?.*$/, "");
      const form = new FormData();
      const clip = await readFile(await phoneClip(temp.dir(), { seconds: 2 }));
      form.append("video", new File([new Uint8Array(clip)], "IMG_0420.MOV"));
      const encoded = new Response(form);
      const uploaded = await owner(`${projectPath}?upload=video`, {
        method: "POST",
        upload: {
          bytes: new Uint8Array(await encoded.arrayBuffer()),
          contentType: encoded.headers.get("content-type")!,
        },
      });
      expect(uploaded.status).toBe(303);
      const videoId = () => draftContent(store).then(({ content }) => content.projects[0]!.videos[0]!.video);
      await waitFor(async () => (await store.getVideo(await videoId()))?.state === "ready", "the clip encoded", 90_000);

      // The draft is the owner's alone: the public pages of both instances still have no Work pages.
      expect((await page(second, "/work")).status).toBe(404);
      expect((await page(second, "/work/reaper-with-pneumatic-lunge")).status).toBe(404);

      const { content, revision: draftRevision } = await draftContent(store);
      const published = await publishContent(store, content, draftRevision, "ann@example.com");
      expect(published.ok).toBe(true);
      const version = published.ok ? published.version : 0;
      await waitFor(async () => (await page(second, "/work")).status === 200, "/work on the second instance", 5_000);
      expect((await page(second, "/work")).html).toContain("Reaper with pneumatic lunge");
      expect((await page(second, "/work/custom-pneumatic-animatronics")).html).toContain("Reaper with pneumatic lunge");
      // The home page's card of that service links to its work.
      expect((await page(second, "/")).html).toMatch(
        /<a [^>]*href="\/work\/custom-pneumatic-animatronics"[^>]*>See 1 build<span class="sr-only">/,
      );
      const project = await page(second, "/work/reaper-with-pneumatic-lunge");
      expect(project.status).toBe(200);
      const source = /<source src="(\/media\/[0-9a-f]{24}\.mp4)"/.exec(project.html)?.[1];
      expect(source, "the clip on the project's page").toBeDefined();
      // Served by the second instance, which encoded nothing of it: from its own file cache, filled from the database.
      const whole = Buffer.from(await (await fetch(`${second.url}${source}`)).arrayBuffer());
      for (const secret of Object.values(phoneClipSecrets)) expect(whole.includes(secret), secret).toBe(false);
      const range = await fetch(`${second.url}${source}`, { headers: { Range: `bytes=${whole.length - 500}-` } });
      expect(range.status).toBe(206);
      expect(Buffer.from(await range.arrayBuffer()).equals(whole.subarray(whole.length - 500))).toBe(true);

      // Deleted and published: gone from both; History's restore of the version that had it brings it back.
      const withoutProject = { ...content, projects: [] };
      const { revision: again } = await draftContent(store);
      expect((await publishContent(store, withoutProject, again, "ann@example.com")).ok).toBe(true);
      await waitFor(async () => (await page(second, "/work")).status === 404, "/work gone", 5_000);
      const older = await store.siteVersion(version);
      const { revision: last } = await draftContent(store);
      const restored = await publishContent(store, contentFromJson(older!.content), last, "ann@example.com", {
        restoredFrom: version,
      });
      expect(restored.ok).toBe(true);
      expect((await publishedContent(store)).projects.map((p) => p.title)).toEqual(["Reaper with pneumatic lunge"]);
      for (const site of [first, second])
        await waitFor(
          async () => (await page(site, "/work/reaper-with-pneumatic-lunge")).status === 200,
          `the project back on ${site.url}`,
          5_000,
        );
    },
  );
});
