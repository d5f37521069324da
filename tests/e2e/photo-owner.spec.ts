import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import exifr from "exifr";
import sharp from "sharp";
import { photosEditorCopy } from "../../app/wording/photos-editor";
import { siteEditorCopy } from "../../app/wording/site-editor";
import { serveDuringFile } from "./file-server";
import { expect, seriousA11yViolations, test, waitForHydration, widths } from "./fixtures";
import { asClient, logIn, newOperator } from "./owner";
import { e2eServers } from "./servers";

/**
 * The owner's Photos page with JavaScript on and off: upload a phone's JPEG (GPS in its EXIF) into Carousel slide 1
 * with its alt text, see it listed with its progress, Publish on the Site page; a file that is not a photo refused in
 * words with what was typed kept; remove the photo and restore the version that had it from History. Publishing is
 * one per database, so each project has its own server, started for this file (tests/e2e/file-server.ts), and this
 * file's tests run in order on it. The published photo on the public home page waits for the background encoder.
 */

test.describe.configure({ mode: "serial" });

const words = photosEditorCopy;
const serverFor = (jsEnabled: boolean) => (jsEnabled ? e2eServers.photosOwnerJs : e2eServers.photosOwnerNoJs);
serveDuringFile(serverFor);
/** Screenshots of the page for a person to look at, when asked for (PHOTO_SHOTS=/tmp/shots-25). */
const shots = process.env.PHOTO_SHOTS;

const fixtureDir = join(import.meta.dirname, "../../test-results/photo-owner-fixtures");

/** A phone's photo, made here: sideways with Orientation 6, the camera's name and where it was taken. */
async function cameraJpeg(name: string, seed: number): Promise<string> {
  mkdirSync(fixtureDir, { recursive: true });
  const file = join(fixtureDir, name);
  const pixels = Buffer.alloc(1200 * 900 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = ((i % 3600) * seed + Math.floor(i / 3600) * 7) % 251;
  await sharp(pixels, { raw: { width: 1200, height: 900, channels: 3 } })
    .jpeg({ quality: 85 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "PhoneCam", Model: "Workshop 12" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "42/1 31/1 1200/100",
        GPSLongitudeRef: "W",
        GPSLongitude: "70/1 53/1 0/1",
      },
    })
    .toFile(file);
  expect((await exifr.gps(file))?.latitude).toBeCloseTo(42.52, 1);
  return file;
}

async function openPhotos(page: Page, jsEnabled: boolean) {
  const server = serverFor(jsEnabled);
  const operator = newOperator(server);
  await asClient(page);
  await page.goto(`${server.url}/inbox/site`);
  // The login page is a new document: typing while React hydrates it is React's error #345.
  if (jsEnabled) await waitForHydration(page);
  await logIn(page, operator);
  await expect(page).toHaveURL(`${server.url}/inbox/site`);
  await page.getByRole("link", { name: words.link, exact: true }).click();
  await expect(page).toHaveURL(`${server.url}/inbox/site/photos`);
  if (jsEnabled) await waitForHydration(page);
  return server;
}

const uploadForm = (page: Page) => page.getByRole("region", { name: words.upload.heading });
const place = (page: Page, label: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3, name: label, exact: true }) });

async function screenshots(page: Page, jsEnabled: boolean, what: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  for (const width of [widths.phone, widths.desktop]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: join(shots, `photos-${what}-${width}-${jsEnabled ? "js" : "no-js"}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: widths.desktop, height: 800 });
}

/** From the Photos page to the Site page, which lists the draft's `change`, and Publish. */
async function publish(page: Page, jsEnabled: boolean, change: RegExp): Promise<number> {
  await page.getByRole("link", { name: words.back }).click();
  if (jsEnabled) await waitForHydration(page);
  await expect(page.getByText(change)).toBeVisible();
  await page.getByRole("button", { name: siteEditorCopy.buttons.publish, exact: true }).click();
  const status = page.getByRole("status");
  await expect(status).toHaveText(/^Published version \d+: visitors see it now/);
  return Number(/version (\d+)/.exec((await status.textContent())!)![1]);
}

/** The public home page's HTML, once it shows `alt` (encoding runs in the background: up to a minute here). */
async function homeShowing(server: { url: string }, alt: string): Promise<string> {
  let html = "";
  await expect
    .poll(
      async () => {
        html = await (await fetch(`${server.url}/`, { signal: AbortSignal.timeout(10_000) })).text();
        return html.includes(`alt="${alt}"`);
      },
      { timeout: 30_000, intervals: [500] },
    )
    .toBe(true);
  return html;
}

test("upload a phone's JPEG into Carousel slide 1, see its progress, publish it", async ({ page, jsEnabled }) => {
  test.setTimeout(60_000);
  const server = await openPhotos(page, jsEnabled);
  const alt = `A werewolf in the barn ${randomUUID().slice(0, 8)}`;
  const file = await cameraJpeg(`werewolf-${jsEnabled ? "js" : "no-js"}.jpg`, jsEnabled ? 3 : 5);
  expect(await seriousA11yViolations(page)).toEqual([]);

  await uploadForm(page).getByLabel(words.upload.alt, { exact: true }).fill(alt);
  await uploadForm(page).getByLabel(words.upload.place, { exact: true }).selectOption({ label: "Carousel slide 1" });
  await uploadForm(page).getByLabel(words.upload.photo, { exact: true }).setInputFiles(file);
  await uploadForm(page).getByRole("button", { name: words.upload.submit, exact: true }).click();
  await expect(page.getByRole("status")).toHaveText(words.done.uploaded);
  // Without JavaScript that page reloads itself while the photo encodes: the rest is checked on the page opened anew.
  if (!jsEnabled) await page.goto(`${server.url}/inbox/site/photos`);

  const slide = place(page, "Carousel slide 1");
  await expect(slide.getByLabel(words.edit.alt, { exact: true })).toHaveValue(alt);
  await expect(slide).toContainText(/Waiting to be encoded…|Encoding \d+ of \d+ files…|Ready for the web\./);
  await expect(slide).toContainText("900 × 1200");
  // The upload form starts empty again.
  await expect(uploadForm(page).getByLabel(words.upload.alt, { exact: true })).toHaveValue("");
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshots(page, jsEnabled, "placed");

  await publish(page, jsEnabled, /^Carousel slide 1 photo:.*→ photo /);

  // Once the background encoder has made its files: the photo on the public carousel with its alt text, every
  // variant served without the phone's metadata.
  const home = await homeShowing(server, alt);
  await page.goto(`${server.url}/`);
  await expect(page.getByRole("img", { name: alt })).toBeVisible();
  const files = [...new Set([...home.matchAll(/\/photos\/[A-Za-z0-9._-]+/g)].map((m) => m[0]))];
  expect(files.length).toBeGreaterThan(3);
  for (const path of files) {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status, path).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.includes("PhoneCam"), path).toBe(false);
    expect(await exifr.gps(bytes).catch(() => undefined), path).toBeUndefined();
  }
});

test("a file that is not a photo is refused with a plain message, keeping the alt text and place", async ({
  page,
  jsEnabled,
}) => {
  await openPhotos(page, jsEnabled);
  await uploadForm(page).getByLabel(words.upload.alt, { exact: true }).fill("Kept as typed");
  await uploadForm(page).getByLabel(words.upload.place, { exact: true }).selectOption({ label: "About photo" });
  await uploadForm(page)
    .getByLabel(words.upload.photo, { exact: true })
    .setInputFiles({
      name: "photo.jpg",
      mimeType: "image/jpeg",
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    });
  await uploadForm(page).getByRole("button", { name: words.upload.submit, exact: true }).click();
  await expect(page.getByRole("alert")).toContainText(words.errors.notImage);
  const photo = uploadForm(page).getByLabel(words.upload.photo, { exact: true });
  await expect(photo).toHaveAccessibleDescription(new RegExp(words.errors.notImage.slice(0, 40)));
  await expect(photo).toHaveAttribute("aria-invalid", "true");
  await expect(uploadForm(page).getByLabel(words.upload.alt, { exact: true })).toHaveValue("Kept as typed");
  await expect(uploadForm(page).getByLabel(words.upload.place, { exact: true })).toHaveValue("about");
  // While slide 1 encodes the page asks for its data every 2 s (with JavaScript), but never while a refusal is shown:
  // past that interval the reasons and what was typed are still there.
  await page.waitForTimeout(2500);
  await expect(page.getByRole("alert")).toContainText(words.errors.notImage);
  await expect(uploadForm(page).getByLabel(words.upload.alt, { exact: true })).toHaveValue("Kept as typed");
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshots(page, jsEnabled, "error");
});

test("remove the photo (the drawn art comes back), then restore the version that had it", async ({
  page,
  jsEnabled,
}) => {
  test.setTimeout(60_000);
  const server = await openPhotos(page, jsEnabled);
  const slide = place(page, "Carousel slide 1");
  const alt = await slide.getByLabel(words.edit.alt, { exact: true }).inputValue();
  await slide.getByRole("button", { name: `Carousel slide 1: ${words.edit.remove}` }).click();
  await expect(page.getByRole("status")).toHaveText(words.done.removed);
  await expect(place(page, "Carousel slide 1")).toContainText(words.placed.empty);
  // Its upload stays, listed as not shown.
  await expect(page.getByRole("region", { name: words.unplaced.heading })).toContainText(words.edit.save);
  const removedIn = await publish(page, jsEnabled, /^Carousel slide 1 photo:.*→ \(drawn art\)$/);
  const home = await (await fetch(`${server.url}/`)).text();
  expect(home).not.toContain(`alt="${alt}"`);

  await page.getByRole("link", { name: siteEditorCopy.historyLink }).click();
  if (jsEnabled) await waitForHydration(page);
  const newest = page.getByRole("article").first();
  await expect(newest).toContainText(`Carousel slide 1 photo:`);
  await expect(newest).toContainText("(drawn art)");
  const older = removedIn - 1;
  await page.getByRole("button", { name: siteEditorCopy.history.restoreLabel(older) }).click();
  await expect(page.getByRole("status")).toContainText(`Version ${older} restored as version`);

  await page.goto(`${server.url}/inbox/site/photos`);
  if (jsEnabled) await waitForHydration(page);
  await expect(place(page, "Carousel slide 1").getByLabel(words.edit.alt, { exact: true })).toHaveValue(alt);
  await homeShowing(server, alt);
});
