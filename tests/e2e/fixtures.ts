import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

export { expect };

/** Documents answered with an error status on purpose (404, a refused enquiry) log this; it is not a fault. */
const expectedNoise = /Failed to load resource: the server responded with a status of [45]\d\d/;

interface Fixtures {
  /** Console errors and uncaught page errors. Every test ends by asserting there were none (CSP violations too). */
  consoleErrors: string[];
  /** Opens a path; with JavaScript on, waits until React has hydrated so clicks are handled by the app. */
  open: (path: string) => Promise<void>;
  jsEnabled: boolean;
}

export const test = base.extend<Fixtures>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && !expectedNoise.test(message.text())) errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use(errors);
      expect(errors, "console errors or CSP violations on the page").toEqual([]);
    },
    { auto: true },
  ],
  jsEnabled: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },
  open: async ({ page, jsEnabled }, use) => {
    await use(async (path: string) => {
      await page.goto(path);
      if (jsEnabled) await waitForHydration(page);
    });
  },
});

export async function waitForHydration(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * Runs axe with the WCAG A/AA rules and returns the serious and critical violations. axe needs scripts and timers
 * in the page, so for a page without JavaScript it checks a faithful copy: the page's current DOM, scripts removed,
 * loaded at the same URL and size in a script-capable page.
 */
export async function seriousA11yViolations(page: Page) {
  const javaScript = await Promise.race([
    page.evaluate(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 0))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 500)),
  ]);
  const target = javaScript ? page : await scriptlessCopy(page);
  try {
    return await seriousViolations(target);
  } finally {
    if (target !== page) await target.context().close();
  }
}

async function scriptlessCopy(page: Page): Promise<Page> {
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  const context = await page.context().browser()!.newContext({ viewport: page.viewportSize(), javaScriptEnabled: true });
  const copy = await context.newPage();
  await copy.route("**/*", async (route) => {
    const type = route.request().resourceType();
    if (type === "document") return route.fulfill({ body: html, contentType: "text/html; charset=utf-8" });
    if (type === "script") return route.abort();
    return route.continue();
  });
  await copy.goto(page.url());
  return copy;
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`);
}

export const widths = { phone: 390, desktop: 1280 } as const;
