import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { carousel } from "../../app/wording";
import { buildPhotoSite } from "../support/photo-site.mjs";
import { expect, test, waitForHydration, widths } from "./fixtures";
import { e2eDataDir, e2ePortBase } from "./servers";
import { compileCacheEnv } from "../support/compile-cache.mjs";

/**
 * The owner's photos in a real browser, JavaScript on and off: the site copy built with the three 12-megapixel fixture
 * photos (tests/support/photo-site.mjs), one server per worker on E2E_PORT_BASE + 40 and up.
 */

let server: ChildProcess | undefined;
let origin = "";
/** The worker's server's database and TMPDIR, in the run's data folder: removed once the server has stopped. */
let data: string | undefined;

// Playwright reads the fixtures from the first parameter: this hook needs none.
// eslint-disable-next-line no-empty-pattern
test.beforeAll(async ({}, testInfo) => {
  // Built by the run's setup (tests/e2e/setup.ts): here it is found ready.
  testInfo.setTimeout(60_000);
  const dir = await buildPhotoSite();
  const port = e2ePortBase + 40 + (testInfo.workerIndex % 20);
  origin = `http://127.0.0.1:${port}`;
  data = mkdtempSync(join(e2eDataDir, "photos-"));
  mkdirSync(join(data, "tmp"));
  server = spawn("node", ["build/server/index.js"], {
    cwd: dir,
    stdio: "ignore",
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: origin,
      API_HOST: "",
      DATABASE_URL: `file:${join(data, "enquiries.db")}`,
      TMPDIR: join(data, "tmp"),
      ...compileCacheEnv,
    },
  });
  await expect
    .poll(
      () =>
        fetch(`${origin}/healthz`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 30_000 },
    )
    .toBe(200);
});

test.afterAll(async () => {
  const running = server;
  if (running && running.exitCode === null && running.signalCode === null) {
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGTERM");
    // It closes its database on SIGTERM; one that hangs is killed rather than waited for.
    const timer = setTimeout(() => running.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  }
  if (data) rmSync(data, { recursive: true, force: true });
});

const slides = (page: Page) =>
  page.getByRole("region", { name: carousel.label }).locator('[aria-roledescription="slide"]');
const photoOf = (page: Page, index: number) => slides(page).nth(index).locator("picture img");
const loaded = (page: Page, index: number) =>
  photoOf(page, index).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

for (const [name, width, chosen] of [
  ["phone", widths.phone, 480],
  ["desktop", widths.desktop, 720],
] as const) {
  test(`${name} (${width} px): the first slide's photo is the AVIF of the width the layout needs, over its placeholder`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${origin}/`);
    const first = photoOf(page, 0);
    await expect(first).toHaveAttribute("fetchpriority", "high");
    await expect.poll(() => loaded(page, 0)).toBe(true);
    const src = await first.evaluate((img: HTMLImageElement) => img.currentSrc);
    expect(src).toMatch(new RegExp(`/photos/slide-1-${chosen}-[0-9a-f]{10}\\.avif$`));
    // The photo fills its 16:9 box, with the blurred placeholder beneath it.
    const box = (await first.boundingBox())!;
    expect(box.width / box.height).toBeCloseTo(16 / 9, 1);
    const placeholder = slides(page).first().locator("img[data-photo-placeholder]");
    await expect(placeholder).toHaveAttribute("src", /^data:image\/webp;base64,/);
    const under = (await placeholder.boundingBox())!;
    expect(under.width).toBeGreaterThanOrEqual(box.width);
    await page.screenshot({ path: testInfo.outputPath(`home-photos-${width}.png`) });
  });
}

test("the placeholder shows while a photo loads, and nothing moves when it arrives", async ({ page }) => {
  await page.setViewportSize({ width: widths.phone, height: 900 });
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/photos/slide-1-*", async (route) => {
    await held;
    await route.continue();
  });
  // Without scripts, DOMContentLoaded can come before the stylesheet: measure the styled page (the photo is held).
  const stylesheet = page.waitForResponse((response) => /\/build\/_assets\/.*\.css$/.test(response.url()));
  await page.goto(`${origin}/`, { waitUntil: "domcontentloaded" });
  await (await stylesheet).finished();
  // Polled on a timer: a page whose image is held need not draw the animation frames the default polling waits for.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].every((link) => link.sheet !== null),
    undefined,
    { polling: 100 },
  );
  const caption = slides(page).first().locator("figcaption");
  const before = (await caption.boundingBox())!;
  expect(await loaded(page, 0)).toBe(false);
  await expect(slides(page).first().locator("img[data-photo-placeholder]")).toBeVisible();
  release();
  await expect.poll(() => loaded(page, 0)).toBe(true);
  expect(await caption.boundingBox()).toEqual(before);
});

test("the About page shows its photo; Home carries the business as JSON-LD (no CSP report)", async ({ page }) => {
  await page.goto(`${origin}/about`);
  const about = page.locator("article picture img");
  await expect(about).toHaveAttribute("alt", "Fixture about photo: the workshop");
  await expect.poll(() => about.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await page.goto(`${origin}/`);
  const json = await page.locator('script[type="application/ld+json"]').textContent();
  expect(JSON.parse(json!)).toMatchObject({ "@type": "LocalBusiness", url: `${origin}/` });
});

test("with JavaScript, the next slide's photo is loaded after the page and shown by the carousel", async ({
  page,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "the controls need JavaScript; without it the first slide is the whole carousel");
  await page.goto(`${origin}/`);
  await waitForHydration(page);
  await page.getByRole("button", { name: carousel.stopRotation }).click();
  await page.getByRole("button", { name: carousel.next }).click();
  await expect(slides(page).nth(1)).toHaveCSS("opacity", "1");
  await expect.poll(() => loaded(page, 1)).toBe(true);
  expect(await photoOf(page, 1).evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/slide-2-\d+-\w+\.avif$/);
});
