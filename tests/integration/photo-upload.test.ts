import { createHash } from "node:crypto";
import { join } from "node:path";
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { photosEditorCopy } from "~/wording/photos-editor";
import { photoLimits } from "~/photos/limits";
import { defaultSiteContent } from "~/site-content/schema.server";
import { runInbox } from "../support/inbox-command";
import { hugePngHeader, smallJpeg, truncatedJpeg } from "../support/fixture-photos.mjs";
import { sendAs } from "../support/site-http";
import { ensureBuilt, startSite, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * The owner's Photos page over plain HTTP, as a browser without JavaScript posts it, against the built server on
 * SQLite: the upload (a camera JPEG with GPS into a place, the same photo twice, every kind of bad file refused in
 * words with what was typed kept), the body cap, and the draft's edits (move, remove, captions, a stale revision).
 * Encoding is another part's (server/photo-encoder-loop.ts): here a placed photo is listed as waiting or encoding.
 */

const publicUrl = "http://photos.example";
const temp = useTempDir("haunt-photo-upload-");
const password = "a coffin full of moonlit bats";
const words = photosEditorCopy;
let site: SiteServer;
let databasePath: string;
let cookie: string;

const cli = (args: string[], input = "") =>
  runInbox(args, { env: { DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl, API_HOST: "" }, input });

const send = (path: string, options: Parameters<typeof sendAs>[3] = {}) =>
  sendAs(publicUrl, site.url, path, { cookie, ...options });

const decoded = (html: string) =>
  html
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/** The upload form as a browser sends it: the text fields first, then the file (when there is one). */
async function upload(fields: { alt?: string; place?: string }, file?: { bytes: Uint8Array; name: string }) {
  const form = new FormData();
  if (fields.alt !== undefined) form.append("alt", fields.alt);
  if (fields.place !== undefined) form.append("place", fields.place);
  if (file) form.append("photo", new File([new Uint8Array(file.bytes)], file.name, { type: "image/jpeg" }));
  const encoded = new Response(form);
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  return send("/inbox/site/photos", {
    method: "POST",
    upload: { bytes, contentType: encoded.headers.get("content-type")! },
  });
}

const page = async () => decoded((await send("/inbox/site/photos")).text);
const revisionIn = (html: string) => Number(/name="revision" value="(\d+)"/.exec(html)?.[1]);
const idOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex").slice(0, 24);

/** The part of the page under a heading, up to the next heading of that level or higher. */
function placeSection(html: string, label: string): string {
  const start = html.indexOf(`<h3 class="font-semibold text-bone-50">${label}</h3>`);
  expect(start, label).toBeGreaterThan(-1);
  const next = html.slice(start + 10).search(/<h[23][ >]/);
  return next < 0 ? html.slice(start) : html.slice(start, start + 10 + next);
}
const unplacedSection = (html: string) => html.slice(html.indexOf(words.unplaced.heading));

/** A phone's photo: stored sideways with Orientation 6, the camera's make and model, and where it was taken. */
async function cameraJpeg(seed: number): Promise<Buffer> {
  const pixels = Buffer.alloc(640 * 480 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * seed + (i >> 7)) % 251;
  return sharp(pixels, { raw: { width: 640, height: 480, channels: 3 } })
    .jpeg({ quality: 85 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "PhoneCam", Model: "Workshop 12", DateTime: "2026:10:01 18:30:00" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "42/1 31/1 1200/100",
        GPSLongitudeRef: "W",
        GPSLongitude: "70/1 53/1 0/1",
      },
    })
    .toBuffer();
}

beforeAll(async () => {
  await ensureBuilt();
  databasePath = join(temp.dir(), "inbox.db");
  expect((await cli(["operator", "add", "ann@example.com"], `${password}\n`)).status).toBe(0);
  site = await startSite({ API_HOST: "", DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl });
  const login = await sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email: "ann@example.com", password, next: "/inbox/site/photos" },
  });
  expect(login.status).toBe(302);
  cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
}, 60_000);
afterAll(() => site?.stop());

describe("the Photos page", () => {
  it("is for operators only, linked from the Site page, with the upload form's labels and places", async () => {
    const visitor = await send("/inbox/site/photos", { cookie: "" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.location).toBe("/inbox/login?next=%2Finbox%2Fsite%2Fphotos");
    const refused = await send("/inbox/site/photos", { cookie: "", method: "POST", body: { intent: "captions" } });
    expect(refused.status).toBe(302);
    expect(decoded((await send("/inbox/site")).text)).toMatch(/<a [^>]*href="\/inbox\/site\/photos"[^>]*>Photos<\/a>/);
    const answer = await send("/inbox/site/photos");
    expect(answer.status).toBe(200);
    expect(answer.headers["cache-control"]).toMatch(/^no-store\b/);
    expect(answer.headers["x-robots-tag"]).toBe("noindex, nofollow");
    const html = decoded(answer.text);
    expect(html).toMatch(/<form [^>]*enctype="multipart\/form-data"/i);
    expect(html).toContain('<label for="upload-photo" class="block font-medium text-bone-100">Photo</label>');
    expect(html).toMatch(/<input id="upload-photo" name="photo" type="file"/);
    expect(html).toContain('<label for="upload-alt" class="block font-medium text-bone-100">Alt text</label>');
    expect(html).toContain('<label for="upload-place" class="block font-medium text-bone-100">Place</label>');
    const choice = /<select id="upload-place"[^>]*>([\s\S]*?)<\/select>/.exec(html)![1]!;
    expect([...choice.matchAll(/<option [^>]*>([^<]*)<\/option>/g)].map((m) => m[1])).toEqual([
      "Carousel slide 1",
      "Carousel slide 2",
      "Carousel slide 3",
      "About photo",
      "Not shown yet",
    ]);
    expect(html).toMatch(/<button type="submit"[^>]*>Upload<\/button>/);
    // The spec's captions by default, and nothing placed: nothing encoding, no refresh.
    for (const [index, caption] of defaultSiteContent.photos.captions.entries())
      expect(html).toMatch(new RegExp(`id="caption-${index}"[^>]*value="${caption.replace(/[.?*+()]/g, "\\$&")}"`));
    expect(html).not.toContain('http-equiv="refresh"');
  });

  it("uploads a camera JPEG with GPS into Carousel slide 1 as a draft: listed waiting for its encoding", async () => {
    const photo = await cameraJpeg(3);
    expect((await exifr.gps(photo))?.latitude).toBeCloseTo(42.52, 1);
    const answer = await upload(
      { alt: "A werewolf in the barn", place: "slide-1" },
      { bytes: photo, name: "IMG_2041.JPG" },
    );
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe("/inbox/site/photos?done=uploaded");
    const html = decoded((await send(answer.headers.location!)).text);
    expect(html).toContain(words.done.uploaded);
    const slide = placeSection(html, "Carousel slide 1");
    expect(slide).toContain('value="A werewolf in the barn"');
    expect(slide).toContain(`name="upload" value="${idOf(photo)}"`);
    // Upright: the phone's sideways 640 x 480 is a 480 x 640 photo.
    expect(slide).toContain("IMG_2041.JPG, uploaded");
    expect(slide).toContain("480 × 640");
    expect(slide).toMatch(/Waiting to be encoded…|Encoding \d+ of \d+ files…|Ready for the web\./);
    // Until it is encoded the page refreshes itself without JavaScript.
    const refresh =
      /<noscript><meta http-equiv="refresh" content="\d+; url=\/inbox\/site\/photos\?watch"\/?><\/noscript>/;
    expect(html).toMatch(refresh);
    expect(decoded((await send("/inbox/site/photos?watch")).text)).toMatch(refresh);
    // Opened to edit, it never reloads under the owner's typing (with JavaScript it asks for its data instead).
    expect(await page()).not.toContain('http-equiv="refresh"');
    // The public site is unchanged until Publish on the Site page, which lists the change.
    const site = decoded((await send("/inbox/site")).text);
    expect(site).toContain("Carousel slide 1 photo:");
    expect(site).toContain(`photo ${idOf(photo).slice(0, 6)} “A werewolf in the barn”`);
  });

  it("keeps the same photo twice as one upload, and one uploaded as Not shown yet with its alt text", async () => {
    const photo = await smallJpeg(800, 600, 41);
    for (const alt of ["The workbench at night", "The workbench again"]) {
      const answer = await upload({ alt, place: "none" }, { bytes: photo, name: "bench.jpg" });
      expect(answer.status).toBe(303);
    }
    const unplaced = unplacedSection(await page());
    expect(unplaced.split(`name="upload" value="${idOf(photo)}"`)).toHaveLength(2);
    expect(unplaced).toContain('value="The workbench at night"');
    expect(unplaced).toContain("bench.jpg, uploaded");
  });

  it.each<[string, () => Promise<{ bytes: Uint8Array; name: string } | undefined>, string, number]>([
    [
      "a decompression bomb (a PNG declaring 100000 x 100000)",
      async () => ({ bytes: hugePngHeader(100_000, 100_000), name: "photo.png" }),
      words.errors.tooManyPixels(photoLimits.maxPixels / 1_000_000),
      400,
    ],
    [
      "a JPEG cut short",
      async () => ({ bytes: await truncatedJpeg(0.5), name: "photo.jpg" }),
      words.errors.unreadable,
      400,
    ],
    [
      "an iPhone's HEIC photo (its ftyp box says heic), named and explained",
      async () => {
        const bytes = Buffer.alloc(4096);
        bytes.writeUInt32BE(24, 0);
        bytes.write("ftypheic", 4, "latin1");
        bytes.write("mif1heic", 16, "latin1");
        return { bytes, name: "IMG_0001.HEIC" };
      },
      words.errors.heic,
      400,
    ],
    [
      "an SVG named photo.jpg",
      async () => ({
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        name: "photo.jpg",
      }),
      words.errors.notImage,
      400,
    ],
    [
      "HTML named photo.jpg",
      async () => ({
        bytes: Buffer.from("<!doctype html><html><body onload=alert(1)>hi</body></html>"),
        name: "photo.jpg",
      }),
      words.errors.notImage,
      400,
    ],
    [
      "26 MB of JPEG-looking bytes",
      async () => {
        const bytes = Buffer.alloc(26 * 1024 * 1024, 0x55);
        (await smallJpeg()).copy(bytes);
        return { bytes, name: "huge.jpg" };
      },
      words.errors.tooLarge(photoLimits.maxBytes),
      413,
    ],
    ["an empty file", async () => ({ bytes: new Uint8Array(), name: "photo.jpg" }), words.errors.empty, 400],
    ["no file at all", async () => undefined, words.errors.noFile, 400],
  ])(
    "refuses %s with a plain message tied to the Photo field, keeping the alt text and place",
    async (_, file, message, status) => {
      const before = await page();
      const answer = await upload({ alt: "Kept as typed", place: "slide-2" }, await file());
      expect(answer.status).toBe(status);
      const html = decoded(answer.text);
      const alert = /<div[^>]*role="alert"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? "";
      expect(alert).toContain(message);
      expect(html).toContain(
        `<p id="upload-photo-error" class="mt-1 text-sm font-semibold text-red-300">${message}</p>`,
      );
      expect(html).toMatch(/<input id="upload-photo"[^>]*aria-describedby="upload-photo-hint upload-photo-error"/);
      expect(html).toMatch(/<input id="upload-photo"[^>]*aria-invalid="true"/);
      expect(html).toMatch(/<input id="upload-alt"[^>]*value="Kept as typed"/);
      expect(html).toMatch(/<option value="slide-2" selected="">Carousel slide 2<\/option>/);
      // Nothing stored, nothing placed.
      const after = await page();
      expect(placeSection(after, "Carousel slide 2")).toContain(words.placed.empty);
      expect(unplacedSection(after).match(/name="upload"/g)?.length).toBe(
        unplacedSection(before).match(/name="upload"/g)?.length,
      );
    },
    60_000,
  );

  it("says what HEIC is and how an iPhone sends a JPEG instead", () => {
    expect(words.errors.heic).toMatch(/\bHEIC\b/);
    expect(words.errors.heic).toContain("iPhone");
    expect(words.errors.heic).toContain("Settings → Camera → Formats → “Most Compatible”");
    expect(words.errors.heic).toMatch(/share it or export it as JPEG/);
  });

  it("refuses an upload without alt text or with HTML in it, and a place not in the list, keeping the photo unsaved", async () => {
    const photo = await smallJpeg(400, 300, 77);
    for (const [alt, place, expected] of [
      ["", "slide-3", "Please fill this in."],
      ["A <b>bold</b> prop", "slide-3", "Text only"],
      ["Fine words", "roof", words.errors.badPlace],
    ] as const) {
      const answer = await upload({ alt, place }, { bytes: photo, name: "prop.jpg" });
      expect(answer.status, alt).toBe(400);
      const html = decoded(answer.text);
      expect(/<div[^>]*role="alert"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1], alt).toContain(expected);
      expect(html, alt).toContain(`value="${alt}"`);
    }
    expect(await page()).not.toContain(`value="${idOf(photo)}"`);
  });

  it("answers a form past the cap with 413 with a plain message", async () => {
    const answer = await send("/inbox/site/photos", {
      method: "POST",
      body: { intent: "captions", revision: "0", caption0: "x".repeat(70 * 1024) },
    });
    expect(answer.status).toBe(413);
    expect(decoded(answer.text)).toMatch(/role="alert"[^>]*>Refused: [^<]*64 KiB/);
  });
});

describe("the draft's photos", () => {
  it("moves a photo to another place (swapping), edits its alt text and focus, takes it off; a stale form is refused", async () => {
    const first = await cameraJpeg(5);
    const second = await smallJpeg(900, 600, 99);
    expect((await upload({ alt: "First", place: "slide-3" }, { bytes: first, name: "first.jpg" })).status).toBe(303);
    expect((await upload({ alt: "Second", place: "about" }, { bytes: second, name: "second.jpg" })).status).toBe(303);
    let html = await page();
    const revision = revisionIn(html);

    const moved = await send("/inbox/site/photos", {
      method: "POST",
      body: {
        intent: "save",
        revision: String(revision),
        from: "slide-3",
        upload: idOf(first),
        alt: "First, now on the About page",
        focusX: "30",
        focusY: "70.5",
        to: "about",
      },
    });
    expect(moved.status).toBe(303);
    expect(moved.headers.location).toBe("/inbox/site/photos?done=saved");
    html = await page();
    const about = placeSection(html, "About photo");
    expect(about).toContain('value="First, now on the About page"');
    expect(about).toMatch(/id="photo-about-focusX"[^>]*value="30"/);
    expect(about).toMatch(/id="photo-about-focusY"[^>]*value="70.5"/);
    expect(placeSection(html, "Carousel slide 3")).toContain('value="Second"');

    // The same form again, from the revision before the move: refused with who and when, as typed.
    const stale = await send("/inbox/site/photos", {
      method: "POST",
      body: {
        intent: "save",
        revision: String(revision),
        from: "slide-3",
        upload: idOf(first),
        alt: "Stale words",
        focusX: "50",
        focusY: "50",
        to: "slide-3",
      },
    });
    expect(stale.status).toBe(409);
    const staleHtml = decoded(stale.text);
    expect(staleHtml).toMatch(
      /ann@example\.com saved the site at \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC, after you opened/,
    );
    expect(staleHtml).toContain('value="Stale words"');

    // Bad focus and alt: one message each, nothing saved.
    const bad = await send("/inbox/site/photos", {
      method: "POST",
      body: {
        intent: "save",
        revision: String(revisionIn(html)),
        from: "about",
        upload: idOf(first),
        alt: "",
        focusX: "150",
        focusY: "abc",
        to: "about",
      },
    });
    expect(bad.status).toBe(400);
    const badHtml = decoded(bad.text);
    expect(badHtml).toMatch(/<p id="photo-about-focusX-error"[^>]*>Please enter a number from 0 to 100\.<\/p>/);
    expect(badHtml).toMatch(/<p id="photo-about-focusY-error"[^>]*>Please enter a number from 0 to 100\.<\/p>/);
    expect(badHtml).toMatch(/<p id="photo-about-alt-error"[^>]*>Please fill this in\.<\/p>/);
    expect(badHtml).toMatch(/id="photo-about-focusX"[^>]*value="150"/);

    const removed = await send("/inbox/site/photos", {
      method: "POST",
      body: { intent: "remove", revision: String(revisionIn(html)), from: "about", upload: idOf(first) },
    });
    expect(removed.status).toBe(303);
    expect(removed.headers.location).toBe("/inbox/site/photos?done=removed");
    html = await page();
    expect(placeSection(html, "About photo")).toContain(words.placed.empty);
    // Its upload stays, not shown, with the alt text it was uploaded with.
    const unplaced = unplacedSection(html);
    expect(unplaced).toContain(`name="upload" value="${idOf(first)}"`);
    expect(unplaced).toContain('value="First"');
  });

  it("edits the three captions, refusing an empty one as typed", async () => {
    const revision = revisionIn(await page());
    const bad = await send("/inbox/site/photos", {
      method: "POST",
      body: { intent: "captions", revision: String(revision), caption0: "One", caption1: "", caption2: "Three" },
    });
    expect(bad.status).toBe(400);
    expect(decoded(bad.text)).toMatch(/<p id="caption-1-error"[^>]*>Please fill this in\.<\/p>/);
    expect(decoded(bad.text)).toMatch(/id="caption-0"[^>]*value="One"/);
    const saved = await send("/inbox/site/photos", {
      method: "POST",
      body: { intent: "captions", revision: String(revision), caption0: "One", caption1: "Two", caption2: "Three" },
    });
    expect(saved.status).toBe(303);
    const html = await page();
    expect(html).toMatch(/id="caption-1"[^>]*value="Two"/);
    expect(decoded((await send("/inbox/site")).text)).toContain("Slide 2 caption:");
  });

  it("refuses a hand-made post naming no photo, or an unknown action, with a plain message", async () => {
    const revision = String(revisionIn(await page()));
    const unknown = await send("/inbox/site/photos", {
      method: "POST",
      body: {
        intent: "save",
        revision,
        from: "slide-1",
        upload: "0".repeat(24),
        alt: "x",
        focusX: "1",
        focusY: "1",
        to: "slide-1",
      },
    });
    expect(unknown.status).toBe(400);
    expect(decoded(unknown.text)).toContain(words.errors.unknownPhoto);
    const action = await send("/inbox/site/photos", { method: "POST", body: { intent: "explode", revision } });
    expect(action.status).toBe(400);
    expect(decoded(action.text)).toContain(words.errors.unknownAction);
  });
});
