import { mkdirSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { siteEditorCopy } from "../../app/wording/site-editor";
import { workEditorCopy } from "../../app/wording/work-editor";
import { phoneClip, phoneClipSecrets } from "../support/fixture-clips";
import { cameraLikeJpeg } from "../support/ready-photos";
import { serveDuringFile } from "./file-server";
import { expect, seriousA11yViolations, test, waitForHydration, widths } from "./fixtures";
import { asClient, logIn, newOperator } from "./owner";
import { e2eServers } from "./servers";

/**
 * The owner's Work pages with JavaScript on and off, in a real browser: add a project, describe it, give it a photo
 * and a phone's clip (filmed with a location), watch the clip encode in the background, publish on the Site page, and
 * see it on the public Work pages with "Our work" in the navigation; the served clip carries none of the phone's
 * metadata. Publishing is one per database, so each project has its own server, and this file's tests run in order.
 */

test.describe.configure({ mode: "serial" });

const words = workEditorCopy;
const serverFor = (jsEnabled: boolean) => (jsEnabled ? e2eServers.workOwnerJs : e2eServers.workOwnerNoJs);
serveDuringFile(serverFor);
/** Screenshots of the pages for a person to look at, when asked for (WORK_SHOTS=/tmp/shots-work-owner). */
const shots = process.env.WORK_SHOTS;
const fixtureDir = join(import.meta.dirname, "../../test-results/work-owner-fixtures");

async function screenshots(page: Page, jsEnabled: boolean, what: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  for (const width of [widths.phone, widths.desktop]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: join(shots, `work-${what}-${width}-${jsEnabled ? "js" : "no-js"}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: widths.desktop, height: 900 });
}

/** Presses a button and waits until the page has settled (with JavaScript, the loaders' reload after a post). */
async function press(page: Page, name: string, within = page.locator("body")) {
  await within.getByRole("button", { name, exact: true }).click();
  await page.waitForLoadState("networkidle");
}

test("add a project with a photo and a phone's clip, watch it encode, publish it, and see it on the Work pages", async ({
  page,
  jsEnabled,
}) => {
  // A login, an ffmpeg encode in the background and a publish: generous on a busy machine.
  test.setTimeout(60_000);
  mkdirSync(fixtureDir, { recursive: true });
  const tag = jsEnabled ? "js" : "no-js";
  const photo = join(fixtureDir, `workshop-${tag}.jpg`);
  await writeFile(photo, await cameraLikeJpeg(5, 1200, 900));
  const clip = await phoneClip(fixtureDir, { seconds: 2, name: `IMG_0420-${tag}.MOV` });

  const server = serverFor(jsEnabled);
  const operator = newOperator(server);
  await asClient(page);
  await page.goto(`${server.url}/inbox/work`);
  if (jsEnabled) await waitForHydration(page);
  await logIn(page, operator);
  await expect(page).toHaveURL(`${server.url}/inbox/work`);
  if (jsEnabled) await waitForHydration(page);
  await expect(page.getByRole("link", { name: words.nav, exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText(words.list.empty)).toBeVisible();

  // Nothing typed is thrown away: a title of spaces is refused in words beside the field, the service kept.
  const add = page.getByRole("region", { name: words.add.heading });
  await add.getByLabel(words.add.title).fill("   ");
  await add.getByLabel(words.add.service).selectOption("Custom pneumatic animatronics");
  await press(page, words.add.submit, add);
  await expect(add.getByText("Please fill this in.").first()).toBeVisible();
  await expect(add.getByLabel(words.add.service)).toHaveValue("Custom pneumatic animatronics");
  await add.getByLabel(words.add.title).fill("Reaper with pneumatic lunge");
  await press(page, words.add.submit, add);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Project: Reaper with pneumatic lunge");
  await expect(page.getByText(words.done.added)).toBeVisible();

  const details = page.getByRole("region", { name: words.project.details });
  await details.getByLabel(words.project.year).fill("2025");
  await details.getByLabel(words.project.client).fill("Nightmare Manor, Ohio");
  await details.getByLabel(words.project.story).fill("A seven-foot reaper.\n\nIt lunges four feet in a blink.");
  await details.getByLabel(words.project.featured).check();
  await press(page, words.project.save, details);
  await expect(page.getByText(words.done.saved)).toBeVisible();
  await expect(details.getByLabel(words.project.client)).toHaveValue("Nightmare Manor, Ohio");

  const photoForm = page.getByRole("form", { name: words.photos.uploadForm });
  await photoForm.getByLabel(words.photos.alt).fill("The reaper mid-lunge in a dark corridor");
  await photoForm.getByLabel(words.photos.photo).setInputFiles(photo);
  await press(page, words.photos.upload, photoForm);
  await expect(page.getByText(words.done.uploaded)).toBeVisible();
  await expect(page.getByText("Photo 1 (Cover)")).toBeVisible();

  const videoForm = page.getByRole("form", { name: words.videos.uploadForm });
  await videoForm.getByLabel(words.videos.video).setInputFiles(clip);
  await press(page, words.videos.upload, videoForm);
  await expect(page.getByText(words.done.videoUploaded)).toBeVisible();
  // With JavaScript the page asks again every 2 s; without, it reloads itself after the upload (?done=).
  await expect(page.locator('[data-clip-state="ready"]')).toHaveText(/^Ready: 2 s, \d+ × 720\.$/, { timeout: 45_000 });
  await screenshots(page, jsEnabled, "project");
  expect(await seriousA11yViolations(page)).toEqual([]);

  // Publish on the Site page, which lists the project's changes first.
  await page.goto(`${server.url}/inbox/site`);
  if (jsEnabled) await waitForHydration(page);
  await expect(page.getByText("Project “Reaper with pneumatic lunge”: added")).toBeVisible();
  await press(page, siteEditorCopy.buttons.publish);
  await expect(page.getByRole("status")).toHaveText(/^Published version \d+/);

  await page.goto(`${server.url}/inbox/work`);
  await screenshots(page, jsEnabled, "list");

  // The public Work pages (on this server's next poll, within a second or two).
  await expect
    .poll(async () => (await page.request.get(`${server.url}/work/reaper-with-pneumatic-lunge`)).status(), {
      timeout: 15_000,
    })
    .toBe(200);
  await page.goto(`${server.url}/work/reaper-with-pneumatic-lunge`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reaper with pneumatic lunge");
  await expect(page.getByText("Nightmare Manor, Ohio")).toBeVisible();
  const video = page.locator("video");
  await expect(video).toHaveAttribute("preload", "none");
  const source = await video.locator("source").getAttribute("src");
  const served = Buffer.from(await (await page.request.get(`${server.url}${source}`)).body());
  for (const secret of Object.values(phoneClipSecrets)) expect(served.includes(secret), secret).toBe(false);
  expect(served.length).toBeLessThan((await readFile(clip)).length * 4);
});
