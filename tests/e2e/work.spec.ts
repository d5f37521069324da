import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { projectPage, workLink, workPage } from "../../app/wording";
import { parseDatabaseUrl } from "../../app/config.server";
import { placementKey, posterKey } from "../../app/site-content/photo-renditions.server";
import { publishContent } from "../../app/site-content/publish.server";
import { defaultSiteContent, type PhotoPlacement, type SiteContent } from "../../app/site-content/schema.server";
import { openInboxStore } from "../../app/store/store.server";
import { saveTestUpload } from "../support/ready-photos";
import { serveDuringFile } from "./file-server";
import { expect, seriousA11yViolations, test, widths } from "./fixtures";
import { e2eDataDir, e2ePortBase } from "./servers";
import { compileCacheEnv } from "../support/compile-cache.mjs";

/**
 * The Work pages in a real browser, JavaScript on and off, at a phone's and a desktop's width: three projects
 * published on a server of this file's own (one per project, E2E_PORT_BASE + 31 and + 32), their photos made from the
 * carousel's drawn art and encoded by the server, one with a clip whose poster is ready. Screenshots go to
 * /tmp/shots-work/ for a person to look at.
 */

const shots = "/tmp/shots-work";
/** Each project's server's files, in the run's data folder (tests/e2e/servers.ts), removed with it. */
const dataFor = (jsEnabled: boolean) => join(e2eDataDir, jsEnabled ? "work-js" : "work-no-js");
const serverFor = (jsEnabled: boolean) => {
  const port = e2ePortBase + (jsEnabled ? 31 : 32);
  const url = `http://127.0.0.1:${port}`;
  const data = dataFor(jsEnabled);
  const database = join(data, "work.db");
  return {
    port,
    url,
    data,
    database,
    env: {
      TMPDIR: join(data, "tmp"),
      ...compileCacheEnv,
      API_HOST: "",
      DATABASE_URL: `file:${database}`,
      INBOX_FILE: `${database}.jsonl`,
      PUBLIC_URL: url,
      RATE_LIMIT_SITE_PER_MINUTE: "0",
      RATE_LIMIT_CLIENT_PER_HOUR: "0",
      RATE_LIMIT_LOGIN_PER_MINUTE: "0",
    },
  };
};

test.describe.configure({ mode: "serial" });
serveDuringFile(serverFor);

/**
 * The carousel's art as a 4:3 photo: something to look at in the screenshots. 1200 px wide covers every width these
 * pages ask for (up to 1080), and leaves out the 1600-px encodes, half the encoder's time before the first test.
 */
const art = (name: string, seed: number) =>
  sharp(join(import.meta.dirname, `../../public/images/carousel/${name}.svg`), { density: 200 })
    .resize(1200, 900, { fit: "cover", position: seed % 2 ? "left" : "right" })
    .modulate({ brightness: 1 + seed * 0.05 })
    .jpeg({ quality: 85 })
    .toBuffer();

const [, pneumatic, electronics, scenic] = defaultSiteContent.services.map((service) => service.name);

async function publishWork(databaseUrl: string, data: string): Promise<void> {
  const store = await openInboxStore(parseDatabaseUrl(databaseUrl)!, { timeoutMs: 10_000 });
  try {
    const upload = async (name: string, seed: number) => saveTestUpload(store, await art(name, seed), `${name}.jpg`);
    const placed = (upload: string, alt: string): PhotoPlacement => ({ upload, alt, focus: { x: 0.5, y: 0.5 } });
    const reaper = [
      placed(await upload("large-custom-prop", 1), "The crypt reaper towering over the graveyard set"),
      placed(await upload("pneumatic-prop-lighting", 2), "The reaper's pneumatic rig under test lights"),
    ];
    const wall = placed(await upload("small-pneumatic-prop", 3), "A crumbling asylum wall with a pop-up prop");
    const organ = placed(await upload("pneumatic-prop-lighting", 4), "The organ's relay board glowing in the dark");
    // A clip as the video encoder leaves one (its bytes are not a real video: the page never loads them unasked).
    const poster = await saveTestUpload(
      store,
      await sharp(join(import.meta.dirname, "../../public/images/carousel/large-custom-prop.svg"))
        .resize(1280, 720)
        .jpeg()
        .toBuffer(),
      "poster.jpg",
    );
    const original = join(data, "reaper.mov");
    const bytes = randomBytes(4096);
    writeFileSync(original, bytes);
    const clip = createHash("sha256").update(bytes).digest("hex").slice(0, 24);
    await store.saveVideoUpload(
      {
        id: clip,
        fileName: "reaper.mov",
        contentType: "video/quicktime",
        durationMs: 42_000,
        width: 1920,
        height: 1080,
        uploadedBy: "test@grimforge.example",
      },
      original,
    );
    const claim = await store.claimVideo(60_000);
    if (!claim) throw new Error("the clip could not be claimed");
    writeFileSync(join(data, "clip.mp4"), randomBytes(2048));
    await store.finishVideo(claim, {
      clipPath: join(data, "clip.mp4"),
      clipName: `${clip}.mp4`,
      width: 1280,
      height: 720,
      durationMs: 42_400,
      posterUpload: poster,
    });
    await store.requestRendition(posterKey(poster), poster, "poster", { x: 0.5, y: 0.5 });
    const content: SiteContent = {
      ...defaultSiteContent,
      projects: [
        {
          id: "0000000000a1",
          slug: "asylum-wall",
          formerSlugs: [],
          title: "Asylum wall",
          service: scenic!,
          year: 2024,
          client: "Ravenwood Scream Park",
          story: "Padded cells in crumbling plaster, built in sections that bolt together in an afternoon.",
          photos: [wall],
          videos: [],
          featured: false,
        },
        {
          id: "0000000000a2",
          slug: "crypt-reaper",
          formerSlugs: [],
          title: "Crypt reaper",
          service: pneumatic!,
          year: 2025,
          client: "Nightmare Manor, Salem",
          story:
            "A seven-foot reaper that lunges from its crypt the moment a guest leans in to read the headstone.\n\n" +
            "It runs on 80 psi through a single valve, timed by a relay board, and has survived two seasons of crowds, fog and rain.",
          photos: reaper,
          videos: [{ video: clip }],
          featured: true,
        },
        {
          id: "0000000000a3",
          slug: "haunted-organ-controller",
          formerSlugs: [],
          title: "Haunted organ controller",
          service: electronics!,
          year: 2023,
          client: "",
          story: "A program board that plays the organ, flickers the candles and drops the lights on cue.",
          photos: [organ],
          videos: [],
          featured: false,
        },
      ],
    };
    const draft = await store.siteDraft();
    const result = await publishContent(store, content, draft.revision, "test@grimforge.example");
    if (!result.ok) throw new Error(`publish refused: ${result.reason}`);
    // Encoded by the server's own encoder (its files' names are the ones /photos serves), within a minute or so.
    const keys = [
      ...[...reaper, wall, organ].map((photo) => placementKey({ shape: "work", photo })),
      posterKey(poster),
    ];
    await expect
      .poll(async () => (await store.renditions(keys)).map((rendition) => rendition.state), { timeout: 150_000 })
      .toEqual(keys.map(() => "ready"));
  } finally {
    await store.close();
  }
}

// Playwright reads the fixtures from the first parameter: this hook needs none.
// eslint-disable-next-line no-empty-pattern
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(240_000);
  mkdirSync(shots, { recursive: true });
  const server = serverFor(testInfo.project.use.javaScriptEnabled !== false);
  await publishWork(server.env.DATABASE_URL, server.data);
  // The server's poll picks up the publish and the encoded photos within a second or two.
  await expect
    .poll(
      async () => {
        const response = await fetch(`${server.url}/work`);
        return response.status === 200 ? ((await response.text()).match(/<picture>/g) ?? []).length : 0;
      },
      { timeout: 20_000 },
    )
    .toBe(3);
});

const cards = (page: Page) => page.locator("[data-work-cards] > li");

async function loadedImages(page: Page) {
  // Lazy photos below the fold load as they come into view: each brought into view before the full-page screenshot
  // (by the browser, not a script: the page may have JavaScript off).
  for (const img of await page.locator("picture img").all()) await img.scrollIntoViewIfNeeded();
  await page.locator("h1").scrollIntoViewIfNeeded();
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLImageElement>("picture img")].every(
          (img) => img.complete && img.naturalWidth > 0,
        ),
      ),
    )
    .toBe(true);
}

for (const [name, width] of [
  ["phone", widths.phone],
  ["desktop", widths.desktop],
] as const) {
  test(`${name} (${width} px): /work's cards and filters, a service's page, a project's page`, async ({
    page,
    open,
    jsEnabled,
  }, testInfo) => {
    const { url } = serverFor(jsEnabled);
    const suffix = `${width}-${testInfo.project.name}`;
    await page.setViewportSize({ width, height: 900 });
    // Reached from a page that has the scripts, the running app renders /work; opened directly (below), it is plain
    // HTML without them (ADR 0042).
    if (jsEnabled) {
      await open(`${url}/`);
      await page.getByRole("contentinfo").getByRole("link", { name: workLink.label }).click();
      await expect(page).toHaveURL(`${url}/work`);
    } else await open(`${url}/work`);

    await expect(page.getByRole("heading", { level: 1 })).toHaveText(workPage.heading);
    await expect(cards(page)).toHaveCount(3);
    await expect(cards(page).getByRole("heading", { level: 2 })).toHaveText([
      "Crypt reaper",
      "Asylum wall",
      "Haunted organ controller",
    ]);
    await expect(cards(page).first()).toContainText(pneumatic!);
    await expect(cards(page).first()).toContainText("2025");
    // Each card's cover keeps the 4:3 box.
    const box = (await cards(page).first().locator("picture img").boundingBox())!;
    expect(box.width / box.height).toBeCloseTo(4 / 3, 1);

    // "Our work" in the navigation: the desktop bar, or the phone's menu once opened.
    if (width >= 992) {
      await expect(page.getByRole("banner").getByRole("link", { name: workLink.label })).toBeVisible();
    } else {
      await page.locator("[data-nav-toggle]").click();
      await expect(page.locator("#mobile-nav").getByRole("link", { name: workLink.label })).toBeVisible();
      await page.locator("[data-nav-toggle]").click();
    }
    await expect(page.getByRole("contentinfo").getByRole("link", { name: workLink.label })).toBeVisible();

    await loadedImages(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${shots}/work-${suffix}.png`, fullPage: true });

    // A service's filter link: its own address, its projects only.
    const filters = page.getByRole("navigation", { name: workPage.filtersLabel });
    await filters.getByRole("link", { name: scenic }).click();
    await expect(page).toHaveURL(`${url}/work/scenic-design-and-building`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(scenic!);
    await expect(cards(page)).toHaveCount(1);
    await expect(filters.getByRole("link", { name: scenic })).toHaveAttribute("aria-current", "page");
    await filters.getByRole("link", { name: workPage.all }).click();
    await expect(page).toHaveURL(`${url}/work`);
    await expect(cards(page)).toHaveCount(3);
    // Its photos arrive before the next click: leaving a page cancels what it still loads (not a fault of the page).
    await loadedImages(page);

    // A project's page from its card.
    await cards(page).first().getByRole("link", { name: "Crypt reaper" }).click();
    await expect(page).toHaveURL(`${url}/work/crypt-reaper`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Crypt reaper");
    await expect(page.locator("[data-project-story] p")).toHaveCount(2);
    await expect(page.getByRole("link", { name: pneumatic })).toHaveAttribute(
      "href",
      "/work/custom-pneumatic-animatronics",
    );
    await expect(page.getByRole("link", { name: projectPage.askLink })).toHaveAttribute(
      "href",
      "/contact?about=crypt-reaper",
    );
    await expect(page.locator("article picture img").first()).toHaveAttribute("fetchpriority", "high");
    await expect(page.locator("article picture img")).toHaveCount(2);
    // The clip: never playing by itself, its poster shown, its size reserved.
    const video = page.locator("article video");
    await expect(video).toHaveAttribute("preload", "none");
    await expect(video).toHaveAttribute("poster", /^\/photos\/.+\.webp$/);
    await expect(video).not.toHaveAttribute("autoplay");
    expect(await video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(true);
    await loadedImages(page);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: `${shots}/project-${suffix}.png`, fullPage: true });

    // Opened directly: no script of the app's, and its links are ordinary page loads.
    await page.goto(`${url}/work/crypt-reaper`);
    expect(await page.locator("script:not([type='application/ld+json'])").count()).toBe(0);
    await loadedImages(page);
    await page.getByRole("link", { name: projectPage.backLink }).click();
    await expect(page).toHaveURL(`${url}/work`);
    await expect(cards(page)).toHaveCount(3);
  });
}
