import { randomUUID } from "node:crypto";
import { repliesCopy } from "../../app/wording/replies";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { expect, seriousA11yViolations, test, widths } from "./fixtures";
import { serveDuringFile } from "./file-server";
import { asClient, logIn, newOperator } from "./owner";
import { e2eServers } from "./servers";

/**
 * Replying to a customer from the enquiry's page, with JavaScript on and off, through a real SMTP server: the form
 * starts with "Re: …", a refused post keeps what was typed and says why, a reply is sent once, threaded on the
 * enquiry's notification, and the page shows it sent with the stage at Replied. One server (and SMTP server) per
 * project.
 */

const pick = (jsEnabled: boolean) => (jsEnabled ? e2eServers.repliesJs : e2eServers.repliesNoJs);
serveDuringFile(pick);

let sink: SmtpSink | undefined;
// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures from the first parameter
test.beforeAll(async ({}, testInfo) => {
  sink = await startSmtpSink({ port: pick(testInfo.project.use.javaScriptEnabled !== false).smtpPort });
});
test.afterAll(async () => {
  await sink?.stop();
});

test("the owner replies from the enquiry's page; the customer gets it once, threaded", async ({
  page,
  open,
  jsEnabled,
}) => {
  test.setTimeout(60_000);
  const server = pick(jsEnabled);
  const token = randomUUID().slice(0, 8);
  const customer = `raven-${token}@example.com`;
  const operator = newOperator(server);
  await asClient(page);
  const posted = await fetch(`${server.url}/api/site/save-contact`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      name: `Raven ${token}`,
      email: customer,
      message: `A raven that blinks. ${token}`,
      security: "Freddy",
    }),
  });
  expect(posted.status).toBe(204);

  await open(`${server.url}/inbox/login?next=${encodeURIComponent(`/inbox?q=${token}`)}`);
  await logIn(page, operator);
  await page.getByRole("link", { name: `Raven ${token}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Raven ${token}` })).toBeVisible();
  const id = page.url().split("/inbox/")[1]!.split("?")[0]!;

  const subject = page.getByLabel(repliesCopy.subjectLabel);
  const message = page.getByLabel(repliesCopy.messageLabel);
  await expect(subject).toHaveValue("Re: Your enquiry to Grimforge Haunt Props");
  expect(await seriousA11yViolations(page)).toEqual([]);

  // Refused: no subject. What was typed stays, and the reason is said.
  await subject.fill("");
  await message.fill(`Hello Raven,\nit blinks twice. ${token}`);
  await page.getByRole("button", { name: repliesCopy.send }).click();
  await expect(page.getByRole("alert")).toContainText(repliesCopy.subjectMissing);
  await expect(message).toHaveValue(`Hello Raven,\nit blinks twice. ${token}`);
  expect(await seriousA11yViolations(page)).toEqual([]);

  await subject.fill(`Re: your raven ${token}`);
  await page.getByRole("button", { name: repliesCopy.send }).click();
  await expect(page.getByRole("status").filter({ hasText: repliesCopy.done })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/inbox/${id}\\?done=reply$`));
  // A new form: the message box is empty again, the list shows the reply.
  await expect(page.getByLabel(repliesCopy.messageLabel)).toHaveValue("");
  await expect(page.getByRole("heading", { name: `Re: your raven ${token}` })).toBeVisible();

  await expect.poll(() => sink!.messages.filter((mail) => mail.envelope.to.includes(customer)).length).toBe(1);
  const [notification] = sink!.forEnquiry(id).filter((mail) => mail.envelope.to.includes("owner@grimforge.example"));
  const [reply] = sink!.messages.filter((mail) => mail.envelope.to.includes(customer));
  expect(reply!.headers.get("subject")).toEqual([`Re: your raven ${token}`]);
  expect(reply!.headers.get("in-reply-to")).toEqual(notification!.headers.get("message-id"));
  expect(reply!.text).toContain(`Hello Raven,\nit blinks twice. ${token}`);

  // Reloaded once the sender has settled it: sent.
  await expect
    .poll(async () => {
      await page.reload();
      return page.locator("[data-mail-state]").first().getAttribute("data-mail-state");
    })
    .toBe("sent");
  await expect(page.getByText(repliesCopy.list.sent, { exact: false }).first()).toBeVisible();
  // Readable on a phone: the form and the list fit 390 px without scrolling sideways.
  await page.setViewportSize({ width: widths.phone, height: 900 });
  const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, window: innerWidth }));
  expect(sizes.scroll).toBeLessThanOrEqual(sizes.window);
  expect(sink!.messages.filter((mail) => mail.envelope.to.includes(customer))).toHaveLength(1);
});
