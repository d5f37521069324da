import { randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { enquiryMessages } from "../../app/wording";
import { expect, test } from "./fixtures";
import { expectValues, fill, send, status } from "./form";
import { inboxEntriesCarrying } from "./inbox";
import { e2eServers, stuckDatabase } from "./servers";
import { enquiry } from "../support/enquiry";

/** The embedded inbox behind the form, with JavaScript on and off: duplicates, and a database that stops answering. */

test("a resubmitted enquiry is thanked again and stored once", async ({ page, open }) => {
  const token = randomUUID();
  const values = enquiry(token);
  for (let i = 0; i < 2; i++) {
    await open(`${e2eServers.embedded.url}/contact`);
    await fill(page, values);
    await send(page);
    await expect(status(page)).toHaveText(enquiryMessages.success);
  }
  expect(inboxEntriesCarrying(token)).toHaveLength(1);
});

test("a database that stops answering gets a clear message within seconds, keeps the words, and recovers", async ({
  page,
  open,
}) => {
  test.setTimeout(45_000);
  const token = randomUUID();
  const values = enquiry(token);
  await open(`${e2eServers.stuck.url}/contact`);
  await fill(page, values);
  // Another process takes the write lock and keeps it: to the site the database has stopped answering. (The other
  // project's test waits here for its turn.)
  const blocker = new DatabaseSync(stuckDatabase, { timeout: 30_000 });
  blocker.exec("BEGIN EXCLUSIVE");
  try {
    await send(page);
    await expect(status(page)).toHaveText(/^Error: Server: .*send it again/i);
    await expectValues(page, values);
  } finally {
    blocker.exec("ROLLBACK");
    blocker.close();
  }
  await send(page);
  await expect(status(page)).toHaveText(enquiryMessages.success);
  expect(inboxEntriesCarrying(token, stuckDatabase)).toHaveLength(1);
});
