import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "~/config.server";
import { notFoundPage, projectPage, workLink, workPage } from "~/wording";
import { slugOf } from "~/site-content/fields";
import { placementKey, posterKey } from "~/site-content/photo-renditions.server";
import { publishContent } from "~/site-content/publish.server";
import type { RenditionEntry } from "~/site-content/public-photos.server";
import { defaultSiteContent, type PhotoPlacement, type SiteContent } from "~/site-content/schema.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { cameraLikeJpeg, finishPendingRenditions, saveTestUpload } from "../support/ready-photos";
import { getPage } from "../support/site-page";
import { startSite, waitFor, type SiteServer } from "../support/site-server";

/**
 * The public Work pages through the built server and its own SQLite database: none before a project is published (a
 * 404, no link in the navigation), then, with two projects published through the store and their photos and one clip
 * made ready by the test (tests/support/ready-photos.ts, the store's video part), /work lists them featured first, a
 * service's address filters them, a project's page shows its words, photos, clip and "Ask for one like this"; a
 * former address answers 301, an unknown one 404; the sitemap lists them; the header and the footer link to /work.
 */

const origin = "https://grimforge.example";
let site: SiteServer;
let store: InboxStore;
let scratch: string;

beforeAll(async () => {
  site = await startSite({ API_HOST: "", PUBLIC_URL: origin });
  store = await openInboxStore(parseDatabaseUrl(site.databaseUrl)!, { timeoutMs: 10_000 });
  scratch = mkdtempSync(join(tmpdir(), "haunt-work-"));
}, 90_000);
afterAll(async () => {
  await store?.close();
  await site?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const unescape = (text: string) =>
  text
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'");
const pictures = (html: string) => [...html.matchAll(/<picture>([\s\S]*?)<\/picture>/g)].map((m) => m[1]!);
const imgOf = (picture: string) => /<img\b[^>]*>/.exec(picture)![0];
const srcsetOf = (sources: { width: number; src: string }[]) => sources.map((s) => `${s.src} ${s.width}w`).join(", ");
const between = (html: string, start: RegExp, end: string) => {
  const from = html.search(start);
  return from < 0 ? "" : html.slice(from, html.indexOf(end, from));
};
const cardTitles = (html: string) =>
  [...between(html, /<ul[^>]*data-work-cards/, "</ul></section>").matchAll(/<h2[^>]*><a[^>]*>([^<]*)<\/a><\/h2>/g)].map(
    (m) => unescape(m[1]!),
  );
const filterLinks = (html: string) =>
  [...between(html, /<ul[^>]*data-work-filters/, "</ul>").matchAll(/<a\b([^>]*)>([^<]*)<\/a>/g)].map((m) => ({
    href: attribute(m[0], "href"),
    label: unescape(m[2]!),
    current: attribute(m[0], "aria-current") === "page",
  }));
const meta = (html: string, key: string) => {
  const tag = [...html.matchAll(/<meta\b[^>]*>/g)]
    .map((m) => m[0])
    .find((t) => attribute(t, "property") === key || attribute(t, "name") === key);
  return tag && unescape(attribute(tag, "content") ?? "");
};
/** The poster's size for the player: the narrowest from 720 px up (the server's encoder may have made it, or the test). */
const playerSize = (sources: { width: number; src: string }[]) =>
  sources.find((source) => source.width >= 720) ?? sources.at(-1)!;
/** The links to /work in the header's two navigations (desktop and the phone's menu) and in the footer. */
const workLinks = (html: string) => ({
  header: [...between(html, /<header\b/, "</header>").matchAll(/<a\b[^>]*href="\/work"[^>]*>Our work<\/a>/g)].length,
  footer: [...between(html, /<footer\b/, "</footer>").matchAll(/<a\b[^>]*href="\/work"[^>]*>Our work<\/a>/g)].length,
});

const [, pneumatic, , scenic, full] = defaultSiteContent.services.map((service) => service.name);

function content(uploads: { wall: string; reaper: string; rig: string }, clip: string): SiteContent {
  const placed = (upload: string, alt: string): PhotoPlacement => ({ upload, alt, focus: { x: 0.5, y: 0.5 } });
  return {
    ...defaultSiteContent,
    projects: [
      {
        id: "00000000000a",
        slug: "asylum-wall",
        formerSlugs: [],
        title: "Asylum wall",
        service: scenic!,
        year: 2024,
        client: "",
        story: "A crumbling wall of padded cells, built in sections that bolt together in an afternoon.",
        photos: [placed(uploads.wall, "A crumbling asylum wall under green light")],
        videos: [],
        featured: false,
      },
      {
        id: "00000000000b",
        slug: "crypt-reaper",
        formerSlugs: ["reaper"],
        title: "Crypt reaper",
        service: pneumatic!,
        year: 2025,
        client: "Nightmare Manor, Salem",
        story:
          "A seven-foot reaper that lunges from its crypt.\n\nIt runs on 80 psi, a relay board and a motion sensor.",
        photos: [
          placed(uploads.reaper, "The reaper mid-lunge, arms raised"),
          placed(uploads.rig, "The reaper's pneumatic rig on the bench"),
        ],
        videos: [{ video: clip }],
        featured: true,
      },
    ],
  };
}

/** A clip made ready through the store's video part, as the video encoder would leave it, with its poster frame. */
async function readyClip(poster: string): Promise<{ id: string; name: string }> {
  const original = join(scratch, "reaper.mov");
  const bytes = randomBytes(4096);
  writeFileSync(original, bytes);
  const id = createHash("sha256").update(bytes).digest("hex").slice(0, 24);
  const video = { fileName: "reaper.mov", contentType: "video/quicktime", durationMs: 42_000 };
  const saved = await store.saveVideoUpload(
    { id, ...video, width: 1920, height: 1080, uploadedBy: "test@grimforge.example" },
    original,
  );
  expect(saved).toBe(true);
  const claim = await store.claimVideo(60_000);
  expect(claim?.id).toBe(id);
  const clipPath = join(scratch, "clip.mp4");
  writeFileSync(clipPath, randomBytes(2048));
  const name = `${createHash("sha256").update("clip").digest("hex").slice(0, 24)}.mp4`;
  const outcome = { clipPath, clipName: name, width: 1280, height: 720, durationMs: 42_400, posterUpload: poster };
  expect(await store.finishVideo(claim!, outcome)).toBe(true);
  await store.requestRendition(posterKey(poster), poster, "poster", { x: 0.5, y: 0.5 });
  return { id, name };
}

/** Any of the app's scripts in a document: a script element that is not JSON-LD, or a module preload. */
const appScripts = /<script(?![^>]*application\/ld\+json)[\s>]|modulepreload/;

describe("the Work pages", () => {
  it(
    "no Work pages before a project; then /work, a service's page, a project's page, 301, 404, sitemap, navigation",
    { timeout: 120_000 },
    async () => {
      // Nothing published: /work is the site's 404, nothing links to it and the sitemap does not name it.
      const none = await getPage(site.url, "/work");
      expect(none.status).toBe(404);
      expect(none.html).toContain(notFoundPage.heading);
      const home = await getPage(site.url, "/");
      expect(home.status).toBe(200);
      expect(workLinks(home.html)).toEqual({ header: 0, footer: 0 });
      expect(home.html).not.toContain(workLink.label);
      const emptySitemap = await (await fetch(`${site.url}/sitemap.xml`)).text();
      expect(emptySitemap).not.toContain("/work");

      // Two projects published, their photos and one clip made ready.
      const uploads = {
        wall: await saveTestUpload(store, await cameraLikeJpeg(11), "wall.jpg"),
        reaper: await saveTestUpload(store, await cameraLikeJpeg(12), "reaper.jpg"),
        rig: await saveTestUpload(store, await cameraLikeJpeg(13), "rig.jpg"),
      };
      const poster = await saveTestUpload(store, await cameraLikeJpeg(14, 1280, 720), "poster.jpg");
      const clip = await readyClip(poster);
      const published = content(uploads, clip.id);
      const draft = await store.siteDraft();
      const result = await publishContent(store, published, draft.revision, "test@grimforge.example");
      expect(result.ok).toBe(true);
      const [wall, reaper] = published.projects;
      const keyOf = (photo: PhotoPlacement) => placementKey({ shape: "work", photo });
      const keys = [keyOf(wall!.photos[0]!), ...reaper!.photos.map(keyOf), posterKey(poster)];
      const entries = await finishPendingRenditions(store, keys);
      const [wallPhoto, reaperPhoto, rigPhoto, posterPhoto] = keys.map((key) => entries.get(key)!) as [
        RenditionEntry,
        RenditionEntry,
        RenditionEntry,
        RenditionEntry,
      ];
      // Every photo and the poster: the instance's poll takes each rendition as it becomes ready, so a page with the
      // poster may still be one without the photo encoded last.
      await waitFor(
        async () => {
          const { html } = await getPage(site.url, "/work/crypt-reaper");
          const shown = [playerSize(posterPhoto.webp).src, rigPhoto.jpeg[0]!.src, reaperPhoto.jpeg[0]!.src];
          return (
            shown.every((src) => html.includes(src)) &&
            (await getPage(site.url, "/work")).html.includes(wallPhoto.jpeg[0]!.src)
          );
        },
        "the project page with its photos and its clip's poster",
        10_000,
      );

      // /work: featured first, then the owner's order; All, then each service with a project.
      const list = await getPage(site.url, "/work");
      expect(list.status).toBe(200);
      expect(list.html).toContain(`>${workPage.heading}</h1>`);
      expect(list.html).toContain(workPage.intro);
      expect(cardTitles(list.html)).toEqual(["Crypt reaper", "Asylum wall"]);
      expect(filterLinks(list.html)).toEqual([
        { href: "/work", label: workPage.all, current: true },
        { href: "/work/custom-pneumatic-animatronics", label: pneumatic, current: false },
        { href: "/work/scenic-design-and-building", label: scenic, current: false },
      ]);
      const covers = pictures(list.html);
      expect(covers).toHaveLength(2);
      expect(attribute(imgOf(covers[0]!), "srcSet")).toBe(srcsetOf(reaperPhoto.jpeg));
      expect(attribute(imgOf(covers[0]!), "fetchpriority")).toBe("high");
      expect(attribute(imgOf(covers[1]!), "srcSet")).toBe(srcsetOf(wallPhoto.jpeg));
      // The first card's photo loads at once and first; the rest as they near the screen (at once when on it).
      expect(covers.map((picture) => attribute(imgOf(picture), "loading"))).toEqual(["eager", "lazy"]);
      expect(attribute(imgOf(covers[1]!), "fetchpriority")).toBe("auto");
      expect(unescape(attribute(imgOf(covers[0]!), "alt")!)).toBe("The reaper mid-lunge, arms raised");
      expect(list.html).toContain('href="/work/crypt-reaper"');
      expect(meta(list.html, "og:url")).toBe(`${origin}/work`);
      expect((await getPage(site.url, "/work")).fromCache, "kept in the page cache").toBe(true);
      // Sent without the app's scripts (ADR 0042): no module, no preload, no inline bootstrap (JSON-LD is data, not
      // a script); Home keeps them.
      expect(list.html).not.toMatch(appScripts);
      expect((await getPage(site.url, "/")).html).toMatch(appScripts);

      // A service's address: its projects only, canonical at its own address; a service without one is the 404.
      const scenicList = await getPage(site.url, "/work/scenic-design-and-building");
      expect(scenicList.status).toBe(200);
      expect(cardTitles(scenicList.html)).toEqual(["Asylum wall"]);
      expect(filterLinks(scenicList.html).find((link) => link.current)?.label).toBe(scenic);
      expect(scenicList.html).toContain(`<link rel="canonical" href="${origin}/work/scenic-design-and-building"/>`);
      expect(cardTitles((await getPage(site.url, "/work/custom-pneumatic-animatronics")).html)).toEqual([
        "Crypt reaper",
      ]);
      expect((await getPage(site.url, `/work/${slugOf(full!)}`)).status).toBe(404);

      // A project's page: its words, its photos (the cover first and at once), its clip and the way to ask for one.
      const page = await getPage(site.url, "/work/crypt-reaper");
      expect(page.status).toBe(200);
      expect(page.html).toContain(">Crypt reaper</h1>");
      expect(page.html).toContain("Nightmare Manor, Salem");
      expect(page.html).toContain("2025");
      expect(page.html).toContain("<p>A seven-foot reaper that lunges from its crypt.</p>");
      expect(page.html).toContain("<p>It runs on 80 psi, a relay board and a motion sensor.</p>");
      expect(page.html).toMatch(/<a\b[^>]*href="\/work\/custom-pneumatic-animatronics"[^>]*>Custom pneumatic/);
      const photos = pictures(page.html);
      expect(photos.map((picture) => attribute(imgOf(picture), "srcSet"))).toEqual([
        srcsetOf(reaperPhoto.jpeg),
        srcsetOf(rigPhoto.jpeg),
      ]);
      expect([attribute(imgOf(photos[0]!), "loading"), attribute(imgOf(photos[0]!), "fetchpriority")]).toEqual([
        "eager",
        "high",
      ]);
      expect(attribute(imgOf(photos[1]!), "loading")).toBe("lazy");
      expect(page.html).not.toMatch(appScripts);
      const video = /<video\b[^>]*>/.exec(page.html)![0];
      expect(video).toContain(" controls");
      expect(video).toMatch(/ playsinline/i);
      expect(video).not.toMatch(/autoplay/i);
      expect(attribute(video, "preload")).toBe("none");
      expect(attribute(video, "poster")).toBe(playerSize(posterPhoto.webp).src);
      expect([attribute(video, "width"), attribute(video, "height")]).toEqual(["1280", "720"]);
      expect(page.html).toContain(`<source src="/media/${clip.name}" type="video/mp4"/>`);
      const ask = /<a\b[^>]*data-ask-link[^>]*>([^<]*)<\/a>/.exec(page.html);
      expect(ask?.[1]).toBe(projectPage.askLink);
      expect(attribute(ask![0], "href")).toBe("/contact?about=crypt-reaper");

      // Its head: the cover as the preview image (the widest JPEG up to 1080 px), the clip as og:video, the JSON-LD.
      const cover = reaperPhoto.jpeg.filter((source) => source.width <= 1080).at(-1)!;
      expect(meta(page.html, "og:image")).toBe(new URL(cover.src, origin).href);
      expect(meta(page.html, "og:video")).toBe(`${origin}/media/${clip.name}`);
      expect(meta(page.html, "og:video:type")).toBe("video/mp4");
      expect([meta(page.html, "og:video:width"), meta(page.html, "og:video:height")]).toEqual(["1280", "720"]);
      const work = page.jsonLd.find((data) => data["@type"] === "CreativeWork");
      expect(work).toMatchObject({
        name: "Crypt reaper",
        description: "A seven-foot reaper that lunges from its crypt.",
        url: `${origin}/work/crypt-reaper`,
        image: [new URL(reaperPhoto.jpeg.at(-1)!.src, origin).href, new URL(rigPhoto.jpeg.at(-1)!.src, origin).href],
        dateCreated: "2025",
        video: [
          {
            "@type": "VideoObject",
            name: projectPage.clipName("Crypt reaper", 1, 1),
            description: "A seven-foot reaper that lunges from its crypt.",
            thumbnailUrl: new URL(playerSize(posterPhoto.jpeg).src, origin).href,
            contentUrl: `${origin}/media/${clip.name}`,
            uploadDate: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            duration: "PT42S",
          },
        ],
      });

      // A former address: 301 to the current one. An unknown one: the site's 404.
      const moved = await fetch(`${site.url}/work/reaper`, { redirect: "manual" });
      expect(moved.status).toBe(301);
      expect(moved.headers.get("location")).toBe("/work/crypt-reaper");
      const unknown = await getPage(site.url, "/work/no-such-build");
      expect(unknown.status).toBe(404);
      expect(unknown.html).toContain(notFoundPage.heading);

      // The sitemap names every Work page; the header (desktop and phone menus) and the footer link to /work.
      const sitemap = await (await fetch(`${site.url}/sitemap.xml`)).text();
      for (const path of [
        "/work",
        "/work/custom-pneumatic-animatronics",
        "/work/scenic-design-and-building",
        "/work/crypt-reaper",
        "/work/asylum-wall",
      ])
        expect(sitemap).toContain(`<loc>${origin}${path}</loc>`);
      expect(sitemap).not.toContain("/work/reaper<");
      for (const path of ["/", "/about", "/work/asylum-wall"]) {
        expect(workLinks((await getPage(site.url, path)).html), path).toEqual({ header: 2, footer: 1 });
      }
    },
  );
});
