import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { errorPage, refusalPage, refusals } from "../../app/wording";
import { defaultBodyCap } from "../../app/http/body-cap";
import { inboxCopy } from "../../app/wording/inbox";
import { expect, test } from "./fixtures";
import { asClient, logIn, owner } from "./owner";
import { e2eServers, ownerAtDefaultDatabase, ownerDatabase } from "./servers";

/**
 * The login at the address the server prints: started with PUBLIC_URL at its default (localhost) and opened
 * at 127.0.0.1, and the two swapped, the owner logs in, JavaScript on and off. A post another site starts is still
 * refused, and the refusal is a page with a plain message with JavaScript on (Remix's data request) and off, never the error page.
 */

function newOperatorIn(databaseFile: string) {
  const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
  const password = `moonlit crypt ${randomUUID()}`;
  execFileSync(process.execPath, ["build/server/cli.js", "operator", "add", email], {
    env: { ...process.env, DATABASE_URL: `file:${databaseFile}`, API_HOST: "" },
    input: `${password}\n`,
  });
  return { email, password };
}

const printed = e2eServers.ownerAtDefault;
const atLocalhost = (url: string) => url.replace("127.0.0.1", "localhost");

test("PUBLIC_URL at its default (localhost), opened at 127.0.0.1: the login works", async ({ page, open }) => {
  const operator = newOperatorIn(ownerAtDefaultDatabase);
  await asClient(page);
  await open(`${printed.url}/inbox/login`);
  await logIn(page, operator);
  await expect(page).toHaveURL(`${printed.url}/inbox`);
  await expect(page.getByText(operator.email)).toBeVisible();
});

test("PUBLIC_URL at 127.0.0.1, opened at localhost: the login works", async ({ page, open }) => {
  const operator = newOperatorIn(ownerDatabase);
  await asClient(page);
  await open(`${atLocalhost(owner.url)}/inbox/login`);
  await logIn(page, operator);
  await expect(page).toHaveURL(`${atLocalhost(owner.url)}/inbox`);
  await expect(page.getByText(operator.email)).toBeVisible();
});

test("a login post another site started is refused on a page with a plain message", async ({
  page,
  open,
  jsEnabled,
}) => {
  const operator = newOperatorIn(ownerAtDefaultDatabase);
  await asClient(page);
  await open(`${printed.url}/inbox/login`);
  // The post goes out with the headers the browser would have sent had another site's page posted this form (Chromium
  // keeps its own Origin and Sec-Fetch-Site on a request it sends, so it is sent for it), and the server's real answer
  // is handed back to the page.
  await page.route(
    (url) => url.pathname.startsWith("/inbox/login"),
    async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      const headers = { ...route.request().headers(), origin: "http://evil.example", "sec-fetch-site": "cross-site" };
      await route.fulfill({ response: await route.fetch({ headers, maxRedirects: 0 }) });
    },
  );
  const answer = page.waitForResponse((r) => r.request().method() === "POST");
  await logIn(page, operator);
  const response = await answer;
  expect(response.status()).toBe(403);
  expect(new URL(response.url()).pathname).toBe(jsEnabled ? "/inbox/login.data" : "/inbox/login");
  await expect(page.getByRole("heading", { level: 1, name: refusalPage.heading })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveText(refusals.crossSite);
  await expect(page.getByText(errorPage.heading)).toHaveCount(0);
  // Not logged in: the inbox still sends to the login.
  await page.unrouteAll();
  await open(`${printed.url}/inbox`);
  await expect(page).toHaveURL(/\/inbox\/login/);
});

test("a login body over the cap: the login page again, the reason beside the form", async ({ page, open }) => {
  const operator = newOperatorIn(ownerAtDefaultDatabase);
  await asClient(page);
  await open(`${printed.url}/inbox/login`);
  // The form's own fields cannot grow this large (maxLength): a script's padding is added on the way out.
  await page.route(
    (url) => url.pathname.startsWith("/inbox/login"),
    async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      const postData = `${route.request().postData() ?? ""}&pad=${"a".repeat(defaultBodyCap)}`;
      await route.fulfill({ response: await route.fetch({ postData, maxRedirects: 0 }) });
    },
  );
  const answer = page.waitForResponse((r) => r.request().method() === "POST");
  await logIn(page, operator);
  expect((await answer).status()).toBe(413);
  await expect(page.getByRole("alert")).toHaveText(refusals.tooLarge(defaultBodyCap));
  await expect(page.getByLabel(inboxCopy.login.password)).toBeVisible();
  await expect(page.getByRole("button", { name: inboxCopy.login.submit, exact: true })).toBeVisible();
});
