import { createHash } from "node:crypto";
import { carousel, carouselArt } from "../../app/wording";
import { expect, test } from "./fixtures";

/** The hash-based CSP checked by the browser, and hydration that never waits forever for the page to load. */

const cspRefusal = /Content Security Policy/;

// Chromium reports a refused inline script as "Executing inline script violates the following Content Security
// Policy directive '…'. Either the 'unsafe-inline' keyword, a hash ('sha256-…'), or a nonce … The action has been blocked."

test("the browser runs the page's own inline scripts and refuses one whose text was changed", async ({
  page,
  jsEnabled,
  consoleErrors,
}) => {
  test.skip(!jsEnabled, "about scripts");
  // The page as served, headers and CSP included, with the scroll restoration script's text changed on the way.
  const original = "((STORAGE_KEY, restoreKey) => {";
  let tamperedHash = "";
  let policy = "";
  await page.route("/about", async (route) => {
    const response = await route.fetch();
    const html = await response.text();
    const changed = html.replace(original, `window.__tampered = true;${original}`);
    const script = /<script>(window\.__tampered[\s\S]*?)<\/script>/.exec(changed)?.[1] ?? "";
    tamperedHash = `'sha256-${createHash("sha256").update(script).digest("base64")}'`;
    policy = response.headers()["content-security-policy"] ?? "";
    await route.fulfill({ response, body: changed });
  });
  await page.goto("/about");
  expect(policy).toMatch(/script-src 'self' 'sha256-/);
  expect(policy).not.toContain(tamperedHash);
  // The other inline scripts are untouched, so the page still hydrates.
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  expect(await page.evaluate(() => "__tampered" in window)).toBe(false);
  // Chromium names the hash the changed script would have needed.
  const refusals = consoleErrors.filter((text) => cspRefusal.test(text));
  expect(refusals).toHaveLength(1);
  expect(refusals[0]).toMatch(/inline script violates .*script-src 'self' 'sha256-.*blocked/);
  expect(refusals[0]).toContain(`a hash (${tamperedHash})`);
  // That refusal is this test's own; anything else still fails it.
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((text) => !cspRefusal.test(text)));
});

test("hydrates about 3 s after DOMContentLoaded when an image stalls and the page never finishes loading", async ({
  page,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "about hydration");
  // The first carousel image never arrives, so the window's load event never comes.
  await page.route(carouselArt[0].src, () => new Promise<void>(() => {}));
  await page.goto("/", { waitUntil: "domcontentloaded" });
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 10_000 });
  const timing = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    return {
      readyState: document.readyState,
      sinceDomContentLoaded: performance.now() - navigation!.domContentLoadedEventEnd,
    };
  });
  expect(timing.readyState).not.toBe("complete");
  expect(timing.sinceDomContentLoaded).toBeGreaterThanOrEqual(2_900);
  // Interactive: the scripted carousel controls are in.
  await expect(page.getByRole("button", { name: carousel.stopRotation })).toBeVisible();
});
