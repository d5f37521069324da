import { randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import { enquiryMessages } from "../../app/content/site";
import type { Enquiry } from "../../app/enquiry/fields";
import { expect, test } from "./fixtures";
import { expectValues, fill, send, status } from "./form";
import { e2eServers, embeddedDatabase, stuckDatabase } from "./servers";

/** The embedded inbox behind the form, with JavaScript on and off: duplicates, and a database that stops answering. */

function enquiry(): Enquiry {
  const token = randomUUID();
  return { name: "Elvira Mist", email: `elvira-${token}@example.com`, message: `A fog-filled crypt entrance. ${token}`, security: "Freddy" };
}

/** How many enquiries the database holds from this address (read beside the server, as a second process would). */
function storedFrom(database: string, email: string): number {
  const db = new DatabaseSync(database, { readOnly: true, timeout: 5_000 });
  try {
    return Number((db.prepare("SELECT COUNT(*) AS n FROM enquiries WHERE email = ?").get(email) as { n: number }).n);
  } finally {
    db.close();
  }
}

test("a resubmitted enquiry is thanked again and stored once", async ({ page, open }) => {
  const values = enquiry();
  for (let i = 0; i < 2; i++) {
    await open(`${e2eServers.embedded.url}/contact`);
    await fill(page, values);
    await send(page);
    await expect(status(page)).toHaveText(enquiryMessages.success);
  }
  expect(storedFrom(embeddedDatabase, values.email)).toBe(1);
});

test("a database that stops answering gets a clear message within seconds, keeps the words, and recovers", async ({ page, open }) => {
  test.setTimeout(45_000);
  const values = enquiry();
  await open(`${e2eServers.stuck.url}/contact`);
  await fill(page, values);
  // Another process takes the write lock and keeps it: to the site the database has stopped answering. (The other
  // project's test waits here for its turn.)
  const blocker = new DatabaseSync(stuckDatabase, { timeout: 30_000 });
  blocker.exec("BEGIN EXCLUSIVE");
  try {
    await send(page);
    await expect(status(page)).toHaveText(/^Error: Server: .*try again/i);
    await expectValues(page, values);
  } finally {
    blocker.exec("ROLLBACK");
    blocker.close();
  }
  await send(page);
  await expect(status(page)).toHaveText(enquiryMessages.success);
  expect(storedFrom(stuckDatabase, values.email)).toBe(1);
});
