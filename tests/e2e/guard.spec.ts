import { expect, test, waitForHydration } from "./fixtures";

/**
 * The end-of-test guard itself: a page whose picture or script chunk does not load is a failing page,
 * even when the document came back 200. The document is the real server's page with references to files the real
 * server does not have (so the 404s are the server's own), added on the way to the browser.
 */
test.describe("the failed-subresource guard", () => {
  const missing = {
    image: "/images/carousel/no-such-slide.webp",
    chunk: "/build/_shared/no-such-chunk.js",
  };

  test("records a picture and a script chunk that 404, which fails any test", async ({
    page,
    jsEnabled,
    failedRequests,
  }) => {
    await page.route(/\/about$/, async (route) => {
      const response = await route.fetch();
      const extra =
        `<img src="${missing.image}" alt="">` +
        (jsEnabled ? `<script type="module" src="${missing.chunk}"></script>` : "");
      await route.fulfill({ response, body: (await response.text()).replace("</body>", `${extra}</body>`) });
    });
    const document = await page.goto("/about", { waitUntil: "load" });
    expect(document?.status()).toBe(200);
    if (jsEnabled) await waitForHydration(page); // the app runs as usual around the extra, broken references

    const origin = new URL(page.url()).origin;
    const expected = [
      `404: GET ${origin}${missing.image} (image)`,
      ...(jsEnabled ? [`404: GET ${origin}${missing.chunk} (script)`] : []), // without JavaScript no script loads
    ];
    // A page React re-renders may ask for the same file once more (type "other"): each entry names the file either way.
    await expect.poll(() => failedRequests).toEqual(expect.arrayContaining(expected));
    expect(failedRequests.every((entry) => entry.includes(missing.image) || entry.includes(missing.chunk))).toBe(true);
    // These are the entries the guard would fail this test on; they were caused on purpose, so they go.
    failedRequests.length = 0;
  });

  test("records a subresource whose connection fails outright", async ({ page, failedRequests, consoleErrors }) => {
    await page.route("**/logo.svg", (route) => route.abort("connectionreset"));
    await page.goto("/about", { waitUntil: "load" });
    await expect
      .poll(() => failedRequests)
      .toEqual([expect.stringMatching(/^net::ERR_CONNECTION_RESET: GET .*\/logo\.svg \(image\)$/)]);
    failedRequests.length = 0;
    // The browser's own console line for it names no URL; the guard above is the one that says which file failed.
    expect(consoleErrors).toEqual([]);
  });
});
