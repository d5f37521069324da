import { mkdirSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { buildPageCopy } from "../../app/wording/build-page";
import { cameraJpeg } from "../support/fixture-photos.mjs";
import { expect, test, widths } from "./fixtures";
import { asClient, openOwnEnquiry } from "./owner";
import { ownerDatabase } from "./servers";

/**
 * The customer's build page in Chromium with JavaScript off: the owner shares it from the enquiry page (at Deposit
 * paid, set in the database: the stage form is another part's) and posts an update with a phone photo; the customer
 * opens the link, sees the stages and the photo once encoded, and answers; the answer is in the enquiry's timeline.
 * Screenshots at 390 and 1280 px go to BUILD_SHOTS (default /tmp/shots-build) for a person to look at.
 */

const words = buildPageCopy;
const shots = process.env.BUILD_SHOTS ?? "/tmp/shots-build";

function inDatabase<T>(work: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(ownerDatabase, { timeout: 5_000 });
  try {
    return work(db);
  } finally {
    db.close();
  }
}

test("a customer sees their build page and answers, without JavaScript", async ({ page, open, jsEnabled, browser }) => {
  test.skip(jsEnabled, "the build page is sent without scripts: the page with JavaScript off is the one that matters");
  test.setTimeout(60_000);
  const { id } = await openOwnEnquiry(page, open);
  inDatabase((db) =>
    db
      .prepare("UPDATE enquiries SET stage = 'deposit', stage_at = ?, service = 'Animatronic skeleton' WHERE id = ?")
      .run(Date.now(), id),
  );

  await open(page.url());
  await page.getByRole("button", { name: words.owner.share }).click();
  await expect(page.getByText(words.owner.done.shared!)).toBeVisible();
  const link = await page.getByLabel(words.owner.linkLabel).inputValue();
  expect(link).toMatch(/\/build\/[0-9a-f]{64}$/);

  await page.getByLabel(words.owner.updateText).fill("The skeleton has its arms. Glowing eyes next!");
  await page
    .getByLabel(words.owner.updatePhotos(6))
    .setInputFiles({ name: "IMG_2041.jpg", mimeType: "image/jpeg", buffer: await cameraJpeg() });
  await page.getByRole("button", { name: words.owner.post }).click();
  await expect(page.getByText(words.owner.done.posted!)).toBeVisible();
  mkdirSync(shots, { recursive: true });
  for (const width of [widths.phone, widths.desktop]) {
    await page.setViewportSize({ width, height: 900 });
    await page.locator("#build-page").screenshot({ path: join(shots, `owner-section-${width}.png`) });
  }

  // The customer: another browser, another address, JavaScript off.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const customer = await context.newPage();
  await asClient(customer);
  await expect
    .poll(
      async () => {
        await customer.goto(link);
        return customer.locator("[data-photo-preparing]").count();
      },
      { message: "the update's photo is encoded", timeout: 45_000, intervals: [500, 1000] },
    )
    .toBe(0);
  await expect(customer.getByRole("heading", { level: 1, name: "Animatronic skeleton" })).toBeVisible();
  await expect(customer.getByText(words.stageNames.deposit)).toBeVisible();
  await expect(customer.locator("[data-stage-ahead]")).toHaveText([/Building/, /Delivered/]);
  await expect(customer.getByText("The skeleton has its arms. Glowing eyes next!")).toBeVisible();
  const photo = customer.getByRole("img", { name: words.page.photoAlt(1, 1) });
  await expect(photo).toBeVisible();
  await photo.scrollIntoViewIfNeeded();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(await customer.locator("script").count()).toBe(0);

  for (const width of [widths.phone, widths.desktop]) {
    await customer.setViewportSize({ width, height: 900 });
    // The lazy photo is loaded for the shot, then the page is shot from its top (the header is sticky).
    await photo.scrollIntoViewIfNeeded();
    await customer.evaluate(() => window.scrollTo(0, 0));
    await customer.screenshot({ path: join(shots, `build-page-${width}.png`), fullPage: true });
    const fits = await customer.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(fits, `the page fits ${width} px`).toBe(true);
  }

  await customer.getByLabel(words.page.answerLabel).fill("Love it! Can the eyes glow green?");
  await customer.getByRole("button", { name: words.page.send }).click();
  await expect(customer.getByRole("status")).toHaveText(words.page.sent);
  await context.close();

  const line = inDatabase((db) =>
    db.prepare("SELECT actor, body FROM enquiry_events WHERE enquiry_id = ? AND kind = 'customer'").get(id),
  );
  expect(line).toEqual({ actor: "customer", body: "Love it! Can the eyes glow green?" });
});
