import { addDays, localDay } from "../../app/store/reminder-time";
import { reminderCopy } from "../../app/wording/reminders";
import { expect, seriousA11yViolations, test, widths } from "./fixtures";
import { openOwnEnquiry, owner } from "./owner";

/**
 * "Remind me" on the enquiry page, with JavaScript on and off, on a phone's width: a shortcut button sets one for
 * tomorrow, the date field one for today (then on the inbox's first page under "Due today"), "Move" and "Mark done".
 * The e2e servers keep SITE_TIMEZONE's default, UTC, and have no channel: nothing is sent.
 */

test.use({ viewport: { width: widths.phone, height: 844 } });

const words = reminderCopy.form;

test("reminders are set, listed, moved and marked done with plain forms", async ({ page, open }) => {
  test.setTimeout(60_000);
  const { token, id } = await openOwnEnquiry(page, open);
  const today = localDay(new Date(), "UTC");
  const section = page.locator("#reminders");

  await section.getByRole("button", { name: words.shortcuts.tomorrow }).click();
  await expect(page.getByRole("status")).toHaveText(reminderCopy.done["reminder-set"]!);
  await expect(section.locator("[data-reminder]")).toHaveCount(1);
  await expect(section.locator("[data-reminder]")).toContainText(words.state.pending);

  await section.getByLabel(words.dateLabel, { exact: true }).fill(today);
  await section.getByRole("button", { name: words.set, exact: true }).click();
  await expect(page.getByRole("status")).toHaveText(reminderCopy.done["reminder-set"]!);
  await expect(section.locator("[data-reminder]")).toHaveCount(2);
  expect(await seriousA11yViolations(page)).toEqual([]);
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(widths.phone);

  await page.goto(`${owner.url}/inbox`);
  const due = page.getByRole("region", { name: reminderCopy.dueToday.heading });
  await expect(due.getByRole("link", { name: `Vlad ${token}` })).toHaveCount(1);
  await due.getByRole("link", { name: `Vlad ${token}` }).click();
  await expect(page).toHaveURL(new RegExp(`/inbox/${id}#reminders$`));

  // Today's moves to next week; tomorrow's is marked done.
  const todays = section.locator("[data-reminder]").first();
  await todays.getByLabel(words.moveLabel).fill(addDays(today, 7));
  await todays.getByRole("button", { name: words.move }).click();
  await expect(page.getByRole("status")).toHaveText(reminderCopy.done["reminder-moved"]!);
  const tomorrows = section.locator("[data-reminder]").first();
  await tomorrows.getByRole("button", { name: words.markDone }).click();
  await expect(page.getByRole("status")).toHaveText(reminderCopy.done["reminder-done"]!);
  await expect(section.locator('[data-reminder="done"]')).toHaveCount(1);
  await expect(section.locator('[data-reminder="pending"]')).toHaveCount(1);

  await page.goto(`${owner.url}/inbox`);
  // Off "Due today" (the other project's test, on the same server, may have its own there).
  await expect(
    page.getByRole("region", { name: reminderCopy.dueToday.heading }).getByRole("link", { name: `Vlad ${token}` }),
  ).toHaveCount(0);
});
