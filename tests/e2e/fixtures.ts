import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page, type Request } from "@playwright/test";

export { expect };

/**
 * The browser logs every answer with an error status, and every failed connection, like this, without the URL.
 * Documents answered so on purpose (404, a refused enquiry) are not faults; a subresource that fails is, and the
 * network guard below (watchFailedRequests) reports it with its URL, so the console's line is left to it.
 */
const expectedNoise =
  /Failed to load resource: (the server responded with a status of [45]\d\d|net::ERR_(?!ABORTED\b))/;

interface Fixtures {
  /** Console errors and uncaught page errors. Every test ends by asserting there were none (CSP violations too). */
  consoleErrors: string[];
  /** Subresources that failed to load (see watchFailedRequests). Every test ends by asserting there were none. */
  failedRequests: string[];
  /** Opens a path; with JavaScript on, waits until React has hydrated so clicks are handled by the app. */
  open: (path: string) => Promise<void>;
  jsEnabled: boolean;
}

/**
 * Collects every request of the page that failed: answered 4xx/5xx or not answered at all (an image or a script
 * chunk that 404s, a stylesheet the browser drops, a connection that fails). Two answers with an error status are
 * the site working, not failing, and the tests check what the page shows for them: the main document itself (the
 * 404 page, a refused enquiry without JavaScript) and an action's data answer (a refused enquiry with JavaScript).
 * A request that was answered is judged by its status alone: the browser reports ERR_ABORTED when a reader stops
 * early (the framework reads a data answer's redirect and cancels the rest). Unanswered, ERR_ABORTED is a fault for
 * what the browser loads to show the page (Chromium drops a stylesheet served as an HTML 404 page that way), unless
 * the page has navigated on since; for the page's own fetches and the browser's prefetches it is a cancellation
 * (the framework aborts a navigation's data request when another starts; a hover prefetch is dropped).
 */
export function watchFailedRequests(page: Page): string[] {
  const failed: string[] = [];
  const describe = (request: Request, what: string) =>
    `${what}: ${request.method()} ${request.url()} (${request.resourceType()})`;
  const answered = new WeakSet<Request>();
  const cancellable = new Set(["fetch", "xhr", "other"]);
  const navigationAtStart = new WeakMap<Request, number>();
  let navigations = 0;
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) navigations++;
  });
  page.on("request", (request) => navigationAtStart.set(request, navigations));
  page.on("response", (response) => {
    const request = response.request();
    answered.add(request);
    if (response.status() < 400) return;
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) return;
    if (request.method() === "POST" && new URL(request.url()).pathname.endsWith(".data")) return;
    failed.push(describe(request, String(response.status())));
  });
  page.on("requestfailed", (request) => {
    if (answered.has(request)) return;
    const reason = request.failure()?.errorText ?? "failed";
    if (reason === "net::ERR_ABORTED") {
      if (cancellable.has(request.resourceType()) || navigationAtStart.get(request) !== navigations) return;
    }
    failed.push(describe(request, reason));
  });
  return failed;
}

/**
 * For a test that makes the page fail on purpose: waits until `list` (consoleErrors or failedRequests) has an entry
 * matching `pattern`, then drops the matching entries so the end-of-test guard checks only what was not expected.
 */
export async function expectAndForget(list: string[], pattern: RegExp) {
  await expect
    .poll(() => list.filter((entry) => pattern.test(entry)), { message: `an entry matching ${pattern}` })
    .not.toEqual([]);
  for (let i = list.length - 1; i >= 0; i--) if (pattern.test(list[i]!)) list.splice(i, 1);
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
  failedRequests: [
    async ({ page }, use) => {
      const failed = watchFailedRequests(page);
      await use(failed);
      expect(failed, "subresources that failed to load").toEqual([]);
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
  const context = await page
    .context()
    .browser()!
    .newContext({ viewport: page.viewportSize(), javaScriptEnabled: true });
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
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    );
}

export const widths = { phone: 390, desktop: 1280 } as const;
