import { randomInt, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { contactForm, enquiryMessages } from "../../app/wording";
import { enquiryFields, type Enquiry } from "../../app/enquiry/fields";
import { formatErrors } from "../../app/enquiry/api-answer";
import { serveDuringFile } from "./file-server";
import { expect, test } from "./fixtures";
import { e2eServers } from "./servers";
import { enquiry } from "../support/enquiry";

/**
 * The per-client enquiry limit in a real browser, with and without JavaScript, on the site started with
 * TRUST_PROXY=1 and RATE_LIMIT_CLIENT_PER_HOUR=1. Each test is its own client: it sends the X-Forwarded-For a proxy
 * would, with an address no other test uses.
 */

const serverFor = (jsEnabled: boolean) => (jsEnabled ? e2eServers.limitedJs : e2eServers.limitedNoJs);
serveDuringFile(serverFor);

async function received(token: string): Promise<unknown[]> {
  return (await fetch(`${e2eServers.upstream.url}/__control/received?token=${encodeURIComponent(token)}`)).json();
}

async function fillAndSend(page: Page, values: Enquiry) {
  for (const key of Object.keys(values) as (keyof Enquiry)[])
    await page.getByLabel(enquiryFields[key].label).fill(values[key]);
  await page.getByRole("button", { name: contactForm.submitLabel }).click();
}

test("past the hourly allowance, an enquiry is refused with Error: ..., keeps the fields and is not forwarded", async ({
  page,
  jsEnabled,
}) => {
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` });
  const token = randomUUID();
  const values = enquiry(token);
  const status = page.getByRole("status");
  const site = serverFor(jsEnabled).url;
  const open = async () => {
    await page.goto(`${site}/contact`);
    if (jsEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  };

  await open();
  await fillAndSend(page, values);
  await expect(status).toHaveText(enquiryMessages.success);

  await open();
  await fillAndSend(page, values);
  const refusal = formatErrors([
    { title: enquiryMessages.rateLimitedTitle, detail: enquiryMessages.rateLimitedClient },
  ]);
  await expect(status).toHaveText(refusal);
  expect(refusal).toMatch(/^Error: .*try again later\.$/);
  for (const key of Object.keys(values) as (keyof Enquiry)[]) {
    await expect(page.getByLabel(enquiryFields[key].label)).toHaveValue(values[key]);
  }
  expect(await received(token)).toHaveLength(1);
});
