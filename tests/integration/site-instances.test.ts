import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fromContent, formFields, serviceField } from "~/site-content/form";
import { defaultSiteContent, type SiteContent } from "~/site-content/schema.server";
import { openInboxStore } from "~/store/store.server";
import { phoneClip } from "../support/fixture-clips";
import { runInbox } from "../support/inbox-command";
import { cameraJpeg } from "../support/fixture-photos.mjs";
import { sendAs } from "../support/site-http";
import { postgresAvailable, startPostgres, type TestPostgres } from "../support/postgres";
import { getPage, jsonLdServices, publishSite } from "../support/site-page";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * The site's content on several instances of the built server sharing one PostgreSQL database (ADR 0030): each keeps
 * `/` in its page cache, a publish reaches every instance's next requests within 2 s (their poll), with a new ETag,
 * JSON-LD and meta description; while the database does not answer, the last published content is served, and a
 * clip from an instance's own file cache (one not yet cached waits for the database: 503 with Retry-After).
 */

let postgres: TestPostgres;
// The clips and the media caches of the servers here; the servers are stopped first.
const temp = useTempDir("haunt-site-instances-");
const sites: SiteServer[] = [];

beforeAll(async () => {
  if (!postgresAvailable) return;
  await ensureBuilt();
  postgres = await startPostgres();
}, 60_000);
afterAll(() => postgres?.stop());
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
});

async function instances(databaseUrl: string, count: number): Promise<SiteServer[]> {
  const started = await Promise.all(
    Array.from({ length: count }, () =>
      startSite({ API_HOST: "", DATABASE_URL: databaseUrl, PUBLIC_URL: "https://grimforge.example" }),
    ),
  );
  sites.push(...started);
  return started;
}

const season2027: SiteContent = {
  ...defaultSiteContent,
  season: { ...defaultSiteContent.season, year: 2027 },
  services: [
    ...defaultSiteContent.services,
    { name: "Fog and scent machines", detail: "Atmosphere on cue.", startingPrice: null, leadTime: "" },
  ],
};

const shows = (year: number) => async (site: SiteServer) =>
  (await getPage(site.url)).html.includes(`Orders are open for the ${year} haunt season.`);

/** Waits until every site shows `year` on `/`: a publish must reach them within 2 s, by their own poll. */
async function waitForSeason(targets: SiteServer[], year: number, timeoutMs = 2_000): Promise<void> {
  await Promise.all(
    targets.map((site) => waitFor(() => shows(year)(site), `the ${year} season on ${site.url}/`, timeoutMs)),
  );
}

describe.skipIf(!postgresAvailable)("the site's content on two instances on one PostgreSQL database", () => {
  it(
    "both serve the defaults from their page cache; a publish shows on both within 2 s, in the page, meta and JSON-LD",
    { timeout: 60_000 },
    async () => {
      const databaseUrl = await postgres.createDatabase();
      const both = await instances(databaseUrl, 2);
      const before = [];
      for (const site of both) {
        await waitForSeason([site], 2025, 5_000);
        const first = await getPage(site.url);
        const again = await getPage(site.url);
        expect(again.fromCache, `${site.url}/ kept in the page cache`).toBe(true);
        expect(again.etag).toBe(first.etag);
        expect(again.description).toContain("Orders are open for the 2025 haunt season.");
        expect(jsonLdServices(again)).toEqual(defaultSiteContent.services.map((service) => service.name));
        before.push(again);
      }
      // Behind one public name, both instances give the same bytes: a CDN sees one ETag.
      expect(before[1]!.etag).toBe(before[0]!.etag);

      await publishSite(databaseUrl, season2027);
      await waitForSeason(both, 2027);

      for (const site of both) {
        const page = await getPage(site.url);
        expect(page.status).toBe(200);
        expect(page.etag).not.toBe(before[0]!.etag);
        expect(page.html).not.toContain("Orders are open for the 2025 haunt season.");
        expect(page.description).toContain("Orders are open for the 2027 haunt season.");
        expect(jsonLdServices(page)).toContain("Fog and scent machines");
        // The new version is kept in its turn.
        const again = await getPage(site.url);
        expect(again.fromCache).toBe(true);
        expect(again.etag).toBe(page.etag);
      }
    },
  );

  it(
    "while the database is down, the last published content is served (no 5xx) and logged once; once back, a publish shows",
    { timeout: 60_000 },
    async () => {
      const databaseUrl = await postgres.createDatabase();
      const [site] = await instances(databaseUrl, 1);
      await publishSite(databaseUrl, season2027);
      await waitForSeason([site!], 2027, 5_000);
      await getPage(site!.url); // kept in the page cache

      postgres.stopServer();
      try {
        const problem = "site content: cannot read the published version";
        await waitFor(() => site!.output().includes(problem), "the outage in the log", 10_000);
        // A page first asked for now is rendered from the content held, and kept like any other.
        expect((await getPage(site!.url, "/about")).fromCache).toBe(false);
        expect((await getPage(site!.url, "/about")).fromCache).toBe(true);
        // Several polls later: every public page still answers with the published content, rendered or kept.
        for (let round = 0; round < 3; round++) {
          for (const path of ["/", "/about", "/privacy"]) {
            const page = await getPage(site!.url, path);
            expect(page.status, path).toBe(200);
            if (path === "/") expect(page.html).toContain("Orders are open for the 2027 haunt season.");
          }
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
        expect(site!.output().split(problem).length - 1, "logged once per outage").toBe(1);
      } finally {
        postgres.startServer();
      }

      await waitFor(
        () => site!.output().includes("site content: the database answers again"),
        "the site to read the database again",
        30_000,
      );
      await publishSite(databaseUrl, { ...season2027, season: { ...season2027.season, year: 2028 } });
      await waitForSeason([site!], 2028);
    },
  );
});

/** The Site form as a browser without JavaScript posts it: every field, with the season year and one service changed. */
function siteForm(intent: string, revision: number, year: string, serviceName: string): Record<string, string> {
  const values = fromContent(defaultSiteContent);
  values.year = year;
  values.services[0]!.name = serviceName;
  const body: Record<string, string> = { intent, revision: String(revision) };
  for (const [key, name] of Object.entries(formFields)) {
    const value = values[key as keyof typeof formFields];
    if (typeof value === "boolean") {
      if (value) body[name] = "on";
    } else if (typeof value === "string") body[name] = value;
  }
  values.services.forEach((service, index) => {
    body[serviceField(index, "name")] = service.name;
    body[serviceField(index, "detail")] = service.detail;
  });
  return body;
}

describe.skipIf(!postgresAvailable)("the owner's Site page with two instances on one PostgreSQL database", () => {
  it(
    "a draft and its preview stay private; a publish on one instance's Site page shows on the other within 2 s",
    { timeout: 60_000 },
    async () => {
      const databaseUrl = await postgres.createDatabase();
      const [first, second] = await instances(databaseUrl, 2);
      const publicUrl = "https://grimforge.example";
      const password = "a coffin full of moonlit bats";
      const added = await runInbox(["operator", "add", "ann@example.com"], {
        env: { DATABASE_URL: databaseUrl, API_HOST: "" },
        input: `${password}\n`,
      });
      expect(added.status, added.stderr).toBe(0);
      const login = await sendAs(publicUrl, first!.url, "/inbox/login", {
        method: "POST",
        body: { email: "ann@example.com", password, next: "/inbox/site" },
      });
      expect(login.status).toBe(302);
      const cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
      const post = (body: Record<string, string>) =>
        sendAs(publicUrl, first!.url, "/inbox/site", { method: "POST", cookie, body });

      // Saved as a draft: the public pages of both instances are unchanged; the preview is the operator's only.
      const saved = await post(siteForm("preview", 0, "2027", "Fog and scent machines"));
      expect(saved.status).toBe(303);
      expect(saved.headers.location).toBe("/?preview");
      const preview = await sendAs(publicUrl, first!.url, "/?preview", { cookie });
      expect(preview.text).toContain("Orders are open for the 2027 haunt season.");
      expect(preview.headers["cache-control"]).toMatch(/^private, no-store\b/);
      expect((await sendAs(publicUrl, second!.url, "/?preview", {})).status).toBe(302);
      for (const site of [first!, second!]) {
        expect((await getPage(site.url)).html).toContain("Orders are open for the 2025 haunt season.");
        expect((await getPage(site.url)).fromCache).toBe(true);
      }

      const published = await post(siteForm("publish", 1, "2027", "Fog and scent machines"));
      expect(published.status).toBe(303);
      expect(published.headers.location).toBe("/inbox/site?done=published&version=1");
      // The instance that published shows it on its next request; the other within 2 s, by its poll.
      expect((await getPage(first!.url)).html).toContain("Orders are open for the 2027 haunt season.");
      await waitForSeason([second!], 2027);
      expect(jsonLdServices(await getPage(second!.url))).toContain("Fog and scent machines");
    },
  );
});

describe.skipIf(!postgresAvailable)("an uploaded photo with two instances on one PostgreSQL database", () => {
  it(
    "a camera JPEG uploaded and published on one instance is in the other's carousel, every size without metadata",
    { timeout: 60_000 },
    async () => {
      const databaseUrl = await postgres.createDatabase();
      const [first, second] = await instances(databaseUrl, 2);
      const publicUrl = "https://grimforge.example";
      const password = "a coffin full of moonlit bats";
      const added = await runInbox(["operator", "add", "ann@example.com"], {
        env: { DATABASE_URL: databaseUrl, API_HOST: "" },
        input: `${password}\n`,
      });
      expect(added.status, added.stderr).toBe(0);
      const login = await sendAs(publicUrl, first!.url, "/inbox/login", {
        method: "POST",
        body: { email: "ann@example.com", password, next: "/inbox/site" },
      });
      const cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;

      // The phone's photo: sideways (EXIF orientation), with GPS, camera and dates, into Carousel slide 1.
      const photo = await cameraJpeg();
      expect((await exifr.gps(photo))?.latitude).toBeDefined();
      const form = new FormData();
      form.append("alt", "A werewolf in the barn");
      form.append("place", "slide-1");
      form.append("photo", new File([new Uint8Array(photo)], "IMG_0001.JPG", { type: "image/jpeg" }));
      const encoded = new Response(form);
      const uploaded = await sendAs(publicUrl, first!.url, "/inbox/site/photos", {
        method: "POST",
        cookie,
        upload: {
          bytes: new Uint8Array(await encoded.arrayBuffer()),
          contentType: encoded.headers.get("content-type")!,
        },
      });
      expect(uploaded.status).toBe(303);
      // Not public before Publish.
      expect((await getPage(second!.url)).html).not.toContain("A werewolf in the barn");

      const published = await sendAs(publicUrl, first!.url, "/inbox/site", {
        method: "POST",
        cookie,
        body: siteForm("publish", 1, "2025", defaultSiteContent.services[0]!.name),
      });
      expect(published.status).toBe(303);
      expect(published.headers.location).toBe("/inbox/site?done=published&version=1");

      // Encoded in the background by whichever instance claims it; the other shows it by its poll.
      let html = "";
      await waitFor(
        async () => {
          html = (await getPage(second!.url)).html;
          return html.includes('alt="A werewolf in the barn"');
        },
        "the uploaded photo in the second instance's carousel",
        45_000,
      );
      const sources = [...new Set(html.match(/\/photos\/p-[0-9a-f]{10}-[0-9a-z]+\.(?:avif|webp|jpeg|jpg)/g) ?? [])];
      expect(sources.filter((src) => src.endsWith(".avif")).length).toBeGreaterThanOrEqual(3);
      expect(sources.some((src) => src.endsWith("-social.jpg"))).toBe(true);
      for (const src of sources) {
        const file = await fetch(second!.url + src);
        expect(file.status, src).toBe(200);
        expect(file.headers.get("cache-control"), src).toContain("immutable");
        const bytes = Buffer.from(await file.arrayBuffer());
        const metadata = await sharp(bytes).metadata();
        expect([metadata.exif, metadata.xmp, metadata.iptc], src).toEqual([undefined, undefined, undefined]);
        expect(await exifr.parse(bytes, { gps: true, xmp: true }).catch(() => undefined), src).toBeUndefined();
      }
    },
  );

  it(
    "while the database is down, a clip an instance has in its file cache is served (ranges too) and one it lacks is a 503 with Retry-After; once back, it is served",
    { timeout: 60_000 },
    async () => {
      const databaseUrl = await postgres.createDatabase();
      // A clip as the encoder leaves it: stored through the store's own steps (its encoding is video-encoding's test).
      const dir = temp.dir();
      const clipPath = await phoneClip(dir, { seconds: 1 });
      const bytes = readFileSync(clipPath);
      const name = `${createHash("sha256").update(bytes).digest("hex").slice(0, 24)}.mp4`;
      const store = await openInboxStore({ kind: "postgres", url: databaseUrl }, { timeoutMs: 10_000 });
      try {
        const id = randomBytes(12).toString("hex");
        const video = { id, fileName: "IMG_0420.MOV", contentType: "video/quicktime", uploadedBy: "ann@example.com" };
        expect(await store.saveVideoUpload({ ...video, durationMs: 1_000, width: 1280, height: 720 }, clipPath)).toBe(
          true,
        );
        const claim = (await store.claimVideo(60_000))!;
        const outcome = { clipPath, clipName: name, width: 1280, height: 720, durationMs: 1_000, posterUpload: null };
        expect(await store.finishVideo(claim, outcome)).toBe(true);
      } finally {
        await store.close();
      }
      // Each with a file cache of its own (as instances on their own machines have).
      const [warm, cold] = await Promise.all(
        ["warm", "cold"].map((which) =>
          startSite({ API_HOST: "", DATABASE_URL: databaseUrl, MEDIA_CACHE_DIR: join(dir, which) }),
        ),
      );
      sites.push(warm!, cold!);
      expect((await fetch(`${warm!.url}/media/${name}`)).status).toBe(200);

      postgres.stopServer();
      try {
        const whole = await fetch(`${warm!.url}/media/${name}`);
        expect(whole.status).toBe(200);
        expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
        const part = await fetch(`${warm!.url}/media/${name}`, { headers: { Range: "bytes=0-99" } });
        expect(part.status).toBe(206);
        expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(0, 100))).toBe(true);
        const missing = await fetch(`${cold!.url}/media/${name}`);
        expect(missing.status).toBe(503);
        expect(missing.headers.get("retry-after")).toBe("5");
        expect(missing.headers.get("cache-control")).toBe("no-store");
        expect((await fetch(`${cold!.url}/healthz`)).status).toBe(200);
      } finally {
        postgres.startServer();
      }
      await waitFor(
        async () => (await fetch(`${cold!.url}/media/${name}`)).status === 200,
        "the clip served once the database is back",
        30_000,
      );
    },
  );
});
