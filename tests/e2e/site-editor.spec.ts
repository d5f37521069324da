import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { inboxCopy } from "../../app/wording/inbox";
import { previewBanner, seasonNotice, serviceCard } from "../../app/wording";
import { siteEditorCopy } from "../../app/wording/site-editor";
import { serveDuringFile } from "./file-server";
import { expect, seriousA11yViolations, test, waitForHydration } from "./fixtures";
import { asClient, logIn, newOperator } from "./owner";
import { e2eServers } from "./servers";

/**
 * The owner's Site page with JavaScript on and off: edit the season and a service, save a draft (nothing public
 * changes), preview it (operators only, never cached or indexed), publish it; a close date in the past closes orders;
 * History restores an older version; two operators at once; bad input per field; the stale-season warning. The site's
 * content is one per database, so each project has its own server and this file's tests run in order on it.
 */

test.describe.configure({ mode: "serial" });

const words = siteEditorCopy;
const serverFor = (jsEnabled: boolean) => (jsEnabled ? e2eServers.siteEditorJs : e2eServers.siteEditorNoJs);
serveDuringFile(serverFor);

/** The public home page as a visitor gets it (no cookie): its text. */
async function publicHome(server: { url: string }): Promise<string> {
  const response = await fetch(`${server.url}/`, { signal: AbortSignal.timeout(10_000) });
  return (await response.text()).replace(/<!-- -->/g, "").replace(/&#x27;/g, "'");
}

/** Logs a new operator in and opens the Site page. */
async function openSite(page: Page, jsEnabled: boolean) {
  const server = serverFor(jsEnabled);
  const operator = newOperator(server);
  await asClient(page);
  await page.goto(`${server.url}/inbox/site`);
  // The login page is a new document: typing while React hydrates it is React's error #345.
  if (jsEnabled) await waitForHydration(page);
  await logIn(page, operator);
  await expect(page).toHaveURL(`${server.url}/inbox/site`);
  if (jsEnabled) await waitForHydration(page);
  return { server, operator };
}

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

/** Clicks a button that posts the form; what the page shows next is awaited by the assertions after it. */
/**
 * Presses a button and waits until the page has settled: with JavaScript, a post is followed by the loaders' reload,
 * and a second press while that is in flight aborts it (React Router then reports an AbortError on the console).
 */
async function press(page: Page, name: string) {
  await button(page, name).click();
  await page.waitForLoadState("networkidle");
}

test("the season warning on /inbox leads to the Site page while the site offers a season that is over", async ({
  page,
  jsEnabled,
}) => {
  // A publish and three owner pages, like the file's other tests (CI timed out here once at load average 15).
  test.setTimeout(60_000);
  const { server } = await openSite(page, jsEnabled);
  // The season this file starts from (the server's database outlives a run): 2025, open, no close date.
  await field(page, "Season year").fill("2025");
  await field(page, "Orders are open").check();
  await field(page, "Orders close on").fill("");
  await press(page, words.buttons.publish);
  await expect(page.getByRole("status")).toHaveText(/visitors see it now|Nothing new to publish/);
  expect(await publicHome(server)).toContain(seasonNotice.open(2025));
  await page.getByRole("link", { name: inboxCopy.nav.inbox }).click();
  await expect(page.getByText(words.staleSeason(2025))).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole("link", { name: words.fixSeason }).click();
  await expect(page).toHaveURL(/\/inbox\/site#site-season-year$/);
  await expect(page.getByText(words.staleSeason(2025))).toBeVisible();
  await expect(field(page, "Season year")).toHaveValue("2025");
});

test("edit the season and a service, save a draft, preview it, publish it", async ({ page, jsEnabled, browser }) => {
  test.setTimeout(60_000);
  const { server } = await openSite(page, jsEnabled);
  const token = randomUUID().slice(0, 8);
  expect(await seriousA11yViolations(page)).toEqual([]);

  await field(page, "Season year").fill("2027");
  await field(page, "Service 2 name").fill(`Fog machines ${token}`);
  await field(page, "Service 2 detail").fill("Low-lying fog for every graveyard.");
  await press(page, words.buttons.save);
  await expect(page.getByRole("status")).toHaveText(words.done.saved);
  await expect(field(page, "Season year")).toHaveValue("2027");
  await expect(page.getByText("Season year: 2025 → 2027")).toBeVisible();
  // Nothing public changed.
  const before = await publicHome(server);
  expect(before).toContain(seasonNotice.open(2025));
  expect(before).not.toContain(token);

  // Preview: the draft on the public pages, for operators only, never cached or indexed.
  await press(page, words.buttons.preview);
  await expect(page).toHaveURL(`${server.url}/?preview`);
  await expect(page.getByText(previewBanner.text)).toBeVisible();
  await expect(page.getByText(seasonNotice.open(2027))).toBeVisible();
  await expect(page.getByText(`Fog machines ${token}`)).toBeVisible();
  const preview = await page.request.get(`${server.url}/?preview`);
  expect(preview.headers()["cache-control"]).toMatch(/^private, no-store\b/);
  expect(await preview.text()).toMatch(/<meta name="robots" content="noindex[^"]*"/);
  await expectVisitorGetsLogin(browser, `${server.url}/?preview`);
  expect(await publicHome(server)).not.toContain(token);

  await page.getByRole("link", { name: previewBanner.back }).click();
  await expect(page).toHaveURL(`${server.url}/inbox/site`);
  if (jsEnabled) await waitForHydration(page);
  await press(page, words.buttons.publish);
  await expect(page.getByRole("status")).toHaveText(
    /^Published version \d+: visitors see it now\. A CDN .* 6 minutes\.$/,
  );
  const after = await publicHome(server);
  expect(after).toContain(seasonNotice.open(2027));
  expect(after).toContain(`Fog machines ${token}`);
  await expect(page.getByText(words.staleSeason(2025))).toHaveCount(0);
});

async function expectVisitorGetsLogin(browser: Browser, url: string) {
  const visitor = await browser.newContext();
  try {
    const page = await visitor.newPage();
    await page.goto(url);
    await expect(page).toHaveURL(/\/inbox\/login\?next=/);
    await expect(page.getByRole("heading", { name: inboxCopy.login.heading })).toBeVisible();
  } finally {
    await visitor.close();
  }
}

test("a close date in the past closes orders with the owner's line; History restores the open season", async ({
  page,
  jsEnabled,
}) => {
  test.setTimeout(60_000);
  const { server } = await openSite(page, jsEnabled);
  const token = randomUUID().slice(0, 8);
  const year = await field(page, "Season year").inputValue();
  await field(page, "Orders close on").fill("2020-08-31");
  await field(page, "Line shown when orders are closed").fill(`Enquiries for next season are welcome ${token}.`);
  await press(page, words.buttons.publish);
  await expect(page.getByRole("status")).toContainText("visitors see it now");
  const closed = await publicHome(server);
  expect(closed).toContain(seasonNotice.closed(Number(year)));
  expect(closed).toContain(`Enquiries for next season are welcome ${token}.`);
  expect(closed).not.toContain(seasonNotice.open(Number(year)));

  await page.getByRole("link", { name: words.historyLink }).click();
  await expect(page.getByRole("heading", { level: 1, name: words.history.title })).toBeVisible();
  if (jsEnabled) await waitForHydration(page);
  const newest = page.getByRole("article").first();
  await expect(newest).toContainText("Orders close on: (empty) → 2020-08-31");
  await expect(newest).toContainText(words.history.current);
  const older = page.getByRole("article").nth(1);
  const olderName = (await older.getByRole("heading").textContent())!;
  const olderNumber = Number(/Version (\d+)/.exec(olderName)![1]);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await older.getByRole("button", { name: words.history.restoreLabel(olderNumber) }).click();
  await expect(page.getByRole("status")).toContainText(`Version ${olderNumber} restored as version`);
  await expect(page.getByRole("article").first()).toContainText(words.history.restoredFrom(olderNumber));
  await expect(page.getByRole("article").first()).toContainText("Orders close on: 2020-08-31 → (empty)");
  const reopened = await publicHome(server);
  expect(reopened).toContain(seasonNotice.open(Number(year)));
  expect(reopened).not.toContain(token);
});

test("two operators at once: the later save is refused with who and when, and keeps what was typed", async ({
  page,
  jsEnabled,
  browser,
}) => {
  test.setTimeout(60_000);
  const { operator: first } = await openSite(page, jsEnabled);
  const second = await browser.newContext({ javaScriptEnabled: jsEnabled });
  try {
    const other = await second.newPage();
    await openSite(other, jsEnabled);
    const token = randomUUID().slice(0, 8);
    await field(page, "Home tagline").fill(`First operator's tagline ${token}`);
    await press(page, words.buttons.save);
    await expect(page.getByRole("status")).toHaveText(words.done.saved);

    await field(other, "Home tagline").fill(`Second operator's tagline ${token}`);
    await field(other, "Orders note").fill(`Second operator's note ${token}`);
    await press(other, words.buttons.save);
    const refusal = other.getByRole("alert");
    await expect(refusal).toContainText(`${first.email} saved the site at`);
    await expect(refusal).toContainText("after you opened this page. Your changes are below, not saved");
    await expect(field(other, "Home tagline")).toHaveValue(`Second operator's tagline ${token}`);
    await expect(field(other, "Orders note")).toHaveValue(`Second operator's note ${token}`);

    // Pressed again, deliberately: the second operator's words are the draft.
    await press(other, words.buttons.save);
    await expect(other.getByRole("status")).toHaveText(words.done.saved);
    await expect(field(other, "Home tagline")).toHaveValue(`Second operator's tagline ${token}`);
  } finally {
    await second.close();
  }
});

test("bad input: a message per field, tied to it, and everything typed kept", async ({ page, jsEnabled }) => {
  test.setTimeout(60_000);
  await openSite(page, jsEnabled);
  const token = randomUUID().slice(0, 8);
  await field(page, "Season year").fill("25");
  await field(page, "Home tagline").fill("");
  await field(page, "Service 1 detail").fill("Props with <b>bold</b> claims");
  await field(page, "Service 2 name").fill(`Kept ${token}`);
  await field(page, "Public e-mail").fill("not an address");
  await press(page, words.buttons.save);

  const summary = page.getByRole("alert");
  await expect(summary).toContainText(words.errors.summary(4));
  const problems: [string, string][] = [
    ["Season year", "Please enter a four-digit year from 2000 to 2100."],
    ["Home tagline", "Please fill this in."],
    ["Service 1 detail", "Text only: please remove the HTML tag (the page shows text as written)."],
    ["Public e-mail", "Please enter an e-mail address like name@example.com, or leave it empty."],
  ];
  for (const [label, message] of problems) {
    await expect(summary.getByRole("link", { name: `${label}: ${message}` })).toBeVisible();
    await expect(field(page, label)).toHaveAttribute("aria-invalid", "true");
    await expect(field(page, label)).toHaveAccessibleDescription(new RegExp(message.replace(/[().]/g, "\\$&")));
  }
  await expect(field(page, "Season year")).toHaveValue("25");
  await expect(field(page, "Service 1 detail")).toHaveValue("Props with <b>bold</b> claims");
  await expect(field(page, "Service 2 name")).toHaveValue(`Kept ${token}`);
  await expect(field(page, "Public e-mail")).toHaveValue("not an address");
  expect(await seriousA11yViolations(page)).toEqual([]);

  // The summary's link takes the owner to the field.
  await summary.getByRole("link", { name: /^Home tagline:/ }).click();
  await expect(page).toHaveURL(/#site-home-tagline$/);
  expect(await publicHome(serverFor(jsEnabled))).not.toContain(`Kept ${token}`);
});

test("services are added, moved and removed without saving, keeping what was typed", async ({ page, jsEnabled }) => {
  test.setTimeout(60_000);
  const { server } = await openSite(page, jsEnabled);
  const token = randomUUID().slice(0, 8);
  const names = page.locator('input[name^="services."][name$=".name"]');
  // Counted once the form is there: counted too early on a loaded machine it was 0, and "Service 1: Move up" is
  // disabled (a container run timed out on it).
  await expect(names.first()).toBeVisible();
  const count = await names.count();
  await field(page, "Home tagline").fill(`Typed before the moves ${token}`);
  await press(page, words.addService);
  await expect(page.getByRole("status")).toHaveText(words.serviceEdited);
  await field(page, `Service ${count + 1} name`).fill(`Coffin lifts ${token}`);
  await field(page, `Service ${count + 1} detail`).fill("Lids that rise on cue.");
  await press(page, `${words.servicePrefix(count + 1)}${words.up}`);
  await expect(field(page, `Service ${count} name`)).toHaveValue(`Coffin lifts ${token}`);
  await press(page, `${words.servicePrefix(1)}${words.remove}`);
  await expect(field(page, `Service ${count - 1} name`)).toHaveValue(`Coffin lifts ${token}`);
  await expect(field(page, "Home tagline")).toHaveValue(`Typed before the moves ${token}`);
  expect(await publicHome(server)).not.toContain(token);
  await press(page, words.buttons.publish);
  await expect(page.getByRole("status")).toContainText("visitors see it now");
  const published = await publicHome(server);
  expect(published).toContain(`Coffin lifts ${token}`);
  expect(published).toContain(`Typed before the moves ${token}`);
});

test("a service's starting price and lead time and the currency: refused when bad, kept, published on its card", async ({
  page,
  jsEnabled,
}) => {
  test.setTimeout(60_000);
  const { server } = await openSite(page, jsEnabled);
  const token = randomUUID().slice(0, 8);
  // New each run (the server's database outlives a run), so the change is always listed.
  const price = 4000 + Math.floor(Math.random() * 900);
  const leadTime = `8–12 weeks ${token}`;
  const before = await field(page, "Currency").inputValue();
  const [currency, symbol] = before === "EUR" ? ["GBP", "£"] : ["EUR", "€"];

  await field(page, "Service 2 starting price").fill("4,500$");
  await field(page, "Service 2 typical lead time").fill(leadTime);
  await field(page, "Currency").fill("EURO");
  await press(page, words.buttons.save);
  const summary = page.getByRole("alert");
  await expect(summary).toContainText(words.errors.summary(2));
  const problems: [string, string][] = [
    ["Service 2 starting price", "Please enter a whole amount without symbols, e.g. 4500, or leave it empty."],
    ["Currency", "Please enter a three-letter currency code such as USD, EUR or GBP."],
  ];
  for (const [label, message] of problems) {
    await expect(summary.getByRole("link", { name: `${label}: ${message}` })).toBeVisible();
    await expect(field(page, label)).toHaveAttribute("aria-invalid", "true");
    await expect(field(page, label)).toHaveAccessibleDescription(new RegExp(message.replace(/[().]/g, "\\$&")));
  }
  await expect(field(page, "Service 2 starting price")).toHaveValue("4,500$");
  await expect(field(page, "Service 2 typical lead time")).toHaveValue(leadTime);
  await expect(field(page, "Currency")).toHaveValue("EURO");
  expect(await seriousA11yViolations(page)).toEqual([]);

  await field(page, "Service 2 starting price").fill(String(price));
  await field(page, "Currency").fill(currency.toLowerCase());
  await press(page, words.buttons.save);
  await expect(page.getByRole("status")).toHaveText(words.done.saved);
  await expect(field(page, "Currency")).toHaveValue(currency);
  await expect(field(page, "Service 2 starting price")).toHaveValue(String(price));
  await expect(field(page, "Service 2 starting price")).toHaveAccessibleDescription(words.startingPriceHint(currency));
  await expect(page.getByText(new RegExp(`^Service 2 starting price: \\S+ → ${price}$`))).toBeVisible();
  await expect(page.getByText(new RegExp(`^Service 2 typical lead time: .* → ${leadTime}$`))).toBeVisible();
  await expect(page.getByText(`Currency: ${before} → ${currency}`)).toBeVisible();
  expect(await publicHome(server)).not.toContain(token);

  await press(page, words.buttons.publish);
  await expect(page.getByRole("status")).toContainText("visitors see it now");
  const home = await publicHome(server);
  const shownPrice = serviceCard.startingPrice(`${symbol}${price.toLocaleString("en-US")}`);
  expect(home).toContain(shownPrice);
  expect(home).toContain(serviceCard.leadTime(leadTime));
  expect(home).toContain(
    `"priceSpecification":{"@type":"PriceSpecification","minPrice":${price},"priceCurrency":"${currency}"}`,
  );

  // The card of the second service says it, under its name.
  await page.goto(`${server.url}/`);
  const card = page.locator("[data-services] > li").nth(1);
  await expect(card.locator("[data-service-price]")).toHaveText(shownPrice);
  await expect(card.locator("[data-service-lead-time]")).toHaveText(serviceCard.leadTime(leadTime));
});

test("the acknowledgement: ticked with its words and working days, refused out of bounds, published, then off again", async ({
  page,
  jsEnabled,
}) => {
  test.setTimeout(60_000);
  await openSite(page, jsEnabled);
  const box = field(page, "Send an acknowledgement");
  const days = field(page, "Working days to answer");
  const text = field(page, "Acknowledgement text");
  await expect(box).toHaveAccessibleDescription(/never repeats anything the visitor typed/);
  const token = randomUUID().slice(0, 8);
  await box.check();
  await text.fill(`Thanks (${token})! We answer within {days} working days.`);
  await days.fill("45");
  await press(page, words.buttons.publish);
  const message = "Please enter a whole number of working days from 1 to 30.";
  await expect(page.getByRole("alert")).toContainText(words.errors.summary(1));
  await expect(days).toHaveAttribute("aria-invalid", "true");
  await expect(days).toHaveAccessibleDescription(new RegExp(message.replace(/[().]/g, "\\$&")));
  await expect(days).toHaveValue("45");
  await expect(box).toBeChecked();
  await expect(text).toHaveValue(`Thanks (${token})! We answer within {days} working days.`);
  expect(await seriousA11yViolations(page)).toEqual([]);

  await days.fill("5");
  await press(page, words.buttons.publish);
  await expect(page.getByRole("status")).toContainText("visitors see it now");
  await expect(box).toBeChecked();
  await expect(days).toHaveValue("5");
  await page.goto(`${serverFor(jsEnabled).url}/inbox/site/history`);
  await expect(page.getByText(/^Acknowledgement text: .* → Thanks \(/).first()).toBeVisible();

  // Off again, so the file starts from the default next time (the server's database outlives a run).
  await page.goto(`${serverFor(jsEnabled).url}/inbox/site`);
  if (jsEnabled) await waitForHydration(page);
  await box.uncheck();
  await press(page, words.buttons.publish);
  await expect(page.getByRole("status")).toContainText("visitors see it now");
  await expect(box).not.toBeChecked();
});
