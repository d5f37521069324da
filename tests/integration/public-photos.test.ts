import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { parseDatabaseUrl } from "~/config.server";
import { photos as built } from "~/wording/photos.generated";
import { ensureRenditions, placementKey } from "~/site-content/photo-renditions.server";
import { publishContent } from "~/site-content/publish.server";
import type { RenditionEntry } from "~/site-content/public-photos.server";
import { defaultSiteContent, type PhotoPlacement, type SiteContent } from "~/site-content/schema.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { runInbox } from "../support/inbox-command";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { cameraLikeJpeg, finishPendingRenditions, saveTestUpload } from "../support/ready-photos";
import { sendAs } from "../support/site-http";
import { getPage, type PublicPage } from "../support/site-page";
import { startSite, waitFor, type SiteServer } from "../support/site-server";

/**
 * The owner's published photos on the public pages, through the built server: a photo placed in slide 1
 * and About shows the drawn art until its renditions are encoded, then goes public by itself on every instance
 * sharing the database (their poll), with a new ETag, in the carousel, on /about, as og:image and in the JSON-LD; a
 * restore of the version before brings the art back; next to a build's photos/, the owner's photo wins its place. The
 * renditions are encoded by the test (tests/support/ready-photos.ts), not by the background encoder.
 */

const origin = "https://grimforge.example";
let postgres: TestDatabases;
const sites: SiteServer[] = [];
const stores: InboxStore[] = [];

beforeAll(async () => {
  if (postgresAvailable) postgres = await sharedPostgres();
}, 60_000);
afterAll(() => postgres?.stop());
afterEach(async () => {
  await Promise.all([...sites.splice(0).map((site) => site.stop()), ...stores.splice(0).map((store) => store.close())]);
});

async function openStore(databaseUrl: string): Promise<InboxStore> {
  const store = await openInboxStore(parseDatabaseUrl(databaseUrl)!, { timeoutMs: 10_000 });
  stores.push(store);
  return store;
}

async function publish(store: InboxStore, content: SiteContent, restoredFrom?: number): Promise<number> {
  const draft = await store.siteDraft();
  const result = await publishContent(store, content, draft.revision, "test@grimforge.example", { restoredFrom });
  if (!result.ok) throw new Error(`publish refused: ${result.reason}`);
  return result.version;
}

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const unescape = (text: string) => text.replace(/&amp;/g, "&").replace(/&quot;/g, '"');
const pictures = (html: string) => [...html.matchAll(/<picture>([\s\S]*?)<\/picture>/g)].map((m) => m[1]!);
const srcsetOf = (sources: { width: number; src: string }[]) => sources.map((s) => `${s.src} ${s.width}w`).join(", ");
const artSlides = (html: string) => [...html.matchAll(/<img\b[^>]*src="\/images\/carousel\/[^"]+\.svg"/g)].length;

function meta(html: string, key: string): string | undefined {
  const tag = [...html.matchAll(/<meta\b[^>]*>/g)]
    .map((m) => m[0])
    .find((t) => attribute(t, "property") === key || attribute(t, "name") === key);
  return tag && unescape(attribute(tag, "content") ?? "");
}

const businessImages = (page: PublicPage) =>
  (page.jsonLd.find((data) => data["@type"] === "LocalBusiness") as { image?: string[] } | undefined)?.image;

/** The figure of each slide, in order: its picture (or art) and caption. */
const figures = (html: string) => [...html.matchAll(/<figure\b[\s\S]*?<\/figure>/g)].map((m) => m[0]);

/** A picture element as the page must render an encoded photo: AVIF, WebP, JPEG srcsets and the alt text. */
function expectPicture(picture: string | undefined, entry: RenditionEntry, alt: string) {
  expect(picture, "a <picture>").toBeDefined();
  const sources = [...picture!.matchAll(/<source\b[^>]*>/g)].map((m) => m[0]);
  expect(sources.map((tag) => [attribute(tag, "type"), attribute(tag, "srcSet")])).toEqual([
    ["image/avif", srcsetOf(entry.avif)],
    ["image/webp", srcsetOf(entry.webp)],
  ]);
  const img = /<img\b[^>]*>/.exec(picture!)![0];
  expect(attribute(img, "srcSet")).toBe(srcsetOf(entry.jpeg));
  expect(unescape(attribute(img, "alt") ?? "")).toBe(alt);
  expect(attribute(img, "width")).toBe(String(entry.width));
  expect(attribute(img, "height")).toBe(String(entry.height));
}

const slidePhoto: Omit<PhotoPlacement, "upload"> = {
  alt: "A seven-foot cloaked reaper with glowing eyes, finished in the workshop",
  focus: { x: 0.5, y: 0.35 },
};
const aboutPhoto: Omit<PhotoPlacement, "upload"> = {
  alt: "Two builders at the workshop bench",
  focus: { x: 0.5, y: 0.5 },
};
const ownCaption = "our reaper, fresh from the workshop";

const withCaption: SiteContent = {
  ...defaultSiteContent,
  photos: {
    ...defaultSiteContent.photos,
    captions: [ownCaption, defaultSiteContent.photos.captions[1], defaultSiteContent.photos.captions[2]],
  },
};
const withPhotos = (upload: string): SiteContent => ({
  ...withCaption,
  photos: {
    ...withCaption.photos,
    slides: [{ upload, ...slidePhoto }, null, null],
    about: { upload, ...aboutPhoto },
  },
});

describe.skipIf(!postgresAvailable)("the owner's published photos on two instances on one PostgreSQL database", () => {
  it(
    "the art shows until the photo is encoded; then both show it within 2 s (carousel, About, og:image, JSON-LD) with a new ETag; a restore brings the art back",
    { timeout: 60_000 },
    async () => {
      const databaseUrl = await postgres.createDatabase();
      const both = await Promise.all(
        [0, 1].map(() => startSite({ API_HOST: "", DATABASE_URL: databaseUrl, PUBLIC_URL: origin })),
      );
      sites.push(...both);
      const store = await openStore(databaseUrl);

      // Version 1: the owner's caption, no photo. Version 2: an uploaded photo in slide 1 and About, not encoded yet.
      const artVersion = await publish(store, withCaption);
      const upload = await saveTestUpload(store, await cameraLikeJpeg(1));
      await publish(store, withPhotos(upload));
      const slideKey = placementKey({ shape: "slide", photo: { upload, ...slidePhoto } });
      expect((await store.renditions([slideKey])).map((r) => r.state)).toEqual(["pending"]);

      const shown = (site: SiteServer, text: string) => async () => (await getPage(site.url)).html.includes(text);
      for (const site of both) await waitFor(shown(site, ownCaption), `the owner's caption on ${site.url}`, 5_000);
      const before: PublicPage[] = [];
      for (const site of both) {
        const page = await getPage(site.url);
        expect(pictures(page.html), "nothing unencoded on the page").toEqual([]);
        expect(artSlides(page.html)).toBe(3);
        expect(page.html).not.toContain(slidePhoto.alt);
        expect(meta(page.html, "og:image")).toBe(new URL(built.social.src, origin).href);
        expect(pictures((await getPage(site.url, "/about")).html)).toEqual([]);
        expect((await getPage(site.url)).fromCache, "kept in the page cache").toBe(true);
        before.push(page);
      }

      // The background encoder's work, done here: the renditions become ready after the publish.
      const aboutKey = placementKey({ shape: "about", photo: { upload, ...aboutPhoto } });
      const entries = await finishPendingRenditions(store, [slideKey, aboutKey]);
      const slide = entries.get(slideKey)!;
      const about = entries.get(aboutKey)!;
      expect(slide.social).toBeDefined();
      // Both renditions: each instance's poll may see the slide ready a moment before the About photo.
      await Promise.all(
        both.map((site) => waitFor(shown(site, slide.avif[0]!.src), `the encoded photo on ${site.url}/`, 2_000)),
      );
      await Promise.all(
        both.map((site) =>
          waitFor(shown(site, about.jpeg.at(-1)!.src), `the About photo in ${site.url}/'s JSON-LD`, 2_000),
        ),
      );

      for (const [index, site] of both.entries()) {
        const page = await getPage(site.url);
        expect(page.status).toBe(200);
        expect(page.etag).not.toBe(before[index]!.etag);
        const [first, second, third] = figures(page.html);
        expectPicture(pictures(first!)[0], slide, slidePhoto.alt);
        // The LCP: fetched first and at once.
        const firstImg = /<picture>[\s\S]*?<img\b[^>]*>/.exec(first!)![0].match(/<img\b[^>]*>$/)![0];
        expect(attribute(firstImg, "fetchpriority")).toBe("high");
        expect(attribute(firstImg, "loading")).toBe("eager");
        expect(first).toContain(`src="${slide.placeholder}"`);
        expect(first).toContain(ownCaption);
        // The other slides keep their drawn art.
        expect([second, third].map((figure) => pictures(figure!).length)).toEqual([0, 0]);
        expect(artSlides(page.html)).toBe(2);

        expect(meta(page.html, "og:image")).toBe(new URL(slide.social!.src, origin).href);
        expect(meta(page.html, "og:image:width")).toBe("1200");
        expect(meta(page.html, "og:image:height")).toBe("630");
        expect(meta(page.html, "twitter:image")).toBe(new URL(slide.social!.src, origin).href);
        expect(businessImages(page)).toEqual([
          new URL(slide.jpeg.at(-1)!.src, origin).href,
          new URL(about.jpeg.at(-1)!.src, origin).href,
        ]);

        const aboutPage = await getPage(site.url, "/about");
        expectPicture(pictures(aboutPage.html)[0], about, aboutPhoto.alt);
        expect(meta(aboutPage.html, "og:image")).toBe(new URL(slide.social!.src, origin).href);
        // The new page is kept in its turn.
        const again = await getPage(site.url);
        expect(again.fromCache).toBe(true);
        expect(again.etag).toBe(page.etag);
      }

      // A restore of the version before the photos: the art again on both, by their poll.
      await publish(store, withCaption, artVersion);
      await Promise.all(
        both.map((site) =>
          waitFor(async () => !(await shown(site, slide.avif[0]!.src)()), `the art again on ${site.url}/`, 2_000),
        ),
      );
      for (const [index, site] of both.entries()) {
        const page = await getPage(site.url);
        expect(pictures(page.html)).toEqual([]);
        expect(artSlides(page.html)).toBe(3);
        expect(page.html).toContain(ownCaption);
        expect(meta(page.html, "og:image")).toBe(new URL(built.social.src, origin).href);
        expect(page.etag).toBe(before[index]!.etag);
        expect(pictures((await getPage(site.url, "/about")).html)).toEqual([]);
      }
    },
  );
});

describe("next to the build's photos (photos/)", () => {
  let photoDir: string;
  beforeAll(() => {
    // Built once for the run, before any file (tests/support/integration-setup.ts).
    photoDir = inject("photoSiteDir");
  });

  it(
    "the owner's published photo wins its place; the build's photos show in the others",
    { timeout: 60_000 },
    async () => {
      const site = await startSite({ API_HOST: "", PUBLIC_URL: origin }, { appDir: photoDir });
      sites.push(site);
      const store = await openStore(site.databaseUrl);
      const buildPage = await getPage(site.url);
      const buildPictures = pictures(buildPage.html);
      expect(buildPictures, "the build's three slides").toHaveLength(3);

      const upload = await saveTestUpload(store, await cameraLikeJpeg(2));
      await publish(store, { ...withPhotos(upload), photos: { ...withPhotos(upload).photos, about: null } });
      const slideKey = placementKey({ shape: "slide", photo: { upload, ...slidePhoto } });
      const slide = (await finishPendingRenditions(store, [slideKey])).get(slideKey);
      await waitFor(
        async () => (await getPage(site.url)).html.includes(slide!.avif[0]!.src),
        "the owner's photo",
        5_000,
      );

      const page = await getPage(site.url);
      const now = pictures(page.html);
      expectPicture(now[0], slide!, slidePhoto.alt);
      expect(now.slice(1), "slides 2 and 3: the build's photos").toEqual(buildPictures.slice(1));
      expect(meta(page.html, "og:image")).toBe(new URL(slide!.social!.src, origin).href);
      // About was not placed: the build's About photo.
      const about = pictures((await getPage(site.url, "/about")).html);
      expect(about).toHaveLength(1);
      expect(about[0]).toContain("Fixture about photo: the workshop");
    },
  );
});

describe("an operator's preview of the draft", () => {
  it("shows the draft's encoded photo to the operator, while visitors see the published art", async () => {
    const site = await startSite({ API_HOST: "", PUBLIC_URL: origin });
    sites.push(site);
    const password = "a coffin full of moonlit bats";
    const added = await runInbox(["operator", "add", "ann@example.com"], {
      env: { DATABASE_URL: site.databaseUrl, PUBLIC_URL: origin, API_HOST: "" },
      input: `${password}\n`,
    });
    expect(added.status, added.stderr).toBe(0);
    const login = await sendAs(origin, site.url, "/inbox/login", {
      method: "POST",
      body: { email: "ann@example.com", password, next: "/inbox/site" },
    });
    expect(login.status).toBe(302);
    const cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;

    // A draft placing a photo, saved as the Site page saves it (which asks for its renditions), then encoded.
    const store = await openStore(site.databaseUrl);
    const upload = await saveTestUpload(store, await cameraLikeJpeg(3));
    const draft = withPhotos(upload);
    const saved = await store.saveSiteDraft(JSON.stringify(draft), (await store.siteDraft()).revision, "ann");
    expect(saved.ok).toBe(true);
    await ensureRenditions(store, draft);
    const slideKey = placementKey({ shape: "slide", photo: draft.photos.slides[0]! });
    const aboutKey = placementKey({ shape: "about", photo: draft.photos.about! });
    const slide = (await finishPendingRenditions(store, [slideKey, aboutKey])).get(slideKey)!;

    const preview = await sendAs(origin, site.url, "/?preview", { cookie });
    expect(preview.status).toBe(200);
    expect(preview.headers["cache-control"]).toMatch(/^private, no-store\b/);
    expectPicture(pictures(preview.text)[0], slide, slidePhoto.alt);
    expect(preview.text).toContain(ownCaption);
    const aboutPreview = await sendAs(origin, site.url, "/about?preview", { cookie });
    expect(pictures(aboutPreview.text)).toHaveLength(1);

    const visitor = await getPage(site.url);
    expect(pictures(visitor.html)).toEqual([]);
    expect(artSlides(visitor.html)).toBe(3);
  });
});
