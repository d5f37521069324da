import type { Locator, Page } from "@playwright/test";
import { carousel, carouselArt } from "../../app/wording";
import { expect, seriousA11yViolations, test, waitForHydration, widths } from "./fixtures";

/**
 * The home page carousel. Time is Playwright's fake clock, paused from the first byte: every timer and
 * animation frame runs only inside `page.clock.runFor`, so the tests need no sleeps and do not depend on the speed
 * of the machine.
 */

const total = carouselArt.length;
/** Long enough for a fade (about 300 ms) to finish, far shorter than the rotation interval. */
const fadeDone = carousel.transitionMs + 200;

const region = (page: Page) => page.getByRole("region", { name: carousel.label });
const slides = (page: Page) => region(page).locator('[aria-roledescription="slide"]');
const liveRegion = (page: Page) => region(page).locator("[aria-live]");
const button = (page: Page, name: string) => region(page).getByRole("button", { name, exact: true });

/** Opens / with the clock paused; resolves once Embla runs (with rotation, its timer starts in the same commit). */
async function openPaused(page: Page, { rotating = true } = {}) {
  await page.clock.install({ time: new Date("2025-10-01T20:00:00Z") });
  await page.clock.pauseAt(new Date("2025-10-01T20:00:01Z"));
  await page.goto("/");
  // The scripts start after the load event and one painted frame: that frame needs the paused clock to move.
  await page.clock.runFor(50);
  await waitForHydration(page);
  await expect(slides(page).first()).toHaveCSS("opacity", "1");
  await expect(liveRegion(page)).toHaveAttribute("aria-live", rotating ? "off" : "polite");
}

/** Asserts which slide shows: it alone is exposed, and (once its fade has run) it alone is opaque. */
async function expectSlide(page: Page, index: number) {
  for (let i = 0; i < total; i += 1) {
    const slide = slides(page).nth(i);
    if (i === index) {
      await expect(slide).not.toHaveAttribute("aria-hidden", "true");
      await expect(slide).not.toHaveAttribute("inert");
      await expect(slide).toHaveCSS("opacity", "1");
    } else {
      await expect(slide).toHaveAttribute("aria-hidden", "true");
      await expect(slide).toHaveAttribute("inert", "");
      await expect(slide).toHaveCSS("opacity", "0");
    }
  }
}

/** Both boxes the same, give or take Embla's whole-pixel measuring of a box that sits at a fractional x. */
async function expectSameBox(a: Locator, b: Locator) {
  const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()];
  if (!boxA || !boxB) throw new Error("a slide has no box");
  for (const key of ["x", "y", "width", "height"] as const)
    expect(Math.abs(boxA[key] - boxB[key]), key).toBeLessThan(1);
}

const opacity = (locator: Locator) => locator.evaluate((element) => Number(getComputedStyle(element).opacity));

/** Where a swipe starts: on the image, clear of the controls laid over it (they sit at its edges). */
async function swipeStart(page: Page) {
  const box = await liveRegion(page).boundingBox();
  if (!box) throw new Error("no slides");
  return { x: Math.round(box.x + box.width / 2), y: Math.round(box.y + box.height * 0.35) };
}

/** A horizontal drag across the slide image, with the mouse. */
async function mouseSwipe(page: Page, dx: number) {
  const { x, y } = await swipeStart(page);
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y, { steps: 3 });
  await page.mouse.move(x + dx, y, { steps: 3 });
  await page.mouse.up();
}

/** The same swipe as a real touch, through the DevTools protocol (Playwright has no touch-move API). */
async function touchSwipe(page: Page, dx: number) {
  const { x, y } = await swipeStart(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  for (let step = 1; step <= 6; step += 1) {
    await cdp.send("Input.dispatchTouchEvent", {
      type: "touchMove",
      touchPoints: [{ x: Math.round(x + (dx * step) / 6), y }],
    });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

test.describe("home carousel without JavaScript", () => {
  test("shows the first slide's image and caption, and no controls", async ({ page, open, jsEnabled }) => {
    test.skip(jsEnabled, "the server-rendered carousel only");
    await open("/");
    const carouselRegion = region(page);
    await expect(carouselRegion).toHaveAttribute("aria-roledescription", "carousel");
    await expect(slides(page)).toHaveCount(total);

    const first = slides(page).first();
    await expect(first).toHaveAccessibleName(carousel.slideLabel(1, total));
    await expect(first.locator("figcaption")).toHaveText(carouselArt[0].caption);
    await expect(first.locator("figcaption")).toBeInViewport();
    await expect(first.getByRole("img")).toHaveJSProperty("complete", true);
    expect(await first.getByRole("img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(first).not.toHaveAttribute("aria-hidden", "true");

    const viewportBox = await first.boundingBox();
    for (let i = 1; i < total; i += 1) {
      const slide = slides(page).nth(i);
      await expect(slide).toHaveAttribute("aria-hidden", "true");
      await expect(slide).toHaveAttribute("inert", "");
      await expect(slide).not.toBeInViewport();
      // Beside the first slide, outside the clipped box.
      expect((await slide.boundingBox())?.x).toBeGreaterThanOrEqual(
        (viewportBox?.x ?? 0) + (viewportBox?.width ?? 0) - 1,
      );
    }
    await expect(carouselRegion.getByRole("button")).toHaveCount(0);
  });

  test("server HTML: the first image is eager and high priority, the others lazy, all with width and height", async ({
    request,
    jsEnabled,
  }) => {
    test.skip(jsEnabled, "reads the server HTML once");
    const html = await (await request.get("/")).text();
    const images = [...html.matchAll(/<img [^>]*src="\/images\/carousel\/[^"]+"[^>]*>/g)].map((match) => match[0]);
    expect(images).toHaveLength(total);
    images.forEach((img, index) => {
      expect(img).toContain(`src="${carouselArt[index]?.src}"`);
      expect(img).toContain(`width="${carousel.imageWidth}"`);
      expect(img).toContain(`height="${carousel.imageHeight}"`);
      expect(img).not.toContain("style=");
      if (index === 0) {
        expect(img).toContain('loading="eager"');
        expect(img.toLowerCase()).toContain('fetchpriority="high"');
      } else {
        expect(img).toContain('loading="lazy"');
      }
    });
  });
});

test.describe("home carousel", () => {
  test.beforeEach(({ jsEnabled }) => {
    test.skip(!jsEnabled, "needs JavaScript");
  });

  test("is a labelled carousel of three labelled slides with the captions in order", async ({ page }) => {
    await openPaused(page);
    await expect(region(page)).toHaveAttribute("aria-roledescription", "carousel");
    await expect(slides(page)).toHaveCount(total);
    for (let i = 0; i < total; i += 1) {
      const slide = slides(page).nth(i);
      await expect(slide).toHaveAttribute("role", "group");
      // Hidden slides have no accessible name while hidden, so read the label itself.
      await expect(slide).toHaveAttribute("aria-label", carousel.slideLabel(i + 1, total));
      await expect(slide.locator("figcaption")).toHaveText(carouselArt[i]!.caption);
    }
    await expectSlide(page, 0);
    // Once the page has loaded, the later slides' images are fetched too, so no fade reveals an empty box.
    for (let i = 0; i < total; i += 1) {
      await expect
        .poll(() =>
          slides(page)
            .nth(i)
            .locator("img")
            .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
        )
        .toBe(carousel.imageWidth);
    }
    // The rotation control comes first, then previous/next, then one picker per slide.
    const buttons = region(page).getByRole("button");
    await expect(buttons).toHaveCount(3 + total);
    await expect(buttons.first()).toHaveAccessibleName(carousel.stopRotation);
    await expect(buttons.nth(1)).toHaveAccessibleName(carousel.previous);
    await expect(buttons.nth(2)).toHaveAccessibleName(carousel.next);
    for (let i = 0; i < total; i += 1) {
      await expect(buttons.nth(3 + i)).toHaveAccessibleName(carousel.pickerLabel(i + 1, total));
    }
  });

  test("advances by itself every 5 s and wraps around", async ({ page }) => {
    await openPaused(page);
    await page.clock.runFor(carousel.intervalMs - 1);
    await expectSlide(page, 0);
    await page.clock.runFor(1 + fadeDone);
    await expectSlide(page, 1);
    await expect(slides(page).nth(1).locator("figcaption")).toBeInViewport();

    // From the last automatic change, exactly one interval again.
    await page.clock.runFor(carousel.intervalMs - fadeDone - 1);
    await expectSlide(page, 1);
    await page.clock.runFor(1 + fadeDone);
    await expectSlide(page, 2);
    await page.clock.runFor(carousel.intervalMs);
    await expectSlide(page, 0);
  });

  test("fades: both slides share one box while their opacity changes over about 300 ms", async ({ page }) => {
    await openPaused(page);
    // The automatic change fires at 5000 ms; a third of the way into the fade both slides show, partly.
    await page.clock.runFor(carousel.intervalMs);
    const [from, to] = [slides(page).nth(0), slides(page).nth(1)];
    await page.clock.runFor(carousel.transitionMs / 3);
    const outgoing = await opacity(from);
    const incoming = await opacity(to);
    expect(outgoing).toBeGreaterThan(0);
    expect(outgoing).toBeLessThan(1);
    expect(incoming).toBeGreaterThan(0);
    expect(incoming).toBeLessThan(1);
    await expectSameBox(to, from);

    // Still under way a little before 300 ms, finished a little after.
    await page.clock.runFor(carousel.transitionMs * 0.75 - carousel.transitionMs / 3);
    expect(await opacity(to)).toBeLessThan(1);
    await page.clock.runFor(carousel.transitionMs * 0.5);
    expect(await opacity(to)).toBe(1);
    expect(await opacity(from)).toBe(0);
    // Settled, the new slide fills the carousel's box (Embla then parks the transparent one aside).
    await expectSameBox(to, liveRegion(page));
  });

  test("pauses while the pointer is over it and resumes when it leaves", async ({ page }) => {
    await openPaused(page);
    await page.clock.runFor(carousel.intervalMs - 1000);
    await slides(page).first().locator("img").hover();
    // Paused: nothing changes, so the live region may speak; the rotation itself is still on.
    await expect(liveRegion(page)).toHaveAttribute("aria-live", "polite");
    await expect(button(page, carousel.stopRotation)).toBeVisible();
    await page.clock.runFor(carousel.intervalMs * 3);
    await expectSlide(page, 0);

    await page.mouse.move(1, 1);
    await expect(liveRegion(page)).toHaveAttribute("aria-live", "off");
    // A full interval after leaving.
    await page.clock.runFor(carousel.intervalMs - 1);
    await expectSlide(page, 0);
    await page.clock.runFor(1 + fadeDone);
    await expectSlide(page, 1);
  });

  test("the arrow keys go to the previous and next slide, wrapping both ways", async ({ page }) => {
    await openPaused(page);
    await button(page, carousel.next).focus();
    await page.keyboard.press("ArrowRight");
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 1);
    await page.keyboard.press("ArrowRight");
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 2);
    await page.keyboard.press("ArrowRight");
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 0);
    await page.keyboard.press("ArrowLeft");
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 2);
    await page.keyboard.press("ArrowLeft");
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 1);
  });

  test("the arrow keys also work after clicking a slide", async ({ page }) => {
    await openPaused(page);
    await slides(page).first().locator("figcaption").click();
    await expect(region(page)).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 2);
  });

  test("previous, next and the slide pickers change the slide without moving focus", async ({ page }) => {
    await openPaused(page);
    const next = button(page, carousel.next);
    const previous = button(page, carousel.previous);
    await next.click();
    await expect(next).toBeFocused();
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 1);
    await previous.click();
    await previous.click();
    await expect(previous).toBeFocused();
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 2);

    const picker = (i: number) => button(page, carousel.pickerLabel(i + 1, total));
    await expect(picker(2)).toHaveAttribute("aria-current", "true");
    await picker(0).click();
    await expect(picker(0)).toBeFocused();
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 0);
    await expect(picker(0)).toHaveAttribute("aria-current", "true");
    await expect(picker(2)).not.toHaveAttribute("aria-current");
    // The controls sit over the image and are big enough to hit.
    for (const control of [next, previous, picker(0)]) {
      const box = await control.boundingBox();
      expect(box?.width).toBeGreaterThanOrEqual(24);
      expect(box?.height).toBeGreaterThanOrEqual(24);
    }
  });

  test("a manual change starts a full interval before the next automatic one", async ({ page }) => {
    await openPaused(page);
    await page.clock.runFor(carousel.intervalMs - 500);
    await button(page, carousel.next).click();
    await page.mouse.move(1, 1);
    await expect(liveRegion(page)).toHaveAttribute("aria-live", "off");
    await page.clock.runFor(carousel.intervalMs - 1);
    await expectSlide(page, 1);
    await page.clock.runFor(1 + fadeDone);
    await expectSlide(page, 2);
  });

  test("a mouse drag of more than 40 px changes the slide, one of 40 px or less does not", async ({ page }) => {
    await openPaused(page);
    await mouseSwipe(page, -30);
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 0);
    await mouseSwipe(page, -carousel.swipeThresholdPx);
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 0);
    await mouseSwipe(page, -60);
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 1);
    await mouseSwipe(page, 60);
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 0);
    await mouseSwipe(page, 30);
    await page.clock.runFor(fadeDone);
    await expectSlide(page, 0);
  });

  test.describe("on a touch screen", () => {
    test.use({ hasTouch: true, viewport: { width: widths.phone, height: 844 } });

    test("a swipe of more than 40 px changes the slide, one of 30 px does not", async ({ page }) => {
      await openPaused(page);
      await touchSwipe(page, -30);
      await page.clock.runFor(fadeDone);
      await expectSlide(page, 0);
      await touchSwipe(page, -60);
      await page.clock.runFor(fadeDone);
      await expectSlide(page, 1);
      await touchSwipe(page, 60);
      await page.clock.runFor(fadeDone);
      await expectSlide(page, 0);
      await touchSwipe(page, 60);
      await page.clock.runFor(fadeDone);
      await expectSlide(page, 2);
      // Vertical swipes stay with the browser, so the page still scrolls.
      await expect(liveRegion(page).locator("..")).toHaveCSS("touch-action", "pan-y");
    });
  });

  test("the rotation control stops and starts rotation and says what it will do", async ({ page }) => {
    await openPaused(page);
    await button(page, carousel.stopRotation).click();
    const start = button(page, carousel.startRotation);
    await expect(start).toBeVisible();
    await expect(start).toBeFocused();
    await page.mouse.move(1, 1);
    await expect(liveRegion(page)).toHaveAttribute("aria-live", "polite");
    await page.clock.runFor(carousel.intervalMs * 3);
    await expectSlide(page, 0);

    await start.click();
    await expect(button(page, carousel.stopRotation)).toBeVisible();
    await page.mouse.move(1, 1);
    await expect(liveRegion(page)).toHaveAttribute("aria-live", "off");
    await page.clock.runFor(carousel.intervalMs + fadeDone);
    await expectSlide(page, 1);
  });

  test("keyboard focus entering the carousel stops rotation for good; only the control restarts it", async ({
    page,
  }) => {
    await openPaused(page);
    await page.getByRole("link", { name: "Order now" }).focus();
    await page.keyboard.press("Tab");
    const start = button(page, carousel.startRotation);
    await expect(start).toBeFocused();
    await expect(liveRegion(page)).toHaveAttribute("aria-live", "polite");
    await page.clock.runFor(carousel.intervalMs * 2);
    await expectSlide(page, 0);

    // Leaving does not restart it.
    await page.keyboard.press("Shift+Tab");
    await expect(start).not.toBeFocused();
    await page.clock.runFor(carousel.intervalMs * 2);
    await expectSlide(page, 0);
    await expect(start).toBeVisible();

    // The control restarts it, and moving on to the next control keeps it running.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(button(page, carousel.stopRotation)).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(button(page, carousel.previous)).toBeFocused();
    await expect(liveRegion(page)).toHaveAttribute("aria-live", "off");
    await page.clock.runFor(carousel.intervalMs + fadeDone);
    await expectSlide(page, 1);
  });

  test.describe("with reduced motion", () => {
    test.use({ reducedMotion: "reduce" });

    test("does not rotate and changes slides without animation", async ({ page }) => {
      await openPaused(page, { rotating: false });
      await expect(button(page, carousel.startRotation)).toBeVisible();
      await page.clock.runFor(carousel.intervalMs * 3);
      await expectSlide(page, 0);

      // No time passes at all, yet the change is complete: a jump, not a fade.
      await button(page, carousel.next).click();
      await expectSlide(page, 1);
      await page.keyboard.press("ArrowRight");
      await expectSlide(page, 2);
    });
  });
});

test.describe("home carousel quality", () => {
  for (const width of [widths.phone, widths.desktop]) {
    test(`has no serious or critical axe violations at ${width} px`, async ({ page, open, jsEnabled }) => {
      test.skip(!jsEnabled, "axe runs inside the page, which needs JavaScript");
      await page.setViewportSize({ width, height: 900 });
      // Real time here: axe needs its own timers. A rotation during the scan only swaps which slide is hidden.
      await open("/");
      await expect(button(page, carousel.stopRotation)).toBeVisible();
      expect(await seriousA11yViolations(page)).toEqual([]);
    });
  }

  test("hydrating moves nothing (CLS 0) and the first slide image is the largest paint", async ({
    page,
    open,
    jsEnabled,
  }) => {
    test.skip(!jsEnabled, "measures hydration, with observers that run in the page");
    await page.addInitScript(() => {
      const record = window as unknown as { __shifts: number[]; __lcp: string[] };
      record.__shifts = [];
      record.__lcp = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) record.__shifts.push(entry.value);
        }
      }).observe({ type: "layout-shift", buffered: true });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { element: Element | null })[]) {
          record.__lcp.push(entry.element?.getAttribute("src") ?? entry.element?.tagName ?? "?");
        }
      }).observe({ type: "largest-contentful-paint", buffered: true });
    });
    for (const width of [widths.phone, widths.desktop]) {
      await page.setViewportSize({ width, height: 900 });
      await open("/");
      // The scripted controls are in and Embla has laid the slides out.
      await expect(button(page, carousel.stopRotation)).toBeVisible();
      await expect(slides(page).first()).toHaveCSS("opacity", "1");
      await expect(slides(page).first().getByRole("img")).toHaveJSProperty("complete", true);
      // Two frames, so any shift from the last change has been reported.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const { shifts, lcp } = await page.evaluate(() => {
        const record = window as unknown as { __shifts: number[]; __lcp: string[] };
        return { shifts: record.__shifts, lcp: record.__lcp };
      });
      expect(shifts, `layout shifts at ${width} px`).toEqual([]);
      expect(lcp.at(-1), `largest paint at ${width} px`).toBe(carouselArt[0].src);
    }
  });
});
