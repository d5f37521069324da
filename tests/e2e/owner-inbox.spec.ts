import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { inboxCopy } from "../../app/wording/inbox";
import { repliesCopy } from "../../app/wording/replies";
import { expect, seriousA11yViolations, test } from "./fixtures";
import { asClient, cliEnquiries, logIn, newOperator, openOwnEnquiry, owner, sendEnquiry } from "./owner";
import { e2eServers } from "./servers";

/**
 * The owner's inbox at /inbox, with JavaScript on and off: an operator added with the CLI logs in, finds an enquiry
 * the contact form stored, opens it, marks it handled, exports CSV and erases it; the login's refusals and the
 * session's end. Each test has its own operator, client address and enquiry token (both projects share one server).
 */

test("an operator logs in, reads, handles and exports an enquiry", async ({ page, open, jsEnabled }) => {
  test.setTimeout(60_000); // many pages and three axe runs
  const token = randomUUID().slice(0, 8);
  const operator = newOperator();
  await asClient(page);
  await sendEnquiry(page, open, token);

  // Not logged in: the inbox sends the visitor to the login, which comes back afterwards.
  await page.goto(`${owner.url}/inbox?folder=all&q=${token}`);
  await expect(page).toHaveURL(/\/inbox\/login\?next=/);
  await expect(page.getByRole("heading", { name: inboxCopy.login.heading })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await logIn(page, operator);
  await expect(page).toHaveURL(new RegExp(`/inbox\\?folder=all&q=${token}$`));
  if (jsEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });

  const row = page.getByRole("article", { name: `Vlad ${token}` });
  await expect(row).toContainText(`vlad-${token}@example.com`);
  await expect(row).toContainText("A coffin that opens by itself.");
  await expect(row).toContainText(/just now|minute/);
  await expect(row).toContainText("unread");
  expect(await seriousA11yViolations(page)).toEqual([]);

  // With JavaScript the inbox navigates without reloading the document.
  if (jsEnabled) await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await row.getByRole("link", { name: `Vlad ${token}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Vlad ${token}` })).toBeVisible();
  if (jsEnabled) expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await expect(page.getByText("Second line.")).toBeVisible();
  // This server sends no mail itself: the Reply form is a link to the owner's mail program.
  await expect(page.getByRole("link", { name: inboxCopy.enquiry.reply, exact: true })).toHaveAttribute(
    "href",
    "#reply",
  );
  const reply = page.getByRole("link", { name: repliesCopy.mailto });
  await expect(reply).toHaveAttribute("href", new RegExp(`^mailto:vlad-${token}@example\\.com\\?subject=`));
  expect(await seriousA11yViolations(page)).toEqual([]);
  const id = page.url().split("/inbox/")[1]!.split("?")[0]!;
  expect(cliEnquiries().find((e) => e.id === id)?.status).toBe("read");

  await page.getByRole("button", { name: inboxCopy.enquiry.markHandled }).click();
  await expect(page.getByRole("status")).toHaveText("Marked handled.");
  await expect(page.getByRole("button", { name: inboxCopy.enquiry.markNew })).toBeVisible();
  expect(cliEnquiries().find((e) => e.id === id)?.status).toBe("handled");

  // Download CSV of the Handled folder searched for this token.
  await page.goto(`${owner.url}/inbox?folder=handled&q=${token}`);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: inboxCopy.list.download }).click(),
  ]);
  const csv = await readFile((await download.path())!, "utf8");
  expect(
    csv.startsWith(
      "\uFEFFid,receivedAt,status,name,email,message,notifications,stage,lostReason,quoteAmount,quoteValidUntil,depositAmount,neededBy,service\r\n",
    ),
  ).toBe(true);
  expect(csv).toContain(`${id},`);
  expect(csv).toContain(",handled,");
  expect(csv.split("\r\n").filter((line) => line.includes(id))).toHaveLength(1);
  await page.goto(`${owner.url}/inbox/activity`);
  await expect(page.getByText("exported CSV").first()).toBeVisible();
});

test("an operator erases an enquiry: a confirmation that names what goes, then nothing is left", async ({
  page,
  open,
}) => {
  test.setTimeout(60_000);
  const { token, id } = await openOwnEnquiry(page, open);

  // Erase: a confirmation page that names what goes, then nothing of that address is left.
  await page.goto(`${owner.url}/inbox/${id}`);
  await page.getByRole("button", { name: inboxCopy.enquiry.erase }).click();
  await expect(page.getByRole("heading", { name: inboxCopy.erase.title })).toBeVisible();
  await expect(page.getByText(`vlad-${token}@example.com`)).toBeVisible();
  await expect(page.getByText(/1 enquiry and \d notifications? will be deleted/)).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole("button", { name: inboxCopy.erase.confirm }).click();
  await expect(page.getByRole("status")).toHaveText("Erased 1 enquiry.");
  expect(cliEnquiries().some((e) => e.email === `vlad-${token}@example.com`)).toBe(false);

  await page.goto(`${owner.url}/inbox/activity`);
  await expect(page.getByText("erased").first()).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
});

test("spam and back, handled and back to new, as plain forms", async ({ page, open }) => {
  test.setTimeout(60_000);
  const { token, id } = await openOwnEnquiry(page, open);

  await page.getByRole("button", { name: inboxCopy.enquiry.markSpam }).click();
  await expect(page.getByRole("status")).toHaveText(inboxCopy.enquiry.done.spam!);
  expect(cliEnquiries().find((e) => e.id === id)?.status).toBe("spam");
  await page.goto(`${owner.url}/inbox?folder=spam&q=${token}`);
  await expect(page.getByRole("link", { name: `Vlad ${token}` })).toBeVisible();
  await page.goto(`${owner.url}/inbox/${id}`);
  await page.getByRole("button", { name: inboxCopy.enquiry.notSpam }).click();
  await expect(page.getByRole("status")).toHaveText(inboxCopy.enquiry.done["not-spam"]!);
  // Not spam made it new; the page the owner is looking at marks it read again.
  expect(cliEnquiries().find((e) => e.id === id)?.status).toBe("read");

  await page.getByRole("button", { name: inboxCopy.enquiry.markHandled }).click();
  await expect(page.getByRole("status")).toHaveText("Marked handled.");
  await page.getByRole("button", { name: inboxCopy.enquiry.markNew }).click();
  await expect(page).toHaveURL(`${owner.url}/inbox`);
  expect(cliEnquiries().find((e) => e.id === id)?.status).toBe("new");
  // Its page by address (a bookmark, a new tab) shows it and changes nothing: only the list's post marks it read.
  await page.goto(`${owner.url}/inbox/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: `Vlad ${token}` })).toBeVisible();
  expect(cliEnquiries().find((e) => e.id === id)?.status).toBe("new");
});

test("a wrong password and an unknown address get the same answer", async ({ page, open }) => {
  test.setTimeout(60_000);
  const operator = newOperator();
  await asClient(page);
  for (const attempt of [
    { email: operator.email, password: "not the right password" },
    { email: `nobody-${randomUUID()}@example.com`, password: operator.password },
  ]) {
    await open(`${owner.url}/inbox/login`);
    await logIn(page, attempt);
    await expect(page.getByRole("alert")).toHaveText(inboxCopy.login.wrong);
    await expect(page).toHaveURL(/\/inbox\/login/);
  }
});

test("after 5 failures the account is throttled from that address only", async ({ page, open, browser }) => {
  test.setTimeout(60_000);
  const operator = newOperator();
  await asClient(page);
  for (let i = 0; i < 5; i++) {
    await open(`${owner.url}/inbox/login`);
    await logIn(page, { email: operator.email, password: `wrong password number ${i}` });
    await expect(page.getByRole("alert")).toHaveText(inboxCopy.login.wrong);
  }
  // Even the right password waits now, from this address.
  await open(`${owner.url}/inbox/login`);
  const answer = page.waitForResponse((response) => response.request().method() === "POST");
  await logIn(page, operator);
  expect((await answer).status()).toBe(429);
  await expect(page.getByRole("alert")).toHaveText(inboxCopy.login.throttled(15));

  // The owner, elsewhere, is not locked out by it.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const elsewhere = await context.newPage();
  await asClient(elsewhere);
  await elsewhere.goto(`${owner.url}/inbox/login`);
  await logIn(elsewhere, operator);
  await expect(elsewhere).toHaveURL(`${owner.url}/inbox`);
  await context.close();
});

test("after logout the old cookie opens nothing", async ({ page, open, browser }) => {
  test.setTimeout(60_000);
  const operator = newOperator();
  await asClient(page);
  await open(`${owner.url}/inbox/login`);
  await logIn(page, operator);
  await expect(page).toHaveURL(`${owner.url}/inbox`);
  const [cookie] = await page.context().cookies(owner.url);
  expect(cookie).toMatchObject({ name: "inbox_session", httpOnly: true, sameSite: "Strict", path: "/" });
  expect(cookie!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);

  // The logout page (a link to /inbox/logout) has one button; the inbox's own header has the same.
  await open(`${owner.url}/inbox/logout`);
  await expect(page.getByRole("heading", { name: inboxCopy.nav.logout })).toBeVisible();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await page.getByRole("main").getByRole("button", { name: inboxCopy.nav.logout }).last().click();
  await expect(page).toHaveURL(/\/inbox\/login\?out=1$/);
  await expect(page.getByRole("status")).toHaveText(inboxCopy.login.loggedOut);

  const context = await browser.newContext();
  await context.addCookies([cookie!]);
  const replay = await context.request.get(`${owner.url}/inbox`, { maxRedirects: 0 });
  expect(replay.status()).toBe(302);
  expect(replay.headers()["location"]).toMatch(/^\/inbox\/login/);
  await context.close();
});

test("a cross-site post is refused, with the session cookie attached too", async ({ page, open }) => {
  test.setTimeout(60_000);
  const token = randomUUID().slice(0, 8);
  const operator = newOperator();
  await asClient(page);
  await sendEnquiry(page, open, token);
  await open(`${owner.url}/inbox/login?next=${encodeURIComponent(`/inbox?folder=all&q=${token}`)}`);
  await logIn(page, operator);
  await page.getByRole("link", { name: `Vlad ${token}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Vlad ${token}` })).toBeVisible();
  const id = page.url().split("/inbox/")[1]!.split("?")[0]!;

  // The session's own cookie, sent with another site's Origin (as a browser without SameSite would): 403. (A post
  // with neither header comes from no browser and passes: app/http/cross-site.ts.)
  const attacks: Record<string, string>[] = [
    { Origin: "http://attacker.example", "Sec-Fetch-Site": "cross-site" },
    { Origin: "http://attacker.example" },
    { "Sec-Fetch-Site": "cross-site" },
    { "Sec-Fetch-Site": "same-site", Origin: "http://www.attacker.example" },
  ];
  for (const headers of attacks) {
    const response = await page.request.post(`${owner.url}/inbox/${id}`, {
      form: { intent: "spam" },
      headers,
      maxRedirects: 0,
    });
    expect(response.status(), JSON.stringify(headers)).toBe(403);
  }
  // A real page on another site posting a form to the inbox.
  await page.route("http://attacker.example/", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><title>x</title><form method="post" action="${owner.url}/inbox/${id}"><input name="intent" value="spam"><button>Win a prize</button></form>`,
    }),
  );
  await page.goto("http://attacker.example/");
  const answer = page.waitForResponse(`${owner.url}/inbox/${id}`);
  await page.getByRole("button", { name: "Win a prize" }).click();
  expect((await answer).status()).toBe(403);
  expect(cliEnquiries().find((e) => e.id === id)?.status).toBe("read");
});

test("the inbox is private: no index, no store, not in the sitemap, absent with API_HOST", async ({ request }) => {
  const login = await request.get(`${owner.url}/inbox/login`);
  expect(login.headers()["x-robots-tag"]).toBe("noindex, nofollow");
  expect(login.headers()["cache-control"]).toMatch(/^no-store/);
  expect(login.headers()["content-security-policy"]).toMatch(/script-src 'self'( 'sha256-[^']+')+;/);
  const list = await request.get(`${owner.url}/inbox`, { maxRedirects: 0 });
  expect(list.status()).toBe(302);
  expect(list.headers()["cache-control"]).toBe("no-store");
  expect(await (await request.get(`${owner.url}/sitemap.xml`)).text()).not.toContain("inbox");
  for (const path of ["/inbox", "/inbox/login", "/inbox/activity", "/inbox/some-id"]) {
    expect((await request.get(`${e2eServers.site.url}${path}`, { maxRedirects: 0 })).status(), path).toBe(404);
  }
});
