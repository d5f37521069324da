import { pipelineCopy } from "../../app/wording/pipeline";
import { expect, seriousA11yViolations, test, widths } from "./fixtures";
import { owner, openOwnEnquiry } from "./owner";

/** PIPELINE_SHOTS=DIR saves the enquiry page and the Pipeline page at 390 and 1280 px there (looked at by a person). */
const shotsDir = process.env.PIPELINE_SHOTS;

/**
 * The commission pipeline in Chromium, with JavaScript on and off: an enquiry quoted from its page, the refusal that
 * keeps what was typed, a note, the timeline, and the Pipeline page, on a phone and a desktop.
 */

test("an enquiry is quoted, noted and found on the Pipeline page", async ({ page, open, jsEnabled }) => {
  test.setTimeout(60_000);
  const { token, id } = await openOwnEnquiry(page, open);
  const name = `Vlad ${token}`;
  if (jsEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await expect(page.getByText(pipelineCopy.waitingBadge)).toBeVisible();

  // Quoted without an amount: refused in words, the date typed kept.
  await page.getByRole("combobox", { name: pipelineCopy.form.stage, exact: true }).selectOption("quoted");
  await page.getByLabel(/^Needed by/).fill("2027-09-30");
  await page.getByRole("button", { name: pipelineCopy.form.save }).click();
  await expect(page.getByText(pipelineCopy.form.errors.quoteRequired).first()).toBeVisible();
  await expect(page.getByLabel(/^Needed by/)).toHaveValue("2027-09-30");

  await page.getByLabel(pipelineCopy.form.quoteAmount).fill("1,250");
  await page.getByRole("button", { name: pipelineCopy.form.save }).click();
  await expect(page.getByRole("status")).toHaveText("Stage saved.");
  const timeline = page.locator('section[aria-labelledby="timeline"]');
  await expect(timeline).toContainText("Stage New → Quoted (quote $1,250.00, needed by 2027-09-30)");
  await expect(page.getByText(pipelineCopy.waitingBadge)).toHaveCount(0);

  await page.getByLabel(pipelineCopy.note.heading).fill(`Wants a fog chiller too ${token}`);
  await page.getByRole("button", { name: pipelineCopy.note.submit }).click();
  await expect(timeline).toContainText(`Wants a fog chiller too ${token}`);
  expect(await seriousA11yViolations(page)).toEqual([]);

  await page.getByRole("link", { name: pipelineCopy.nav }).click();
  await expect(page.getByRole("heading", { level: 1, name: pipelineCopy.pipeline.title })).toBeVisible();
  const quoted = page.locator('section[aria-labelledby="stage-quoted"]');
  await expect(quoted.getByRole("link", { name })).toHaveAttribute("href", `/inbox/${id}`);
  expect(await seriousA11yViolations(page)).toEqual([]);
  for (const width of [widths.phone, widths.desktop]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ["/inbox/pipeline", `/inbox/${id}`]) {
      await open(`${owner.url}${path}`);
      const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, window: innerWidth }));
      expect(sizes.scroll, `${path} at ${width} px`).toBeLessThanOrEqual(sizes.window);
      if (shotsDir && jsEnabled)
        await page.screenshot({
          path: `${shotsDir}/${path === "/inbox/pipeline" ? "pipeline" : "enquiry"}-${width}.png`,
          fullPage: true,
        });
    }
  }
});
