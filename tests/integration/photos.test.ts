import { execFile, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { brand } from "~/wording/shared";
import { defaultSiteContent } from "~/site-content/schema.server";
import { fixtureDir } from "../support/photo-site.mjs";
import { projectRoot, startSite, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * The owner's photos through the real build and the built server, in two copies of the site (photo-site.mjs): one
 * without photos (the drawn art), one with the three 12-megapixel fixture camera photos and an About photo.
 */

const temp = useTempDir("haunt-photos-");
let art: SiteServer;
let photo: SiteServer;
let photoDir: string;

beforeAll(async () => {
  // Both built once for the run, before any file (tests/support/integration-setup.ts).
  photoDir = inject("photoSiteDir");
  const artDir = inject("artSiteDir");
  [art, photo] = await Promise.all([
    startSite({ PUBLIC_URL: "https://haunt.example" }, { appDir: artDir }),
    startSite({ PUBLIC_URL: "https://haunt.example" }, { appDir: photoDir }),
  ]);
});
afterAll(async () => {
  await Promise.all([art?.stop(), photo?.stop()]);
});

const html = async (site: SiteServer, path: string) => (await fetch(`${site.url}${path}`)).text();
const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const pictures = (page: string) => [...page.matchAll(/<picture>([\s\S]*?)<\/picture>/g)].map((m) => m[1]!);
const widthsOf = (srcset: string) => srcset.split(", ").map((entry) => Number(entry.split(" ")[1]!.replace("w", "")));

function jsonLd(page: string): Record<string, unknown>[] {
  return [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
}

function meta(page: string, key: string): string | undefined {
  const tag = [...page.matchAll(/<meta\b[^>]*>/g)]
    .map((m) => m[0])
    .find((t) => attribute(t, "property") === key || attribute(t, "name") === key);
  return tag && attribute(tag, "content");
}

const slideSizes =
  "(min-width: 1152px) 646px, (min-width: 992px) calc(60vw - 45px), (min-width: 576px) calc(100vw - 48px), calc(100vw - 32px)";

describe("without photos", () => {
  it("shows the drawn art in every slide, no <picture>", async () => {
    const page = await html(art, "/");
    expect(pictures(page)).toEqual([]);
    const svgs = [...page.matchAll(/<img\b[^>]*src="(\/images\/carousel\/[^"]+\.svg)"/g)].map((m) => m[1]);
    expect(svgs).toHaveLength(3);
  });

  it("makes the 1200 x 630 link-preview image from the first slide's art", async () => {
    const page = await html(art, "/");
    const image = meta(page, "og:image")!;
    expect(image).toMatch(/^https:\/\/haunt\.example\/photos\/social-[0-9a-f]{10}\.jpg$/);
    const response = await fetch(`${art.url}${new URL(image).pathname}`);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    const { width, height } = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect([width, height]).toEqual([1200, 630]);
  });
});

describe("with photos", () => {
  it("renders each slide as <picture>: AVIF and WebP sources, JPEG fallback, every width up to the photo's", async () => {
    const page = await html(photo, "/");
    const slides = pictures(page);
    expect(slides).toHaveLength(3);
    for (const [index, slide] of slides.entries()) {
      const sources = [...slide.matchAll(/<source\b[^>]*>/g)].map((m) => m[0]);
      expect(sources.map((s) => attribute(s, "type"))).toEqual(["image/avif", "image/webp"]);
      const img = /<img\b[^>]*>/.exec(slide)![0];
      for (const tag of [...sources, img]) {
        expect(attribute(tag, "sizes")).toBe(slideSizes);
        // 4032 x 3024 cropped to 16:9 is 4032 wide: every width of the list (AVIF up to 1600: the encoder's memory).
        expect(widthsOf(attribute(tag, "srcSet")!)).toEqual(
          attribute(tag, "type") === "image/avif" ? [480, 720, 1080, 1280] : [480, 720, 1080, 1600, 2400],
        );
        for (const src of attribute(tag, "srcSet")!
          .split(", ")
          .map((e) => e.split(" ")[0]!))
          expect(src).toMatch(new RegExp(`^/photos/slide-${index + 1}-\\d+-[0-9a-f]{10}\\.(avif|webp|jpeg)$`));
      }
      expect(attribute(img, "src")).toMatch(/^\/photos\/slide-\d-720-[0-9a-f]{10}\.jpeg$/);
      expect([attribute(img, "width"), attribute(img, "height")]).toEqual(["2400", "1350"]);
      expect(attribute(img, "alt")).toMatch(/^Fixture photo/);
      // The first slide is the LCP: eager and high priority; the others wait (lazy) until the page has loaded.
      expect(attribute(img, "loading")).toBe(index === 0 ? "eager" : "lazy");
      expect(attribute(img, "fetchpriority")).toBe(index === 0 ? "high" : "low");
    }
  });

  it("puts a tiny placeholder under each photo as a data: image (no inline style: the CSP refuses those)", async () => {
    const page = await html(photo, "/");
    const placeholders = [...page.matchAll(/<img\b[^>]*data-photo-placeholder=""[^>]*>/g)].map((m) => m[0]);
    expect(placeholders).toHaveLength(3);
    for (const tag of placeholders) {
      const src = attribute(tag, "src")!;
      expect(src).toMatch(/^data:image\/webp;base64,/);
      expect(src.length).toBeLessThan(600);
      expect(attribute(tag, "alt")).toBe("");
      const { width, format } = await sharp(Buffer.from(src.split(",")[1]!, "base64")).metadata();
      expect([width, format]).toEqual([16, "webp"]);
    }
    expect(page).not.toMatch(/\sstyle="/);
    expect(page.match(/<img\b[^>]*data-photo-placeholder/g)).toHaveLength(3);
  });

  it("serves the photo files immutable for a year, with their types", async () => {
    const page = await html(photo, "/");
    for (const ext of ["avif", "webp", "jpeg"]) {
      const src = new RegExp(`/photos/slide-1-720-[0-9a-f]{10}\\.${ext}`).exec(page)![0];
      const response = await fetch(`${photo.url}${src}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(`image/${ext}`);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
  });

  it("applies the EXIF orientation and keeps no metadata (GPS, camera) in any output", async () => {
    // The fixtures are stored sideways with Orientation 6 and carry GPS tags.
    const original = await exifr.parse(join(fixtureDir, "slide-1.jpg"), { gps: true });
    expect(original.latitude).toBeCloseTo(51.5, 1);
    expect(original.Orientation).toBe("Rotate 90 CW");
    const outputDir = join(photoDir, "public", "photos");
    const files = readdirSync(outputDir);
    // Three slides: WebP and JPEG at five widths, AVIF at four (up to 1600); the About photo's three formats at four.
    expect(files.length).toBeGreaterThanOrEqual(3 * (2 * 5 + 4) + 3 * 4 + 1);
    for (const file of files) {
      const path = join(outputDir, file);
      const metadata = await sharp(path).metadata();
      expect(metadata.exif, file).toBeUndefined();
      expect(metadata.xmp, file).toBeUndefined();
      expect(metadata.orientation ?? 1, file).toBe(1);
      // Upright: landscape as the camera meant it, not the stored portrait.
      expect(metadata.width!, file).toBeGreaterThan(metadata.height!);
      expect(await exifr.parse(path, { gps: true }).catch(() => undefined), file).toBeUndefined();
      expect(readFileSync(path).includes("FixtureCam"), file).toBe(false);
    }
  });

  it("shows the About photo and uses the first photo for the link preview", async () => {
    const about = await html(photo, "/about");
    const [picture] = pictures(about);
    expect(attribute(/<img\b[^>]*>/.exec(picture!)![0], "alt")).toBe("Fixture about photo: the workshop");
    const home = await html(photo, "/");
    const image = meta(home, "og:image")!;
    expect(image).toMatch(/^https:\/\/haunt\.example\/photos\/social-[0-9a-f]{10}\.jpg$/);
    expect(image).not.toBe(meta(await html(art, "/"), "og:image"));
    const { width, height } = await sharp(join(photoDir, "public", new URL(image).pathname)).metadata();
    expect([width, height]).toEqual([1200, 630]);
  });

  it("does not encode unchanged photos again: the photo step of a cached build encodes none and rewrites no cache entry", () => {
    const cache = join(photoDir, ".cache", "photos");
    const written = () =>
      readdirSync(cache, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => {
          const file = join(entry.parentPath, entry.name);
          return `${file} ${statSync(file).mtimeMs}`;
        })
        .sort();
    const before = written();
    expect(before.length).toBeGreaterThan(0);
    const result = spawnSync("node", ["scripts/photos.mjs"], { cwd: photoDir, encoding: "utf8" });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/4 photo\(s\), 0 encoded/);
    expect(result.stdout).not.toContain("[photos] encoding");
    // Speed is the bench's to measure (bench/README.md); here: every cache entry is left as it was.
    expect(written()).toEqual(before);
  });
});

describe("structured data and link previews", () => {
  it("Home: a LocalBusiness with name, description, url, logo, images and the services as an OfferCatalog", async () => {
    for (const site of [art, photo]) {
      const [business, ...rest] = jsonLd(await html(site, "/"));
      expect(rest).toEqual([]);
      expect(business).toMatchObject({
        "@context": "https://schema.org",
        "@type": "LocalBusiness",
        name: brand.name,
        description: defaultSiteContent.home.tagline,
        url: "https://haunt.example/",
        logo: "https://haunt.example/logo.svg",
      });
      const images = business!.image as string[];
      expect(images.length).toBeGreaterThanOrEqual(1);
      for (const image of images) expect(image).toMatch(/^https:\/\/haunt\.example\/photos\/.+\.(jpeg|jpg)$/);
      const catalog = business!.hasOfferCatalog as { "@type": string; itemListElement: unknown[] };
      expect(catalog["@type"]).toBe("OfferCatalog");
      expect(catalog.itemListElement).toEqual(
        defaultSiteContent.services.map((s) => ({
          "@type": "Offer",
          itemOffered: { "@type": "Service", name: s.name, description: s.detail },
          availability: "https://schema.org/InStock",
        })),
      );
    }
    expect((jsonLd(await html(photo, "/"))[0]!.image as string[]).length).toBe(4);
  });

  it.each([
    ["/about", "AboutPage"],
    ["/contact", "ContactPage"],
  ])("%s: an %s about the business", async (path, type) => {
    const [data] = jsonLd(await html(art, path));
    expect(data).toMatchObject({
      "@context": "https://schema.org",
      "@type": type,
      url: `https://haunt.example${path}`,
      about: { "@type": "LocalBusiness", "@id": "https://haunt.example/#business", name: brand.name },
    });
    expect(typeof data!.name).toBe("string");
    expect(typeof data!.description).toBe("string");
  });

  it("Open Graph and Twitter card tags with absolute URLs from PUBLIC_URL", async () => {
    const page = await html(photo, "/contact");
    expect(meta(page, "og:url")).toBe("https://haunt.example/contact");
    expect(meta(page, "og:image")).toMatch(/^https:\/\/haunt\.example\/photos\/social-/);
    expect([meta(page, "og:image:width"), meta(page, "og:image:height")]).toEqual(["1200", "630"]);
    expect(meta(page, "twitter:card")).toBe("summary_large_image");
    expect(meta(page, "twitter:image")).toBe(meta(page, "og:image"));
    expect(meta(page, "twitter:title")).toBe(meta(page, "og:title"));
  });

  it("the JSON-LD block's hash is in script-src like every inline script; the pages pass the W3C Nu checker", async () => {
    const files: string[] = [];
    for (const path of ["/", "/about", "/contact"]) {
      const response = await fetch(`${photo.url}${path}`);
      const csp = response.headers.get("content-security-policy")!;
      expect(csp).not.toMatch(/unsafe-inline/);
      expect(csp).toMatch(/style-src 'self'[;]/);
      const file = join(temp.dir(), `photo${path.replace(/\//g, "_")}.html`);
      writeFileSync(file, await response.text());
      files.push(file);
    }
    const jar = join(projectRoot, "node_modules/vnu-jar/build/dist/vnu.jar");
    const { stderr } = await promisify(execFile)("java", ["-jar", jar, "--format", "json", "--errors-only", ...files], {
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stderr?: string }) => ({ stderr: error.stderr ?? String(error) }));
    const { messages } = JSON.parse(stderr) as { messages: { type: string; url: string; message: string }[] };
    expect(messages.filter((m) => m.type === "error").map((m) => `${m.url}: ${m.message}`)).toEqual([]);
  }, 60_000);
});
