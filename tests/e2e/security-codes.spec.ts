import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { inboxCopy } from "../../app/wording/inbox";
import { securityCopy } from "../../app/wording/security";
import { serveDuringFile } from "./file-server";
import { expect, seriousA11yViolations, test, waitForHydration } from "./fixtures";
import { asClient, logIn, newOperator } from "./owner";
import { e2eServers } from "./servers";

/**
 * One-time codes in Chromium with JavaScript on and off, the second factor required (the default): a new operator's
 * password leads to the Security page; "Set up one-time codes" shows the key and its QR code; a wrong code is refused
 * with a plain message with the key still there; the app's code (computed here from the key the page showed) confirms it; ten
 * recovery codes, shown once; on to the enquiries; then the login asks for a code, and a recovery code works once.
 * With SHOTS_DIR set, the set-up and the recovery codes are photographed at 390 and 1280 px wide.
 */

const copy = securityCopy.codes;
const serverFor = (jsEnabled: boolean) => (jsEnabled ? e2eServers.securityCodesJs : e2eServers.securityCodesNoJs);
serveDuringFile(serverFor);

const totp = (key: string) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(key.replace(/\s/g, "")) });
/** The code an authenticator app shows `offsetSteps` steps from now (the server takes one step either side). */
const codeFor = (key: string, offsetSteps = 0) => totp(key).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
function wrongCodeFor(key: string): string {
  const near = new Set([-1, 0, 1, 2].map((offset) => codeFor(key, offset)));
  return ["314159", "271828", "161803"].find((code) => !near.has(code))!;
}

const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

/** Presses a button that posts; with JavaScript, waits until the page has settled (the loaders' reload after it). */
async function press(page: Page, name: string) {
  await button(page, name).click();
  await page.waitForLoadState("networkidle");
}

async function shoot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const size = page.viewportSize()!;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(dir, `codes-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(size);
}

async function logOut(page: Page, url: string) {
  await page.getByRole("button", { name: inboxCopy.nav.logout }).first().click();
  await expect(page).toHaveURL(new RegExp(`^${url}/inbox/login`));
}

test.describe.configure({ mode: "serial" }); // one server per project (serveDuringFile), one worker each

/**
 * A new operator of this project's server, from a client address of its own, logs in with the password alone and sets
 * up one-time codes on the Security page. `checked`: each step's page is also checked (the reason on the page, axe,
 * the wrong code, screenshots). Returns the server, the operator, the key and the recovery codes the page showed.
 */
async function setUpCodes(page: Page, jsEnabled: boolean, checked: boolean) {
  const server = serverFor(jsEnabled);
  const operator = newOperator(server);
  await asClient(page);
  // The password alone: the Security page, with the reason, and the inbox sends the session back there.
  await page.goto(`${server.url}/inbox`);
  await expect(page).toHaveURL(`${server.url}/inbox/login?next=%2Finbox`);
  if (jsEnabled) await waitForHydration(page);
  await logIn(page, operator);
  await expect(page).toHaveURL(`${server.url}/inbox/security`);
  if (checked) {
    await expect(page.getByRole("status").filter({ hasText: securityCopy.page.setupRequired })).toBeVisible();
    await page.goto(`${server.url}/inbox`);
    await expect(page).toHaveURL(`${server.url}/inbox/security`);
  }
  if (jsEnabled) await waitForHydration(page);

  // Set-up: the key in groups of four and its QR code.
  await press(page, copy.start);
  const keyText = page.locator("[data-secret]");
  await expect(keyText).toHaveText(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  const key = (await keyText.textContent())!;
  if (checked) {
    const qr = page.getByRole("img", { name: copy.qrLabel });
    await expect(qr).toBeVisible();
    await expect(qr.locator("svg")).toBeVisible();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shoot(page, "setup");

    // A wrong code: refused with a plain message, the same key on screen.
    await page.getByLabel(copy.code, { exact: true }).fill(wrongCodeFor(key));
    await press(page, copy.confirm);
    await expect(page.getByRole("alert")).toHaveText(copy.wrongCode);
    await expect(keyText).toHaveText(key);
  }

  // The app's code: on, and ten recovery codes, one a line.
  await page.getByLabel(copy.code, { exact: true }).fill(codeFor(key));
  await press(page, copy.confirm);
  const list = page.getByRole("list", { name: copy.recoveryListLabel });
  await expect(list.getByRole("listitem")).toHaveCount(10);
  const recovery = (await list.getByRole("listitem").allTextContents()).map((code) => code.trim());
  return { server, operator, key, recovery };
}

test("set up one-time codes: the key and its QR code, a wrong code refused, recovery codes shown once", async ({
  page,
  jsEnabled,
}) => {
  // Three logins' worth of pages and two accessibility checks.
  test.setTimeout(60_000);
  const { server, recovery } = await setUpCodes(page, jsEnabled, true);

  for (const code of recovery) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await expect(page.getByText(copy.recoveryIntro)).toBeVisible();
  await expect(page.getByText(copy.recoveryLeft(10))).toBeVisible();
  await expect(page.locator("[data-secret]")).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await shoot(page, "recovery");

  await page.getByRole("link", { name: copy.goToInbox }).click();
  await expect(page).toHaveURL(`${server.url}/inbox`);
  await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible();
  // Shown once: the Security page again has the count, not the codes.
  await page.goto(`${server.url}/inbox/security`);
  await expect(page.getByText(copy.recoveryLeft(10))).toBeVisible();
  await expect(page.getByText(recovery[0]!)).toHaveCount(0);
});

test("with one-time codes on, the login asks for a code: the app's code works, a recovery code works once", async ({
  page,
  jsEnabled,
}) => {
  // Four logins after the set-up's.
  test.setTimeout(60_000);
  const { server, operator, key, recovery } = await setUpCodes(page, jsEnabled, false);
  await page.getByRole("link", { name: copy.goToInbox }).click();
  await expect(page).toHaveURL(`${server.url}/inbox`);
  if (jsEnabled) await waitForHydration(page);

  // Log out and in: the code page asks for a code (the app's next one: the set-up used this step's).
  await logOut(page, server.url);
  if (jsEnabled) await waitForHydration(page);
  await logIn(page, operator);
  await expect(page).toHaveURL(`${server.url}/inbox/verify?next=%2Finbox`);
  if (jsEnabled) await waitForHydration(page);
  await page.getByLabel(securityCopy.verify.code, { exact: true }).fill(codeFor(key, 1));
  await button(page, securityCopy.verify.submit).click();
  await expect(page).toHaveURL(`${server.url}/inbox`);
  await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible();

  // A recovery code gets in once; the second time it is refused.
  for (const attempt of ["first", "second"] as const) {
    await logOut(page, server.url);
    if (jsEnabled) await waitForHydration(page);
    await logIn(page, operator);
    await expect(page).toHaveURL(`${server.url}/inbox/verify?next=%2Finbox`);
    if (jsEnabled) await waitForHydration(page);
    await page.getByLabel(securityCopy.verify.code, { exact: true }).fill(recovery[0]!);
    await button(page, securityCopy.verify.submit).click();
    if (attempt === "first") {
      await expect(page).toHaveURL(`${server.url}/inbox`);
      await expect(page.getByRole("heading", { level: 1, name: inboxCopy.title })).toBeVisible();
    } else {
      await expect(page.getByRole("alert")).toHaveText(securityCopy.verify.wrong);
      await expect(page).toHaveURL(/\/inbox\/verify/);
    }
  }
});
