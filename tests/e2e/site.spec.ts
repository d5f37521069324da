import {
  aboutMeta,
  brand,
  breakpoints,
  carousel,
  carouselArt,
  contactMeta,
  homeMeta,
  homePage,
  navigation,
  notFoundPage,
} from "../../app/wording";
import { builtPhotos } from "../../app/site-content/public-photos.server";
import { publicSite } from "../../app/site-content/public-site";
import { defaultSiteContent } from "../../app/site-content/schema.server";
import { expect, seriousA11yViolations, test, widths } from "./fixtures";
import type { CDPSession, Page } from "@playwright/test";

// A new site says the spec's words: the content's defaults, with orders open (no close date).
const site = publicSite(defaultSiteContent, new Date(), "UTC", builtPhotos(defaultSiteContent));
const routes = [
  { path: "/", meta: homeMeta(site) },
  { path: "/about", meta: aboutMeta(site) },
  { path: "/contact", meta: contactMeta(site) },
] as const;

test.describe("every page", () => {
  for (const { path, meta } of routes) {
    test(`${path} is rendered on the server with its head tags`, async ({ page, open }) => {
      const response = await page.request.get(path);
      expect(response.status()).toBe(200);
      const html = await response.text();
      // Server-rendered: the heading is in the HTML before any script runs.
      expect(html).toContain(`<h1`);
      expect(html).toContain('lang="en"');

      await open(path);
      await expect(page).toHaveTitle(meta.title);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", meta.description);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", meta.title);
      await expect(page.locator('meta[property="og:description"]')).toHaveAttribute("content", meta.description);
      await expect(page.locator('meta[property="og:type"]')).toHaveAttribute("content", "website");
      await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", brand.themeColor);
      await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");
      await expect(page.locator("h1")).toHaveCount(1);
    });
  }

  for (const { path } of routes) {
    test(`${path} downloads its scripts only after the page has loaded, and none without JavaScript`, async ({
      page,
      open,
      jsEnabled,
    }) => {
      const scripts: string[] = [];
      page.on("request", (request) => {
        if (/\/build\/.*\.js$/.test(new URL(request.url()).pathname)) scripts.push(request.url());
      });
      await open(path);
      if (!jsEnabled) {
        await page.waitForLoadState("load");
        await page.waitForTimeout(300);
        expect(scripts).toEqual([]);
        return;
      }
      const timing = await page.evaluate(() => {
        const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
        return {
          loadEnd: navigation!.loadEventEnd,
          scriptStarts: performance
            .getEntriesByType("resource")
            .filter((entry) => /\/build\/.*\.js$/.test(new URL(entry.name).pathname))
            .map((entry) => entry.startTime),
        };
      });
      expect(timing.scriptStarts.length).toBeGreaterThan(1);
      for (const start of timing.scriptStarts) expect(start).toBeGreaterThanOrEqual(timing.loadEnd);
    });
  }

  test("hydrates even where no animation frame comes, as in a background tab", async ({ page, jsEnabled }) => {
    test.skip(!jsEnabled, "about hydration");
    // Browsers pause requestAnimationFrame in background tabs; the scripts then start half a second after load.
    await page.addInitScript(() => {
      window.requestAnimationFrame = () => 0;
    });
    await page.goto("/about");
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 10_000 });
  });

  test("the favicon and logo are SVG files that load", async ({ page }) => {
    for (const file of ["/favicon.svg", brand.logo.src]) {
      const response = await page.request.get(file);
      expect(response.status()).toBe(200);
      expect(response.headers()["content-type"]).toContain("image/svg+xml");
    }
  });

  test("robots.txt and sitemap.xml list the site", async ({ page, baseURL }) => {
    const robots = await page.request.get("/robots.txt");
    expect(robots.status()).toBe(200);
    expect(await robots.text()).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
    const sitemap = await page.request.get("/sitemap.xml");
    expect(sitemap.status()).toBe(200);
    const xml = await sitemap.text();
    for (const item of navigation) expect(xml).toContain(`<loc>${baseURL}${item.to}</loc>`);
    expect(xml).toContain(`<loc>${baseURL}/privacy</loc>`);
  });

  test("the health route answers 200", async ({ page }) => {
    const response = await page.request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.text()).toBe("ok\n");
  });
});

test.describe("home", () => {
  test("shows the welcome, season notice, services, closing note and order link", async ({ page, open }) => {
    await open("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(homePage.heading(brand.name));
    await expect(page.locator("[data-season-notice]")).toHaveText("Orders are open for the 2025 haunt season.");
    const items = page.locator("[data-services] h3");
    await expect(items).toHaveText(defaultSiteContent.services.map((service) => service.name));
    await expect(page.getByText(defaultSiteContent.home.ordersNote)).toBeVisible();

    const order = page.getByRole("link", { name: /order now/i });
    await expect(order).toHaveAttribute("href", "/contact");
    await order.click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contact Us");
  });

  test("renders the three carousel slides on the server, first one showing", async ({ page, open }) => {
    const html = await (await page.request.get("/")).text();
    let last = -1;
    for (const slide of carouselArt) {
      const at = html.indexOf(slide.caption);
      expect(at, `caption "${slide.caption}" in server HTML, in order`).toBeGreaterThan(last);
      last = at;
    }
    await open("/");
    const first = page.getByRole("img", { name: carouselArt[0].alt });
    await expect(first).toBeVisible();
    await expect(first).toHaveAttribute("loading", "eager");
    await expect(first).toHaveAttribute("fetchpriority", "high");
    await expect(first).toHaveAttribute("width", String(carousel.imageWidth));
    await expect(first).toHaveAttribute("height", String(carousel.imageHeight));
    await expect(page.getByText(carouselArt[0].caption, { exact: true })).toBeVisible();
    // As served, the other slides load lazily (the carousel may fetch them once the page has loaded).
    for (const slide of carouselArt.slice(1)) {
      const tag = html.match(new RegExp(`<img[^>]*src="${slide.src}"[^>]*>`))?.[0];
      expect(tag, `server-rendered <img> for ${slide.src}`).toContain('loading="lazy"');
    }
  });
});

test("about says the makers have over 15 years of haunt experience", async ({ page, open }) => {
  await open("/about");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About Us");
  await expect(page.locator("main")).toContainText("over 15 years of haunt experience");
});

test.describe("unknown paths", () => {
  test("answer 404 inside the site layout with a way home", async ({ page, open }) => {
    const response = await page.request.get("/no/such/page");
    expect(response.status()).toBe(404);

    await open("/no/such/page");
    await expect(page).toHaveTitle(notFoundPage.title(brand.name));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(notFoundPage.heading);
    await expect(page.getByText(notFoundPage.message)).toBeVisible();
    await expect(page.locator("header[data-site-header]")).toBeVisible();
    await expect(page.locator("[data-copyright]")).toBeVisible();
    await page.getByRole("link", { name: notFoundPage.homeLink }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(homePage.heading(brand.name));
  });
});

test.describe("navigation bar", () => {
  test("logo and brand link home; links mark the current page", async ({ page, open }) => {
    await open("/about");
    const header = page.locator("header[data-site-header]");
    const brandLink = header.getByRole("link", { name: brand.name });
    await expect(brandLink).toHaveAttribute("href", "/");
    await expect(brandLink.locator('img[src="/logo.svg"]')).toBeVisible();

    const nav = header.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link")).toHaveText(navigation.map((item) => item.label));
    for (const item of navigation) {
      await nav.getByRole("link", { name: item.label }).click();
      await expect(page).toHaveURL(new RegExp(`${item.to}$`));
      await expect(nav.getByRole("link", { name: item.label })).toHaveAttribute("aria-current", "page");
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
    }
    await brandLink.click();
    await expect(page).toHaveURL(/\/$/);
  });

  test(`collapses behind a toggle below ${breakpoints.lg}px and the toggle reaches every page`, async ({
    page,
    open,
  }) => {
    await page.setViewportSize({ width: breakpoints.lg - 1, height: 800 });
    await open("/");
    const toggle = page.locator("[data-nav-toggle]");
    const mobileNav = page.locator("#mobile-nav");
    // A native disclosure with or without JavaScript: browsers expose its open state as the toggle's expanded state.
    const disclosure = page.locator("details:has([data-nav-toggle])");
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveText("Menu");
    await expect(page.locator("header nav:not(#mobile-nav)")).toBeHidden();
    await expect(mobileNav).toBeHidden();
    await expect(disclosure).toHaveJSProperty("open", false);

    for (const item of navigation) {
      await toggle.click();
      await expect(mobileNav).toBeVisible();
      await expect(disclosure).toHaveJSProperty("open", true);
      await mobileNav.getByRole("link", { name: item.label }).click();
      await expect(page).toHaveURL(new RegExp(`${item.to}$`));
      await expect(mobileNav).toBeHidden(); // closes after choosing a page
    }

    // Toggling twice closes it again.
    await toggle.click();
    await expect(mobileNav).toBeVisible();
    await toggle.click();
    await expect(mobileNav).toBeHidden();
  });

  test("Escape closes the phone menu and returns focus to its toggle", async ({ page, open, jsEnabled }) => {
    test.skip(!jsEnabled, "a native disclosure has no Escape key; the script adds it");
    await page.setViewportSize({ width: breakpoints.lg - 1, height: 800 });
    await open("/about");
    const toggle = page.locator("[data-nav-toggle]");
    const mobileNav = page.locator("#mobile-nav");
    await toggle.click();
    await mobileNav.getByRole("link", { name: navigation[0].label }).focus();
    await page.keyboard.press("Escape");
    await expect(mobileNav).toBeHidden();
    await expect(toggle).toBeFocused();
  });

  test("a phone menu opened before the scripts have started stays open when they arrive", async ({
    page,
    jsEnabled,
  }) => {
    test.skip(!jsEnabled, "about hydration");
    await page.setViewportSize({ width: breakpoints.lg - 1, height: 800 });
    // Hold the page's first script until the menu is open, so hydration happens with the menu open.
    let releaseScripts!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
    await page.route(/\/build\/entry\.client-[\w-]+\.js$/, async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    await page.goto("/");
    const toggle = page.locator("[data-nav-toggle]");
    await toggle.click();
    await expect(page.locator("#mobile-nav")).toBeVisible();
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    releaseScripts();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(page.locator("#mobile-nav")).toBeVisible();
    await expect(toggle).toBeFocused();
  });

  test(`shows the links and no toggle at ${breakpoints.lg}px`, async ({ page, open }) => {
    await page.setViewportSize({ width: breakpoints.lg, height: 800 });
    await open("/");
    await expect(page.locator("[data-nav-toggle]")).toBeHidden();
    const nav = page.locator("header nav:not(#mobile-nav)");
    await expect(nav).toBeVisible();
    for (const item of navigation) await expect(nav.getByRole("link", { name: item.label })).toBeVisible();
  });

  test("stays at the top of the viewport after scrolling", async ({ page, open }) => {
    await page.setViewportSize({ width: widths.phone, height: 700 });
    await open("/about");
    await page.mouse.wheel(0, 2000);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    const box = await page.locator("header[data-site-header]").boundingBox();
    expect(box?.y).toBe(0);
    await expect(page.locator("header[data-site-header]").getByRole("link", { name: brand.name })).toBeInViewport();
  });
});

type Box = { x: number; y: number; width: number; height: number };
type LayoutShift = { value: number; moved: { node: string; from: Box; to: Box }[] };

/**
 * Loads `/` `loads` times with the CPU six times slower and returns every layout shift CDP reported meanwhile (CDP
 * reports them with JavaScript off too), each with what moved and from where to where, so a failure says which part.
 */
async function layoutShiftsOverLoads(page: Page, cdp: CDPSession, loads: number): Promise<LayoutShift[]> {
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  await cdp.send("PerformanceTimeline.enable", { eventTypes: ["layout-shift"] });
  const shifts: Promise<LayoutShift>[] = [];
  cdp.on("PerformanceTimeline.timelineEventAdded", ({ event }) => {
    const details = event.layoutShiftDetails;
    const moved = (details?.sources ?? []).map(async ({ nodeId, previousRect, currentRect }) => {
      const node = await cdp
        .send("DOM.describeNode", { backendNodeId: nodeId })
        .then(({ node }) => `${node.localName}${node.attributes?.length ? `[${node.attributes.join(" ")}]` : ""}`)
        .catch(() => "a node since gone");
      return { node, from: previousRect, to: currentRect };
    });
    shifts.push(Promise.all(moved).then((moved) => ({ value: details?.value ?? 0, moved })));
  });
  for (let load = 0; load < loads; load++) {
    await page.goto("/", { waitUntil: "load" });
    await page.locator("[data-copyright]").waitFor();
  }
  return Promise.all(shifts);
}

test("on a phone nothing shifts while the page's text settles, even on a slow CPU", async ({ page }) => {
  // Under load the first paint can come before text has its width; the header and the season notice used to move
  // then (measured: 7 of 20 loads at 6x CPU). Layout shifts are read from CDP, which works with JavaScript off too.
  // Eight loads at 6x CPU take most of the default 30 s on a busy machine (CI timed out once at load average 15).
  test.setTimeout(60_000);
  await page.setViewportSize({ width: widths.phone, height: 900 });
  const cdp = await page.context().newCDPSession(page);
  expect(await layoutShiftsOverLoads(page, cdp, 8)).toEqual([]);
});

/** A connection's first round trip brings about 14 KB (TCP's initial window of ten segments, RFC 6928). */
const FIRST_ROUND_TRIP_BYTES = 14_000;

test("at desktop width nothing painted moves while a slow browser gets the page in pieces", async ({
  page,
  request,
  jsEnabled,
}) => {
  // With the styles cached, a busy browser paints whatever part of the page it has parsed; the hero's text used to sit
  // centred beside the carousel and moved down once the carousel came (seen on a busy CI: 1 of 18 loads like these).
  // The page's parts arrive the same way with JavaScript off: once is enough.
  test.skip(!jsEnabled, "the same HTML, with hydration on top");
  test.setTimeout(60_000);
  // The throttle below cuts the page anywhere, even inside the header, whose right-aligned links then grow leftwards
  // (seen on CI: 0.0013). A real connection brings the whole header in its first round trip, so the header is held to
  // that here and the shifts below are counted in the page under it.
  const html = Buffer.from(await (await request.get("/")).text());
  expect(html.indexOf("</header>")).toBeGreaterThan(0);
  expect(html.indexOf("</header>")).toBeLessThan(FIRST_ROUND_TRIP_BYTES);
  await page.setViewportSize({ width: widths.desktop, height: 900 });
  await page.goto("/", { waitUntil: "load" });
  const header = await page.locator("header[data-site-header]").boundingBox();
  const cdp = await page.context().newCDPSession(page);
  // About 2 KB a second and a CPU six times slower: the page comes and is parsed in several pieces.
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: 2_000,
    uploadThroughput: 100_000,
  });
  const inHeader = (box: Box) => box.y + box.height <= (header?.y ?? 0) + (header?.height ?? 0);
  const shifts = await layoutShiftsOverLoads(page, cdp, 6);
  const onlyInHeader = ({ moved }: LayoutShift) =>
    moved.length > 0 && moved.every(({ from, to }) => inHeader(from) && inHeader(to));
  expect(shifts.filter((shift) => !onlyInHeader(shift))).toEqual([]);
});

test("the footer shows the current year and the brand", async ({ page, open }) => {
  await open("/");
  const year = new Date().getFullYear();
  await expect(page.locator("[data-copyright]")).toHaveText(`© ${year} ${brand.name}. All rights reserved.`);
});

test.describe("accessibility", () => {
  for (const path of ["/", "/about", "/contact", "/privacy", "/missing-page"]) {
    for (const [label, width] of Object.entries(widths)) {
      test(`${path} at ${label} width has no serious or critical axe violations`, async ({ page, open }) => {
        await page.setViewportSize({ width, height: 900 });
        await open(path);
        expect(await seriousA11yViolations(page)).toEqual([]);
      });
    }
  }

  test("the open phone menu has no serious or critical axe violations", async ({ page, open }) => {
    await page.setViewportSize({ width: widths.phone, height: 900 });
    await open("/");
    await page.locator("[data-nav-toggle]").click();
    await expect(page.locator("#mobile-nav")).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
