import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { inboxCopy } from "../../app/wording/inbox";
import { securityCopy } from "../../app/wording/security";
import { waitlistOwnerCopy } from "../../app/wording/waitlist-owner";
import { expect, seriousA11yViolations, test, waitForHydration, widths } from "./fixtures";
import { serveDuringFile } from "./file-server";
import { asClient, logIn, newOperator } from "./owner";
import { e2eServers, waitlistOwnerDatabases } from "./servers";

/**
 * The owner's Waitlist page in Chromium, with JavaScript on and off, the second factor required (issue 35): reached from
 * the navigation, the counts each beside its word, the addresses with their dates; Download CSV ten minutes after the
 * last code asks for a code first; Erase goes through its confirmation page and the address leaves the list; once a
 * publish (`site import`) opens orders, "Announce to N people" opens the prefilled words, Preview shows the mail with
 * its unsubscribe line, Send announcement stores it and the page shows "0 of N sent", then updates by itself as the
 * list's sender settles mail (here: the database changed as the sender would); a longer list goes 100 a page with
 * Previous and Next, and Erase on page 2 comes back to page 2. One server per project. Screenshots
 * at 390 and 1280 px into /tmp/shots-owner-waitlist.
 */

test.describe.configure({ mode: "serial" });
test.setTimeout(60_000);

const pick = (jsEnabled: boolean) => (jsEnabled ? e2eServers.waitlistOwnerJs : e2eServers.waitlistOwnerNoJs);
serveDuringFile(pick);

const copy = waitlistOwnerCopy;
const shots = "/tmp/shots-owner-waitlist";

function withDatabase<T>(jsEnabled: boolean, work: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(jsEnabled ? waitlistOwnerDatabases.js : waitlistOwnerDatabases.noJs, { timeout: 5_000 });
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** Addresses put on the list as the visitor's join and Confirm would leave them. */
function putOnList(jsEnabled: boolean, rows: { email: string; state: string; at: number }[]) {
  withDatabase(jsEnabled, (db) => {
    const insert = db.prepare(
      `INSERT INTO waitlist (id, email, state, created_at, confirm_token_hash, confirm_token_sealed, confirm_until,
         confirmed_at, unsubscribe_token_hash, unsubscribe_token_sealed, unsubscribed_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'sealed', ?)`,
    );
    for (const row of rows) {
      const id = randomUUID();
      const pending = row.state === "pending";
      insert.run(
        id,
        row.email,
        row.state,
        row.at,
        pending ? `confirm-${id}` : null,
        pending ? "sealed" : null,
        pending ? row.at + 7 * 86_400_000 : null,
        pending ? null : row.at + 3_600_000,
        `unsubscribe-${id}`,
        row.state === "unsubscribed" ? row.at + 86_400_000 : null,
      );
    }
  });
}

/** An operator with one-time codes; `code()` gives each code once, `ageFactor()` puts the last one 11 minutes back. */
function operatorWithCodes(jsEnabled: boolean) {
  const server = pick(jsEnabled);
  const operator = newOperator(server);
  const secret = new Secret({ size: 20 }).base32;
  const id = withDatabase(jsEnabled, (db) => {
    const { id } = db.prepare("SELECT id FROM operators WHERE email = ?").get(operator.email) as { id: string };
    db.prepare(
      "INSERT INTO totp_factors (operator_id, secret, created_at, confirmed_at, last_step) VALUES (?, ?, ?, ?, 1)",
    ).run(id, secret, Date.now(), Date.now());
    return id;
  });
  const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  let lastStep = 0;
  const code = () => {
    const step = Math.max(lastStep + 1, Math.floor(Date.now() / 30_000));
    lastStep = step;
    return totp.generate({ timestamp: step * 30_000 });
  };
  const ageFactor = () =>
    withDatabase(jsEnabled, (db) =>
      db.prepare("UPDATE sessions SET factor_at = ? WHERE operator_id = ?").run(Date.now() - 11 * 60_000, id),
    );
  return { ...operator, code, ageFactor };
}

async function typeCode(page: Page, code: string, jsEnabled: boolean) {
  if (jsEnabled) await waitForHydration(page);
  await page.getByLabel(securityCopy.verify.code, { exact: true }).fill(code);
  await page.getByRole("button", { name: securityCopy.verify.submit }).click();
}

/** Publishes the season as `npm run inbox -- site import` does (the server sees it within a second or two). */
function publishSeason(jsEnabled: boolean, season: { year: number; ordersOpen: boolean; closesOn: string | null }) {
  const server = pick(jsEnabled);
  const env = { ...process.env, DATABASE_URL: server.env.DATABASE_URL, PUBLIC_URL: server.url, API_HOST: "" };
  const cli = (args: string[]) =>
    execFileSync(process.execPath, ["build/server/cli.js", ...args], { env, encoding: "utf8" });
  const exported = JSON.parse(cli(["site", "export"])) as { content: { season: object } };
  exported.content.season = { ...exported.content.season, ...season };
  const dir = mkdtempSync(join(tmpdir(), "haunt-waitlist-e2e-"));
  try {
    const file = join(dir, "site.json");
    writeFileSync(file, JSON.stringify(exported));
    cli(["site", "import", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function screenshots(page: Page, name: string, jsEnabled: boolean) {
  mkdirSync(shots, { recursive: true });
  for (const width of [widths.phone, widths.desktop]) {
    await page.setViewportSize({ width, height: 900 });
    const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, window: innerWidth }));
    expect(sizes.scroll, `page width at ${width} px`).toBeLessThanOrEqual(sizes.window);
    await page.screenshot({ path: join(shots, `${name}-${width}${jsEnabled ? "" : "-no-js"}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: widths.desktop, height: 800 });
}

async function logInWithCode(page: Page, operator: ReturnType<typeof operatorWithCodes>, jsEnabled: boolean) {
  const server = pick(jsEnabled);
  await asClient(page);
  await page.goto(`${server.url}/inbox`);
  if (jsEnabled) await waitForHydration(page);
  await logIn(page, operator);
  await expect(page).toHaveURL(/\/inbox\/verify\?/);
  await typeCode(page, operator.code(), jsEnabled);
  await expect(page).toHaveURL(`${server.url}/inbox`);
  if (jsEnabled) await waitForHydration(page);
}

test("the list: counts, dates, Download CSV behind step-up, Erase an address", async ({ page, jsEnabled }) => {
  const server = pick(jsEnabled);
  const day = Date.parse("2026-10-01T09:00:00Z");
  putOnList(jsEnabled, [
    { email: "ava@fans.example", state: "confirmed", at: day },
    { email: "ben@fans.example", state: "confirmed", at: day + 86_400_000 },
    { email: "cy@fans.example", state: "confirmed", at: day + 2 * 86_400_000 },
    { email: "dot@fans.example", state: "pending", at: day + 3 * 86_400_000 },
    { email: "eli@fans.example", state: "unsubscribed", at: day + 4 * 86_400_000 },
  ]);
  publishSeason(jsEnabled, { year: 2026, ordersOpen: false, closesOn: null });
  const operator = operatorWithCodes(jsEnabled);
  await logInWithCode(page, operator, jsEnabled);

  await page.getByRole("navigation", { name: "Inbox" }).getByRole("link", { name: copy.nav }).click();
  await expect(page.getByRole("heading", { level: 1, name: copy.title })).toBeVisible();
  const counts = page.locator(`dl[aria-label="${copy.counts.label}"]`);
  await expect(counts).toContainText(`${copy.counts.pending}1`);
  await expect(counts).toContainText(`${copy.counts.confirmed}3`);
  await expect(counts).toContainText(`${copy.counts.unsubscribed}1`);
  await expect(page.getByText("eli@fans.example")).toBeVisible();
  await expect(
    page.getByText(
      "Asked 5 Oct 2026, 09:00 UTC · Confirmed 5 Oct 2026, 10:00 UTC · Unsubscribed 6 Oct 2026, 09:00 UTC",
    ),
  ).toBeVisible();
  await expect(page.getByText(copy.announce.closed)).toBeVisible();
  await expect(page.getByRole("link", { name: /^Announce to/ })).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshots(page, "waitlist", jsEnabled);

  // Download CSV ten minutes after the last code: the code page first, then back to press it again.
  operator.ageFactor();
  await page.getByRole("link", { name: copy.list.download }).click();
  await expect(page).toHaveURL(/\/inbox\/verify\?next=%2Finbox%2Fwaitlist&again=1$/);
  await expect(page.getByText(securityCopy.verify.againWhy["waitlist-export"])).toBeVisible();
  await typeCode(page, operator.code(), jsEnabled);
  await expect(page).toHaveURL(`${server.url}/inbox/waitlist`);
  if (jsEnabled) await waitForHydration(page);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: copy.list.download }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^waitlist-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, "utf8");
  expect(csv).toContain("email,state,askedAt,confirmedAt,unsubscribedAt");
  expect(csv).toContain("dot@fans.example,pending,2026-10-04T09:00:00.000Z,,");

  // Erase one address: its confirmation page, then gone from the list.
  await page.getByRole("button", { name: copy.list.eraseLabel("ben@fans.example") }).click();
  await expect(page.getByRole("heading", { level: 1, name: copy.erase.title })).toBeVisible();
  await expect(page.getByText("ben@fans.example")).toBeVisible();
  if (jsEnabled) await waitForHydration(page);
  await page.getByRole("button", { name: copy.erase.confirm }).click();
  await expect(page).toHaveURL(`${server.url}/inbox/waitlist?erased=1`);
  await expect(page.getByText(copy.erased)).toBeVisible();
  await expect(page.getByText("ben@fans.example")).toHaveCount(0);
  await expect(counts).toContainText(`${copy.counts.confirmed}2`);
});

test("the announcement: offered once a publish opens orders, previewed, sent, its progress shown", async ({
  page,
  jsEnabled,
}) => {
  const server = pick(jsEnabled);
  const operator = operatorWithCodes(jsEnabled);
  await logInWithCode(page, operator, jsEnabled);
  await page.goto(`${server.url}/inbox/waitlist`);
  await expect(page.getByText(copy.announce.closed)).toBeVisible();

  publishSeason(jsEnabled, { year: 2027, ordersOpen: true, closesOn: "2027-09-30" });
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("link", { name: "Announce to 2 people" })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 10_000 });
  if (jsEnabled) await waitForHydration(page);
  await page.getByRole("link", { name: "Announce to 2 people" }).click();

  const subject = page.getByLabel(copy.announce.subject);
  const message = page.getByLabel(copy.announce.message);
  await expect(subject).toHaveValue("Orders for the 2027 haunt season are open");
  await expect(message).toHaveValue(/We take orders until September 30, 2027\./);
  await message.fill("Dear fan,\nthe 2027 season is open. Write to us soon.");
  await page.getByRole("button", { name: copy.announce.preview }).click();
  const preview = page.getByRole("region", { name: copy.announce.previewHeading });
  await expect(preview).toContainText("This is the e-mail 2 people get");
  await expect(preview).toContainText("the 2027 season is open. Write to us soon.");
  await expect(preview).toContainText(copy.mail.unsubscribe(copy.mail.previewLink));
  // What was typed is still there to send.
  await expect(message).toHaveValue("Dear fan,\nthe 2027 season is open. Write to us soon.");
  await screenshots(page, "waitlist-preview", jsEnabled);

  if (jsEnabled) await waitForHydration(page);
  await page.getByRole("button", { name: copy.announce.send }).click();
  await expect(page).toHaveURL(`${server.url}/inbox/waitlist?done=announced`);
  await expect(page.getByText(copy.announce.done)).toBeVisible();
  await expect(page.getByText("0 of 2 sent")).toBeVisible();
  await expect(page.getByRole("link", { name: /^Announce to/ })).toHaveCount(0);

  // The list's sender settles the mail: the page follows by itself (every 2 s with JavaScript, 10 s without).
  if (jsEnabled) await waitForHydration(page);
  withDatabase(jsEnabled, (db) => {
    const ids = db
      .prepare("SELECT id FROM list_mail ORDER BY id")
      .all()
      .map((row) => String(row.id));
    db.prepare("UPDATE list_mail SET state = 'sent', sent_at = ? WHERE id = ?").run(Date.now(), ids[0]!);
    db.prepare("UPDATE list_mail SET state = 'failed', last_error = '550' WHERE id = ?").run(ids[1]!);
  });
  await expect(page.getByText("1 of 2 sent")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("1 could not be delivered")).toBeVisible();
  await screenshots(page, "waitlist-progress", jsEnabled);
});

test("a season's worth of addresses: 100 a page, Previous and Next, Erase on page 2 comes back there", async ({
  page,
  jsEnabled,
}) => {
  const server = pick(jsEnabled);
  // Older than the addresses above, so they follow them: the list now fills two pages.
  const before = Date.parse("2026-08-01T09:00:00Z");
  putOnList(
    jsEnabled,
    Array.from({ length: 150 }, (_, n) => ({
      email: `crowd${n + 1}@fans.example`,
      state: "confirmed",
      at: before + n * 60_000,
    })),
  );
  const total = withDatabase(jsEnabled, (db) => Number(db.prepare("SELECT COUNT(*) AS n FROM waitlist").get()!.n));
  const operator = operatorWithCodes(jsEnabled);
  await logInWithCode(page, operator, jsEnabled);
  await page.goto(`${server.url}/inbox/waitlist`);
  const pages = page.getByRole("navigation", { name: inboxCopy.list.pagesLabel });
  await expect(pages).toContainText(copy.list.showing(1, 100, total));
  await expect(page.getByRole("button", { name: /^Erase / })).toHaveCount(100);
  if (jsEnabled) await waitForHydration(page);
  await pages.getByRole("link", { name: inboxCopy.list.next }).click();
  await expect(page).toHaveURL(`${server.url}/inbox/waitlist?page=2#addresses`);
  await expect(pages).toContainText(copy.list.showing(101, total, total));
  await expect(page.getByText("crowd1@fans.example")).toBeVisible();
  // The totals stay the whole list's.
  await expect(page.locator(`dl[aria-label="${copy.counts.label}"]`)).toContainText(
    `${copy.counts.confirmed}${total - 2}`,
  );
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshots(page, "waitlist-page-2", jsEnabled);

  if (jsEnabled) await waitForHydration(page);
  await page.getByRole("button", { name: copy.list.eraseLabel("crowd2@fans.example") }).click();
  await expect(page).toHaveURL(/\/erase\?page=2$/);
  if (jsEnabled) await waitForHydration(page);
  await page.getByRole("button", { name: copy.erase.confirm }).click();
  await expect(page).toHaveURL(`${server.url}/inbox/waitlist?page=2&erased=1`);
  await expect(page.getByText(copy.erased)).toBeVisible();
  await expect(page.getByText("crowd2@fans.example")).toHaveCount(0);
  await expect(pages).toContainText(copy.list.showing(101, total - 1, total - 1));

  if (jsEnabled) await waitForHydration(page);
  await pages.getByRole("link", { name: inboxCopy.list.previous }).click();
  await expect(page).toHaveURL(`${server.url}/inbox/waitlist#addresses`);
  await expect(pages).toContainText(copy.list.showing(1, 100, total - 1));
});
