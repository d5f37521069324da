import { mkdirSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { defaultSiteContent } from "../../app/site-content/schema.server";
import { waitlistForm, waitlistPage } from "../../app/wording/waitlist";
import { publishSite } from "../support/site-page";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { expect, seriousA11yViolations, test, widths } from "./fixtures";
import { serveDuringFile } from "./file-server";
import { e2eServers } from "./servers";

/**
 * "Tell me when orders open" from the closed home page, with JavaScript on and off, through a real SMTP server: the
 * form, a bad address kept with its message, the same words after a good one, the confirmation e-mail's link, its
 * Confirm button. Screenshots of the closed home page with the form at 390 and 1280 px go to /tmp/shots-waitlist.
 */

const pick = (jsEnabled: boolean) => (jsEnabled ? e2eServers.waitlistJs : e2eServers.waitlistNoJs);
serveDuringFile(pick);
test.describe.configure({ mode: "serial" });

let sink: SmtpSink | undefined;
// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures from the first parameter
test.beforeAll(async ({}, testInfo) => {
  const server = pick(testInfo.project.use.javaScriptEnabled !== false);
  sink = await startSmtpSink({ port: server.smtpPort });
  await publishSite(`file:${server.database}`, {
    ...defaultSiteContent,
    season: {
      ...defaultSiteContent.season,
      year: 2027,
      ordersOpen: false,
      closedLine: "Orders for 2027 open in spring.",
    },
  }).catch((error: Error) => {
    if (!/unchanged/.test(error.message)) throw error; // published by an earlier run on the same database
  });
});
test.afterAll(async () => {
  await sink?.stop();
});

test("a visitor asks from the closed home page and confirms from the e-mail's link", async ({
  page,
  open,
  jsEnabled,
}) => {
  test.setTimeout(60_000);
  const server = pick(jsEnabled);
  const email = `bat-${randomUUID().slice(0, 8)}@example.com`;
  await expect
    .poll(async () => (await fetch(`${server.url}/`).then((r) => r.text())).includes("data-waitlist"))
    .toBe(true);
  await open(`${server.url}/`);
  const form = page.locator("[data-waitlist]");
  await expect(form.getByRole("heading", { name: waitlistForm.heading })).toBeVisible();
  await expect(form.getByRole("link", { name: waitlistForm.privacyLink })).toHaveAttribute("href", "/privacy");
  expect(await seriousA11yViolations(page)).toEqual([]);

  if (jsEnabled) {
    mkdirSync("/tmp/shots-waitlist", { recursive: true });
    for (const [name, width] of Object.entries(widths)) {
      await page.setViewportSize({ width, height: 900 });
      await form.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `/tmp/shots-waitlist/home-closed-${name}-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  // A bad address: the message beside the field, what was typed kept.
  await page.waitForTimeout(3_100); // the form's 3-second minimum, as a person takes it
  await form.getByLabel(waitlistForm.emailLabel).fill("bat at example");
  await form.getByRole("button", { name: waitlistForm.submitLabel }).click();
  await expect(page.getByText(waitlistPage.emailInvalid)).toBeVisible();
  const again = page.locator("[data-waitlist]");
  await expect(again.getByLabel(waitlistForm.emailLabel)).toHaveValue("bat at example");
  await expect(again.getByLabel(waitlistForm.emailLabel)).toHaveAttribute("aria-invalid", "true");

  await page.waitForTimeout(3_100);
  await again.getByLabel(waitlistForm.emailLabel).fill(email);
  await again.getByRole("button", { name: waitlistForm.submitLabel }).click();
  await expect(page.getByText(waitlistPage.asked)).toBeVisible();
  await expect(page).toHaveURL(/\/waitlist\?asked=1$/);

  await expect.poll(() => sink!.messages.filter((mail) => mail.envelope.to.includes(email)).length).toBe(1);
  const [mail] = sink!.messages.filter((message) => message.envelope.to.includes(email));
  const link = new RegExp(`${server.url}/waitlist/confirm/[0-9a-f]{64}`).exec(mail!.text)![0];
  await page.goto(link);
  await expect(page.getByRole("heading", { name: waitlistPage.confirmHeading })).toBeVisible();
  await page.getByRole("button", { name: waitlistPage.confirmButton }).click();
  await expect(page.getByRole("heading", { name: waitlistPage.confirmedHeading })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
});
