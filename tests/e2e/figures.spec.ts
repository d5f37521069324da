import type { Page } from "@playwright/test";
import { figuresCopy } from "../../app/wording/figures";
import { expect, test, widths } from "./fixtures";
import { asClient, logIn, newOperator, owner } from "./owner";

/**
 * The Figures page in Chromium, with JavaScript on and off: reached from the owner area's navigation, its chart is SVG
 * with two bars per month, and at a phone's 390 px and a desktop's 1280 px nothing widens the page (the tables scroll
 * sideways inside their own region). The numbers themselves: tests/integration/figures.test.ts.
 */

async function fitsAt(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
  const sizes = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    window: window.innerWidth,
  }));
  expect(sizes.scroll, `page width at ${width} px`).toBeLessThanOrEqual(sizes.window);
}

test("the Figures page: from the navigation, a chart of SVG bars, fits a phone and a desktop", async ({
  page,
  open,
}, testInfo) => {
  const operator = newOperator();
  await asClient(page);
  await open(`${owner.url}/inbox/login?next=${encodeURIComponent("/inbox")}`);
  await logIn(page, operator);
  await expect(page).toHaveURL(/\/inbox$/);

  await page.getByRole("navigation", { name: "Inbox" }).getByRole("link", { name: figuresCopy.nav }).click();
  await expect(page.getByRole("heading", { level: 1, name: figuresCopy.title })).toBeVisible();
  const thisYear = new Date().getUTCFullYear();
  await expect(page.getByRole("img", { name: figuresCopy.chart.title(thisYear) })).toBeVisible();
  await expect(page.locator('svg[data-chart="months"] rect[data-bar="enquiries"]')).toHaveCount(12);
  await expect(page.locator('svg[data-chart="months"] rect[data-bar="won"]')).toHaveCount(12);
  await expect(page.getByRole("link", { name: figuresCopy.download })).toHaveAttribute(
    "href",
    `/inbox/figures.csv?year=${thisYear}`,
  );
  for (const width of [widths.desktop, widths.phone]) {
    await fitsAt(page, width);
    await page.screenshot({ path: testInfo.outputPath(`figures-${width}.png`), fullPage: true });
  }
  // At 390 px the month table scrolls inside its region, its first column staying in view.
  const region = page.getByRole("region", { name: figuresCopy.byMonth });
  expect(await region.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  await region.evaluate((element) => element.scrollBy(600, 0));
  await expect(region.getByRole("rowheader", { name: figuresCopy.months[0] })).toBeInViewport();
});
