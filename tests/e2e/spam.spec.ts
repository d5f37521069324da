import { randomUUID } from "node:crypto";
import { enquiryMessages, privacyLinks, privacyPage } from "../../app/wording";
import { expect, seriousA11yViolations, test, widths } from "./fixtures";
import { fill, send, status } from "./form";
import { inboxVerdictsCarrying } from "./inbox";
import { e2eServers, spamDatabase } from "./servers";

/**
 * The spam filter as a person meets it, on the server with the filter on (its default): someone who reads the form
 * and types is never held as spam, with JavaScript on and off; the privacy page is one click from the form.
 */
const site = e2eServers.spam.url;

/** Loads the form, waits as a person reads and types (well over the 3 s a bot takes), fills it in and sends it. */
async function writeLikeAPerson(
  page: Parameters<typeof fill>[0],
  open: (url: string) => Promise<unknown>,
  values: { name: string; email: string; message: string },
) {
  await open(`${site}/contact`);
  await page.waitForTimeout(3_200);
  await fill(page, { ...values, security: "Freddy" });
  await send(page);
  await expect(status(page)).toHaveText(enquiryMessages.success);
}

test("a visitor who takes a few seconds to write is never spam", async ({ page, open }) => {
  const token = randomUUID();
  await writeLikeAPerson(page, open, {
    name: "Jane Doe",
    email: "jane@example.com",
    message: `Do you build animatronic werewolves? ${token}`,
  });
  await expect
    .poll(() => inboxVerdictsCarrying(token, spamDatabase).map(({ status, spamVerdict }) => ({ status, spamVerdict })))
    .toEqual([{ status: "new", spamVerdict: "none" }]);
});

// The real enquiries the old filter hid: three links, the business in the name, crypto asked about in capitals.
test("a haunt owner with three links, the business in the name, and crypto in capitals: announced", async ({
  page,
  open,
}) => {
  const token = randomUUID();
  await writeLikeAPerson(page, open, {
    name: "Sarah @ Nightmare Acres",
    email: "sarah@nightmareacres.com",
    message:
      `Our haunt: https://nightmareacres.com and https://www.instagram.com/nightmareacres/ - we want an effect like ` +
      `https://www.youtube.com/watch?v=w3rW0lfDem0 for the barn. DO YOU ACCEPT CRYPTO AS PAYMENT? ${token}`,
  });
  await expect
    .poll(() => inboxVerdictsCarrying(token, spamDatabase).map(({ status, spamVerdict }) => ({ status, spamVerdict })))
    .toEqual([{ status: "new", spamVerdict: "none" }]);
});

test("a real customer who writes like a pitch: possible spam, stored as new with its reasons", async ({
  page,
  open,
}) => {
  const token = randomUUID();
  await writeLikeAPerson(page, open, {
    name: "Dana from Lantern",
    email: "dana@lanternagency.com",
    message:
      "I noticed your website again: our marketing agency has a second client launch in October. Can you send " +
      `pricing for two animated props? ${token}`,
  });
  await expect
    .poll(() => inboxVerdictsCarrying(token, spamDatabase).map((entry) => entry.spamVerdict))
    .toEqual(["possible"]);
  const [entry] = inboxVerdictsCarrying(token, spamDatabase);
  expect(entry!.status).toBe("new");
  expect(entry!.spamReasons.length).toBeGreaterThan(0);
});

test("a pitch typed at a person's pace is kept aside by its words, with the same thank-you", async ({ page, open }) => {
  const token = randomUUID();
  await writeLikeAPerson(page, open, {
    name: "Mike",
    email: "mike@rankfast.example",
    message:
      "Hi, I noticed your website is not ranking on the first page of Google. Our SEO experts can fix your search " +
      `engine ranking and get you more website traffic. Reply for a free audit. ${token}`,
  });
  await expect.poll(() => inboxVerdictsCarrying(token, spamDatabase).map((entry) => entry.status)).toEqual(["spam"]);
  const [entry] = inboxVerdictsCarrying(token, spamDatabase);
  expect(entry!.spamVerdict).toBe("spam");
  expect(entry!.spamReasons).toContainEqual(expect.stringMatching(/^the word "seo"/));
});

// A bot posts at once (or without loading the form): kept aside for that alone, whatever it wrote.
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
  expect(inboxVerdictsCarrying(token, spamDatabase)[0]!.spamVerdict).toBe("spam");
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
