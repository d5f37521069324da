import { randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import type { Browser, Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { inboxCopy } from "../../app/wording/inbox";
import { securityCopy } from "../../app/wording/security";
import { recoveryCodeHash } from "../../app/owner/one-time-codes.server";
import { expect, test, waitForHydration } from "./fixtures";
import { asClient, inboxCli, logIn, newOperator } from "./owner";
import { e2eServers, securitySessionsDatabase } from "./servers";

/**
 * The Security page's sessions and step-up on erase, in Chromium with JavaScript on and off, the second factor
 * required: an operator with one-time codes (set up in the server's database with a known secret; codes computed
 * here) logged in from two browsers sees both, logs the other one out (its next page is the login), and, ten minutes
 * after the last code (moved back in the database), Erase asks for a code first and erases after the second press.
 */

// Each test adds an operator through the CLI and logs in twice or more: three password hashes on a shared machine.
test.setTimeout(60_000);

const server = e2eServers.securitySessions;
const words = securityCopy;

/** An operator with one-time codes and recovery codes; `code()` gives each code once. */
function operatorWithCodes() {
  const operator = newOperator(server);
  const secret = new Secret({ size: 20 }).base32;
  const recovery = Array.from({ length: 4 }, () => randomUUID().replace(/-/g, "").slice(0, 10));
  const db = new DatabaseSync(securitySessionsDatabase, { timeout: 5_000 });
  try {
    const { id } = db.prepare("SELECT id FROM operators WHERE email = ?").get(operator.email) as { id: string };
    db.prepare(
      "INSERT INTO totp_factors (operator_id, secret, created_at, confirmed_at, last_step) VALUES (?, ?, ?, ?, 1)",
    ).run(id, secret, Date.now(), Date.now());
    for (const code of recovery)
      db.prepare("INSERT INTO recovery_codes (operator_id, code_hash) VALUES (?, ?)").run(
        id,
        recoveryCodeHash(id, code),
      );
    const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
    let lastStep = 0;
    const code = () => {
      const now = Math.floor(Date.now() / 30_000);
      const step = Math.max(lastStep + 1, now);
      if (step > now + 1) return recovery.shift()!;
      lastStep = step;
      return totp.generate({ timestamp: step * 30_000 });
    };
    /** The operator's last code, eleven minutes ago in every session. */
    const ageFactor = () => {
      const aged = new DatabaseSync(securitySessionsDatabase, { timeout: 5_000 });
      try {
        aged.prepare("UPDATE sessions SET factor_at = ? WHERE operator_id = ?").run(Date.now() - 11 * 60_000, id);
      } finally {
        aged.close();
      }
    };
    return { ...operator, code, ageFactor };
  } finally {
    db.close();
  }
}

async function typeCode(page: Page, code: string, jsEnabled: boolean) {
  if (jsEnabled) await waitForHydration(page);
  await page.getByLabel(words.verify.code, { exact: true }).fill(code);
  await page.getByRole("button", { name: words.verify.submit }).click();
}

/** Logs in on a page of its own (its own browser: own cookies, own User-Agent), the code included. */
async function logInAs(
  page: Page,
  operator: ReturnType<typeof operatorWithCodes>,
  jsEnabled: boolean,
  next = "/inbox",
): Promise<void> {
  await asClient(page);
  await page.goto(`${server.url}${next}`);
  if (jsEnabled) await waitForHydration(page);
  await logIn(page, operator);
  await expect(page).toHaveURL(/\/inbox\/verify\?/);
  await typeCode(page, operator.code(), jsEnabled);
  await expect(page).toHaveURL(`${server.url}${next}`);
  if (jsEnabled) await waitForHydration(page);
}

async function otherBrowser(browser: Browser, jsEnabled: boolean) {
  const context = await browser.newContext({
    javaScriptEnabled: jsEnabled,
    userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  });
  return { context, page: await context.newPage() };
}

test("the sessions list shows each browser, and Log out ends the other one", async ({ page, browser, jsEnabled }) => {
  const operator = operatorWithCodes();
  await logInAs(page, operator, jsEnabled, "/inbox/security");
  const other = await otherBrowser(browser, jsEnabled);
  try {
    await logInAs(other.page, operator, jsEnabled);

    await page.reload();
    if (jsEnabled) await waitForHydration(page);
    const sessions = page.getByRole("region", { name: words.page.sessions });
    await expect(sessions.getByRole("listitem")).toHaveCount(2);
    await expect(sessions.getByRole("listitem").first()).toContainText(words.sessions.thisBrowser);
    await expect(sessions.getByText("Firefox on Windows")).toBeVisible();
    await sessions.getByRole("button", { name: /^Log out Firefox on Windows, last seen / }).click();
    await expect(page.getByRole("status")).toHaveText(words.sessions.ended);
    await expect(sessions.getByRole("listitem")).toHaveCount(1);
    await expect(sessions).toContainText(words.sessions.onlyThis);

    // The other browser's cookie opens nothing any more.
    await other.page.goto(`${server.url}/inbox`);
    await expect(other.page).toHaveURL(/\/inbox\/login/);
  } finally {
    await other.context.close();
  }
});

test("Erase ten minutes after the last code asks for a code first, then erases at the second press", async ({
  page,
  jsEnabled,
}) => {
  const operator = operatorWithCodes();
  const token = randomUUID().slice(0, 8);
  const stored = await fetch(`${server.url}/contact`, {
    method: "POST",
    headers: { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      name: `Vlad ${token}`,
      email: `vlad-${token}@example.com`,
      message: `A coffin that opens by itself. ${token}`,
      security: "Freddy",
    }),
    redirect: "manual",
  });
  expect(stored.status).toBe(303);
  const enquiry = (JSON.parse(inboxCli(["--json"], undefined, server)) as { id: string; email: string }[]).find(
    (item) => item.email === `vlad-${token}@example.com`,
  )!;
  const erasePage = `${server.url}/inbox/${enquiry.id}/erase`;

  await logInAs(page, operator, jsEnabled);
  operator.ageFactor();
  await page.goto(erasePage);
  if (jsEnabled) await waitForHydration(page);
  await page.getByRole("button", { name: inboxCopy.erase.confirm }).click();
  await expect(page).toHaveURL(/\/inbox\/verify\?next=.*&again=1$/);
  await expect(page.getByText(words.verify.againIntro)).toBeVisible();
  await expect(page.getByText(words.verify.againWhy.erase)).toBeVisible();
  // Nothing erased yet.
  expect(inboxCli(["--json"], undefined, server)).toContain(enquiry.id);

  await typeCode(page, operator.code(), jsEnabled);
  await expect(page).toHaveURL(erasePage);
  if (jsEnabled) await waitForHydration(page);
  await page.getByRole("button", { name: inboxCopy.erase.confirm }).click();
  await expect(page).toHaveURL(`${server.url}/inbox?erased=1`);
  expect(inboxCli(["--json"], undefined, server)).not.toContain(enquiry.id);
});
