import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { CDPSession, Page } from "@playwright/test";
import { inboxCopy } from "../../app/wording/inbox";
import { securityCopy } from "../../app/wording/security";
import { expect, seriousA11yViolations, test } from "./fixtures";
import { asClient, logIn, newOperator } from "./owner";
import { e2eServers } from "./servers";

/**
 * Passkeys in real Chromium with a virtual authenticator (Chrome DevTools Protocol): a new operator, made to set up a
 * second factor, adds a passkey and reaches the inbox; logs in with the passkey alone; uses it as the second step after
 * the password; cannot remove it while it is the only factor; a second passkey is added from another authenticator
 * and one of the two removed. Without JavaScript the login page says passkeys need it and the password path is there.
 * The site is opened at localhost (PUBLIC_URL's host): browsers refuse an IP address as a passkey's relying party.
 */

const server = e2eServers.passkeys;
const site = server.localUrl;
const copy = securityCopy.passkeys;

/** PASSKEYS_SHOTS=DIR saves the Security and login pages at 390 and 1280 px there (looked at by a person). */
const shotsDir = process.env.PASSKEYS_SHOTS;

async function virtualAuthenticator(cdp: CDPSession) {
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

async function logOut(page: Page) {
  await page.getByRole("button", { name: inboxCopy.nav.logout }).click();
  await expect(page).toHaveURL(/\/inbox\/login\?out=1$/);
}

async function shoot(page: Page, name: string, open: (path: string) => Promise<void>, path: string) {
  if (!shotsDir) return;
  mkdirSync(shotsDir, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await open(path);
    await page.screenshot({ path: join(shotsDir, `passkeys-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a passkey: added at set-up, the login alone, the second step, never removed while it is the only factor", async ({
  page,
  open,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "passkeys need JavaScript");
  // Many steps, each a page and a ceremony: more than one test's usual 30 s on a busy machine.
  test.setTimeout(60_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const first = await virtualAuthenticator(cdp);
  const operator = newOperator(server);
  await asClient(page);

  // The password alone: the Security page, told to set up a second factor first.
  await open(`${site}/inbox/login`);
  await logIn(page, operator);
  await expect(page).toHaveURL(`${site}/inbox/security`);
  await expect(page.getByRole("status")).toHaveText(securityCopy.page.setupRequired);
  await page.goto(`${site}/inbox`);
  await expect(page).toHaveURL(`${site}/inbox/security`);
  await open(`${site}/inbox/security`);

  const name = page.getByLabel(copy.nameLabel);
  await expect(name).toHaveValue(/^Passkey on Chrome/);
  await name.fill("Laptop key");
  await page.getByRole("button", { name: copy.add }).click();
  await expect(page).toHaveURL(`${site}/inbox/security?done=passkey-added-setup`);
  await expect(page.getByText("Laptop key")).toBeVisible();
  await expect(page.getByText(securityCopy.page.setupRequired)).toHaveCount(0);
  await page.getByRole("link", { name: copy.done.toInbox }).click();
  await expect(page).toHaveURL(`${site}/inbox`);
  await expect(page.getByText(operator.email)).toBeVisible();

  // Another passkey asks for step-up first (adding one was not passing one): the code page, where the passkey passes
  // it, then back to the Security page.
  await open(`${site}/inbox/security`);
  await page.getByRole("button", { name: copy.add }).click();
  await expect(page).toHaveURL(`${site}/inbox/verify?next=%2Finbox%2Fsecurity&again=1`);
  await open(page.url());
  await page.getByRole("button", { name: securityCopy.verify.passkey }).click();
  await expect(page).toHaveURL(`${site}/inbox/security`);
  // The same authenticator again: refused with a plain message (it already holds a passkey for this account).
  await open(`${site}/inbox/security`);
  await page.getByRole("button", { name: copy.add }).click();
  await expect(page.getByRole("alert")).toHaveText(copy.alreadyRegistered);
  await expect(page.getByRole("listitem").filter({ hasText: "Laptop key" })).toHaveCount(1);

  // The passkey alone logs in: no password typed.
  await logOut(page);
  await open(`${site}/inbox/login`);
  await page.getByRole("button", { name: copy.login }).click();
  await expect(page).toHaveURL(`${site}/inbox`);
  await expect(page.getByText(operator.email)).toBeVisible();

  // The password, then the passkey as the second step, back to where the operator was going.
  await logOut(page);
  await open(`${site}/inbox/login?next=${encodeURIComponent("/inbox/activity")}`);
  await logIn(page, operator);
  await expect(page).toHaveURL(/\/inbox\/verify\?next=/);
  await open(page.url());
  await page.getByRole("button", { name: securityCopy.verify.passkey }).click();
  await expect(page).toHaveURL(`${site}/inbox/activity`);
  await expect(page.getByText("second factor passed (passkey)").first()).toBeVisible();
  await expect(page.getByText("logged in (passkey)").first()).toBeVisible();

  // The only factor while one is required: not removed, with a plain message.
  await open(`${site}/inbox/security`);
  await page.getByRole("button", { name: copy.removeLabel("Laptop key") }).click();
  await expect(page.getByRole("alert")).toHaveText(copy.lastFactor);
  await expect(page.getByText("Laptop key")).toBeVisible();

  // A second passkey from another authenticator; then the first can go.
  await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId: first });
  await virtualAuthenticator(cdp);
  await open(`${site}/inbox/security`);
  await page.getByLabel(copy.nameLabel).fill("Phone");
  await page.getByRole("button", { name: copy.add }).click();
  await expect(page).toHaveURL(`${site}/inbox/security?done=passkey-added`);
  await expect(page.getByRole("status")).toHaveText(copy.done.added);
  await expect(page.getByRole("button", { name: /^Remove the passkey/ })).toHaveCount(2);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await shoot(page, "security", open, `${site}/inbox/security`);

  await page.getByRole("button", { name: copy.removeLabel("Laptop key") }).click();
  await expect(page).toHaveURL(`${site}/inbox/security?done=passkey-removed`);
  await expect(page.getByRole("status")).toHaveText(copy.done.removed);
  await expect(page.getByRole("button", { name: /^Remove the passkey/ })).toHaveCount(1);

  // The login page with its passkey button (logged out), for the screenshots.
  await logOut(page);
  await shoot(page, "login", open, `${site}/inbox/login`);
});

test("without JavaScript the login page says passkeys need it, and the password path is there", async ({
  page,
  open,
  jsEnabled,
}) => {
  test.skip(jsEnabled, "the page without JavaScript");
  // The CLI's operator add (its password check and hash) takes a while on a busy machine.
  test.setTimeout(60_000);
  await asClient(page);
  await open(`${site}/inbox/login`);
  await expect(page.getByText(copy.loginNeedsJs)).toBeVisible();
  await expect(page.getByRole("button", { name: copy.login })).toHaveCount(0);
  await expect(page.getByRole("button", { name: inboxCopy.login.submit, exact: true })).toBeVisible();
  // And the Security page: the Add button is disabled, the words point to the one-time codes.
  const operator = newOperator(server);
  await logIn(page, operator);
  await expect(page).toHaveURL(`${site}/inbox/security`);
  await expect(page.getByText(copy.needsJs)).toBeVisible();
  await expect(page.getByRole("button", { name: copy.add })).toBeDisabled();
  expect(await seriousA11yViolations(page)).toEqual([]);
});
