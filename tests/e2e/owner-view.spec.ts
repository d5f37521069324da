import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { inboxCopy } from "../../app/wording/inbox";
import { enquiryMessages } from "../../app/wording";
import { expect, test, widths } from "./fixtures";
import { fill, send, status } from "./form";
import { asClient, logIn, newOperator, owner } from "./owner";

/**
 * What the owner sees of what a visitor wrote, with JavaScript on and off: bidi and direction controls shown as U+FFFD
 * (never live, in text or attributes), and 100-character words wrapped inside the window on a phone and a desktop.
 */

const rlo = "\u202E";
// Every character a visitor could use to reorder or hide what the owner reads.
const controls = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** All text and attribute values of the page's body, and the hydration data with JavaScript. */
const everythingShown = (page: Page) =>
  page.evaluate(() => {
    const parts = [document.body.innerText, document.body.textContent ?? "", document.title];
    for (const element of document.querySelectorAll("*"))
      for (const attribute of element.attributes) parts.push(attribute.value);
    for (const input of document.querySelectorAll("input, textarea")) parts.push((input as HTMLInputElement).value);
    return parts.join("\n");
  });

async function fitsAt(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
  const sizes = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    window: window.innerWidth,
  }));
  expect(sizes.scroll, `page width at ${width} px`).toBeLessThanOrEqual(sizes.window);
}

test("visitors' bidi controls are shown as U+FFFD and long words wrap on every owner page", async ({
  page,
  open,
  jsEnabled,
}) => {
  test.setTimeout(60_000);
  const token = randomUUID().slice(0, 8);
  const operator = newOperator();

  const longWord = `W${token}${"x".repeat(91)}`; // 100 characters, no break opportunity
  const visitors = [
    {
      name: `Bob${rlo}gnp.exe Smith ${token}`,
      email: `bob-${token}@example.com`,
      message: `Invoice${rlo}fdp.exe attached ${token}\nSecond \u2066line\u2069 \u200Fwith\u200E marks \u061C end`,
      security: "Freddy",
    },
    {
      name: longWord,
      email: `${"m".repeat(92)}${token}@example.com`,
      message: `${"Long".repeat(25)} ${token}\n${"y".repeat(300)}`,
      security: "Freddy",
    },
  ];
  for (const visitor of visitors) {
    await open(`${owner.url}/contact`);
    await fill(page, visitor);
    await send(page);
    await expect(status(page)).toHaveText(enquiryMessages.success);
  }

  // A failed login whose address carries controls: the activity page lists the address tried (the log keeps it on one
  // line, so the override is a space there; the right-to-left mark is only neutralised on the page).
  const client = await asClient(page);
  const tried = `eve\u200F${rlo}gnp.exe-${token}@example.com`;
  const refused = await page.request.post(`${owner.url}/inbox/login`, {
    form: { email: tried, password: "not the password at all", next: "/inbox" },
    headers: { Origin: owner.url, "X-Forwarded-For": client },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(401);

  await open(`${owner.url}/inbox/login?next=${encodeURIComponent(`/inbox?folder=all&q=${token}`)}`);
  await logIn(page, operator);
  await expect(page).toHaveURL(new RegExp(`/inbox\\?folder=all&q=${token}$`));
  if (jsEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  // The activity page (first: it lists the newest 100) shows the failed login's address visibly.
  await open(`${owner.url}/inbox/activity`);
  await expect(page.getByText(`eve\uFFFD gnp.exe-${token}@example.com`)).toBeVisible();
  expect(await everythingShown(page)).not.toMatch(controls);
  for (const width of [widths.desktop, widths.phone]) await fitsAt(page, width);
  await page.setViewportSize({ width: widths.desktop, height: 900 });
  await open(`${owner.url}/inbox?folder=all&q=${token}`);

  // The list: the name as the owner must read it, the controls visible.
  const bob = page.getByRole("article", { name: `Bob\uFFFDgnp.exe Smith ${token}` });
  await expect(bob).toContainText(`Invoice\uFFFDfdp.exe attached ${token}`);
  await expect(page.getByRole("article", { name: longWord })).toBeVisible();
  let shown = await everythingShown(page);
  expect(shown).not.toMatch(controls);
  expect(shown).toContain("\uFFFD");
  for (const width of [widths.desktop, widths.phone]) await fitsAt(page, width);
  await page.setViewportSize({ width: widths.desktop, height: 900 });

  // Bob's enquiry: heading, message (line breaks kept), every attribute (the reply link's href too).
  await bob.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: `Bob\uFFFDgnp.exe Smith ${token}` })).toBeVisible();
  await expect(page.getByText(`Second \uFFFDline\uFFFD \uFFFDwith\uFFFD marks \uFFFD end`)).toBeVisible();
  expect(await page.locator("article .whitespace-pre-wrap").textContent()).toContain(`${token}\nSecond`);
  shown = await everythingShown(page);
  expect(shown).not.toMatch(controls);
  // The document as sent, hydration data included: no control, and none written as an escape either.
  const html = await (await page.request.get(page.url(), { headers: { "X-Forwarded-For": client } })).text();
  expect(html).toContain(`Bob\uFFFDgnp.exe Smith ${token}`);
  expect(html).not.toMatch(controls);
  expect(html).not.toMatch(/\\u(061c|200[ef]|202[a-e]|206[6-9])/i);
  for (const width of [widths.desktop, widths.phone]) await fitsAt(page, width);

  // Its erase confirmation names the same, visibly.
  await page.getByRole("button", { name: inboxCopy.enquiry.erase }).click();
  await expect(page.getByRole("heading", { name: inboxCopy.erase.title })).toBeVisible();
  expect(await everythingShown(page)).not.toMatch(controls);
  await expect(page.getByText(`Bob\uFFFDgnp.exe Smith ${token}`)).toBeVisible();

  // The long words' enquiry: heading, address and message wrap in the window.
  await page.setViewportSize({ width: widths.desktop, height: 900 });
  await open(`${owner.url}/inbox?folder=all&q=${token}`);
  await page.getByRole("article", { name: longWord }).getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: longWord })).toBeVisible();
  for (const width of [widths.desktop, widths.phone]) await fitsAt(page, width);
  await page.getByRole("button", { name: inboxCopy.enquiry.erase }).click();
  await expect(page.getByRole("heading", { name: inboxCopy.erase.title })).toBeVisible();
  for (const width of [widths.desktop, widths.phone]) await fitsAt(page, width);
});
