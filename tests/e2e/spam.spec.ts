import { randomUUID } from "node:crypto";
import { enquiryMessages, privacyLinks, privacyPage } from "../../app/content/site";
import { expect, seriousA11yViolations, test, widths } from "./fixtures";
import { fill, send, status } from "./form";
import { inboxVerdictsCarrying } from "./inbox";
import { e2eServers, spamDatabase } from "./servers";

/**
 * The spam filter as a person meets it, on the server with the filter on (its default): someone who reads the form
 * and types is never held as spam, with JavaScript on and off; the privacy page is one click from the form.
 */
const site = e2eServers.spam.url;

test("a visitor who takes a few seconds to write is never spam", async ({ page, open }) => {
  const token = randomUUID();
  await open(`${site}/contact`);
  // A person reads the question and types: well over the 3 s a bot takes.
  await page.waitForTimeout(3_200);
  await fill(page, {
    name: "Jane Doe",
    email: "jane@example.com",
    message: `Do you build animatronic werewolves? ${token}`,
    security: "Freddy",
  });
  await send(page);
  await expect(status(page)).toHaveText(enquiryMessages.success);
  await expect.poll(() => inboxVerdictsCarrying(token, spamDatabase)).toEqual([{ status: "new", spamReasons: [] }]);
});

// By its words alone (a post within 3 s would add a reason, but a slow machine may take longer to fill the form).
test("a bot gets the same thank-you and is held as spam", async ({ page, open }) => {
  const token = randomUUID();
  await open(`${site}/contact`);
  await fill(page, {
    name: "Bot",
    email: "bot@example.com",
    message: `Cheap SEO and backlinks ${token}`,
    security: "Freddy",
  });
  await send(page);
  await expect(status(page)).toHaveText(enquiryMessages.success);
  await expect.poll(() => inboxVerdictsCarrying(token, spamDatabase).map((entry) => entry.status)).toEqual(["spam"]);
  expect(inboxVerdictsCarrying(token, spamDatabase)[0]!.spamReasons).toEqual(
    expect.arrayContaining(['phrase "seo"', 'phrase "backlink"']),
  );
});

test("the privacy page: one line under the form, in the footer, with the configured retention", async ({
  page,
  open,
}) => {
  await open(`${site}/contact`);
  await expect(page.getByText(privacyLinks.underForm)).toBeVisible();
  await expect(page.getByRole("contentinfo").getByRole("link", { name: privacyLinks.footer })).toBeVisible();
  await page.getByRole("link", { name: privacyLinks.underFormLink }).click();
  await expect(page).toHaveURL(`${site}/privacy`);
  await expect(page.getByRole("heading", { level: 1, name: privacyPage.heading })).toBeVisible();
  await expect(page.getByText(privacyPage.howLong(365))).toBeVisible();
  await expect(page.getByText(privacyPage.spamHowLong(30))).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
});

for (const [label, width] of Object.entries(widths)) {
  test(`privacy page screenshot at ${width} px (${label})`, async ({ page, open, jsEnabled }) => {
    test.skip(!jsEnabled, "one set of screenshots");
    await page.setViewportSize({ width, height: 900 });
    await open(`${site}/privacy`);
    await page.screenshot({ path: `test-results/screenshots/privacy-${width}.png`, fullPage: true });
    await open(`${site}/contact`);
    await page.screenshot({ path: `test-results/screenshots/contact-${width}.png`, fullPage: true });
  });
}
