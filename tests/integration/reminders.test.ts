import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addDays, localDay } from "~/store/reminder-time";
import { enquiry } from "../support/enquiry";
import { runInbox } from "../support/inbox-command";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { postForm, sendAs, type Answer } from "../support/site-http";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../support/smtp-sink";
import { startWebhookReceiver, type ReceivedPost, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * The owner's reminders through two built servers on one PostgreSQL database, a real SMTP server and a real webhook
 * receiver: "Remind me" set on the enquiry page's plain form for a day whose REMINDER_HOUR has come in SITE_TIMEZONE (a
 * fixed-offset zone where it is about noon now, and 12 as the hour, so no day boundary is near) goes out at once, as
 * one e-mail and one webhook post naming the customer and linking to the enquiry, whichever instance takes it; a
 * restart sends it no second time. "Tomorrow" sends nothing today; moved to today, it goes out. Refused dates say so
 * and keep what was typed. The inbox's first page lists what is due today.
 */

const publicUrl = "https://haunt.example";
const operator = "owner@grimforge.example";
const password = "a lantern of carved turnips";

let postgres: TestDatabases | undefined;
let sink: SmtpSink;
let receiver: WebhookReceiver;
const sites: SiteServer[] = [];

beforeAll(async () => {
  await ensureBuilt();
  [sink, receiver] = await Promise.all([startSmtpSink(), startWebhookReceiver()]);
  if (postgresAvailable) postgres = await sharedPostgres();
}, 60_000);
afterAll(async () => {
  await Promise.all([sink?.stop(), receiver?.stop()]);
  await postgres?.stop();
});
beforeEach(() => {
  sink.messages.splice(0);
  receiver.posts.splice(0);
});
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
});

/** A fixed-offset zone where the local hour is 12 now (Etc/GMT-N is UTC+N), and that hour as REMINDER_HOUR. */
function dueAtNoon(): { SITE_TIMEZONE: string; REMINDER_HOUR: string } {
  const offset = 12 - new Date().getUTCHours();
  const zone = offset === 0 ? "Etc/GMT" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
  return { SITE_TIMEZONE: zone, REMINDER_HOUR: "12" };
}

async function site(databaseUrl: string): Promise<SiteServer> {
  const started = await startSite({
    API_HOST: "",
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: publicUrl,
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example",
    NOTIFY_EMAIL_FROM: "site@grimforge.example",
    NOTIFY_WEBHOOK_URL: receiver.url, // 127.0.0.1: the json format
    ...dueAtNoon(),
  });
  sites.push(started);
  return started;
}

const send = (target: SiteServer, path: string, options: Parameters<typeof sendAs>[3] = {}) =>
  sendAs(publicUrl, target.url, path, options);

async function logIn(target: SiteServer): Promise<string> {
  const login = await send(target, "/inbox/login", {
    method: "POST",
    body: { email: operator, password, next: "/inbox" },
  });
  expect(login.status).toBe(302);
  return login.headers["set-cookie"]![0]!.split(";")[0]!;
}

const reminderMails = (): ReceivedMail[] => sink.messages.filter((mail) => mail.headers.has("x-reminder"));
const reminderPosts = (): ReceivedPost[] =>
  receiver.posts.filter((post) => (post.json as { reminder?: unknown } | null)?.reminder !== undefined);

/** The reminders' states on the enquiry page, in its order. */
const states = (page: Answer) => [...page.text.matchAll(/data-reminder="(\w+)"/g)].map((match) => match[1]);
/** The open reminders' ids on the page (their forms' hidden field), in its order. */
const reminderIds = (page: Answer) => [
  ...new Set([...page.text.matchAll(/name="reminder" value="([^"]+)"/g)].map((match) => match[1]!)),
];

describe.skipIf(!postgresAvailable)("reminders through two instances on one PostgreSQL database", () => {
  it(
    "set for today after its hour: one e-mail and one webhook post, at once, once; a restart sends it no second time",
    { timeout: 60_000 },
    async () => {
      const databaseUrl = await postgres!.createDatabase();
      const added = await runInbox(["operator", "add", operator], {
        env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
        input: `${password}\n`,
      });
      expect(added.status, added.stderr).toBe(0);
      const [a, b] = await Promise.all([site(databaseUrl), site(databaseUrl)]);
      expect((await postForm(a!.url, enquiry(undefined, { name: "Morticia\u0007 Addams" }))).status).toBe(303);
      const [stored] = await a!.stored();
      const id = stored!.id;
      const cookie = await logIn(a!);
      const today = localDay(new Date(), dueAtNoon().SITE_TIMEZONE);
      const page = `/inbox/${id}`;

      // Refused: a day gone by, and words that are no date; each says why and keeps what was typed.
      const past = await send(b!, page, { method: "POST", cookie, body: { intent: "remind", date: "2020-01-31" } });
      expect(past.status).toBe(422);
      expect(past.text).toContain("That date has passed. Choose today or a later day.");
      expect(past.text).toContain('value="2020-01-31"');
      const garbled = await send(b!, page, { method: "POST", cookie, body: { intent: "remind", date: "31/01/2027" } });
      expect(garbled.status).toBe(422);
      expect(garbled.text).toContain("That date could not be read.");
      expect(garbled.text).toContain('value="31/01/2027"');

      // "Remind me" today, on instance b: its hour (12:00 there) has come, so it goes out at once.
      const set = await send(b!, page, { method: "POST", cookie, body: { intent: "remind", date: today } });
      expect(set.status).toBe(303);
      expect(set.headers.location).toBe(`${page}?reminder=set#reminders`);
      await waitFor(
        async () => states(await send(a!, page, { cookie })).join() === "sent",
        "the reminder sent",
        30_000,
      );
      expect(reminderMails()).toHaveLength(1);
      expect(reminderPosts()).toHaveLength(1);
      const mail = reminderMails()[0]!;
      expect(mail.headers.get("subject")).toEqual(["Reminder: Morticia Addams"]);
      expect(mail.envelope.to).toEqual(["owner@grimforge.example"]);
      expect(mail.text).toContain(`${publicUrl}/inbox/${id}`);
      expect(mail.text).not.toContain("\u0007");
      const body = reminderPosts()[0]!.json as { content: string; reminder: Record<string, string> };
      expect(body.reminder).toMatchObject({ enquiryId: id, dueOn: today, name: "Morticia Addams" });
      expect(body.content).toContain("Reminder: Morticia Addams");
      expect(body.content).toContain(`${publicUrl}/inbox/${id}`);
      const sentBy = [a!, b!].flatMap((target) => target.logEvents("reminder").filter((e) => e.outcome === "sent"));
      expect(sentBy).toHaveLength(1);

      // On the inbox's first page until it is marked done.
      const inbox = await send(a!, "/inbox", { cookie });
      expect(inbox.text).toContain("Due today");
      expect(inbox.text).toMatch(new RegExp(`href="/inbox/${id}#reminders"[^>]*>Morticia Addams<`));

      // Both instances stopped and one started again: the sent reminder is not sent again. A second one set after the
      // restart goes out, which shows the restarted sender ran its rounds.
      await Promise.all(sites.splice(0).map((target) => target.stop()));
      const again = await site(databaseUrl);
      const cookieAgain = await logIn(again);
      const second = await send(again, page, {
        method: "POST",
        cookie: cookieAgain,
        body: { intent: "remind", date: today },
      });
      expect(second.status).toBe(303);
      await waitFor(() => reminderMails().length >= 2 && reminderPosts().length >= 2, "the second reminder", 30_000);
      await waitFor(
        async () => states(await send(again, page, { cookie: cookieAgain })).join() === "sent,sent",
        "both reminders sent",
        10_000,
      );
      expect(reminderMails()).toHaveLength(2);
      expect(new Set(reminderMails().map((m) => m.headers.get("x-reminder")![0])).size).toBe(2);
      expect(reminderPosts()).toHaveLength(2);

      // Marked done: off the inbox's first page.
      const [firstId, secondId] = reminderIds(await send(again, page, { cookie: cookieAgain }));
      for (const reminder of [firstId!, secondId!]) {
        const done = await send(again, page, {
          method: "POST",
          cookie: cookieAgain,
          body: { intent: "reminder-done", reminder },
        });
        expect(done.status).toBe(303);
      }
      expect(states(await send(again, page, { cookie: cookieAgain }))).toEqual(["done", "done"]);
      expect((await send(again, "/inbox", { cookie: cookieAgain })).text).not.toContain("Due today");
      const doneTwice = await send(again, page, {
        method: "POST",
        cookie: cookieAgain,
        body: { intent: "reminder-done", reminder: firstId! },
      });
      expect(doneTwice.status).toBe(409);
      expect(doneTwice.text).toContain("That reminder is gone or already done.");
    },
  );

  it('"Tomorrow" sends nothing today; moved to today, it goes out at once', { timeout: 60_000 }, async () => {
    const databaseUrl = await postgres!.createDatabase();
    const added = await runInbox(["operator", "add", operator], {
      env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
      input: `${password}\n`,
    });
    expect(added.status, added.stderr).toBe(0);
    const [a, b] = await Promise.all([site(databaseUrl), site(databaseUrl)]);
    expect((await postForm(a!.url, enquiry(undefined, { name: "Gomez Addams" }))).status).toBe(303);
    const [stored] = await a!.stored();
    const page = `/inbox/${stored!.id}`;
    const cookie = await logIn(a!);
    const today = localDay(new Date(), dueAtNoon().SITE_TIMEZONE);

    // The shortcut button: the date field is left empty, the button's value says which day.
    const set = await send(a!, page, {
      method: "POST",
      cookie,
      body: { intent: "remind", date: "", shortcut: "tomorrow" },
    });
    expect(set.status).toBe(303);
    const shown = await send(b!, page, { cookie });
    expect(states(shown)).toEqual(["pending"]);
    expect(shown.text).toContain(`value="${addDays(today, 1)}"`); // the Move form's date
    expect((await send(b!, "/inbox", { cookie })).text).not.toContain("Due today");
    const unknown = await send(a!, page, { method: "POST", cookie, body: { intent: "remind", shortcut: "someday" } });
    expect(unknown.status).toBe(400);

    const [id] = reminderIds(shown);
    const backwards = await send(b!, page, {
      method: "POST",
      cookie,
      body: { intent: "reminder-move", reminder: id!, date: addDays(today, -1) },
    });
    expect(backwards.status).toBe(422);
    expect(backwards.text).toContain("That date has passed.");
    expect(backwards.text).toContain(`value="${addDays(today, -1)}"`);
    expect(reminderMails()).toEqual([]);

    const moved = await send(b!, page, {
      method: "POST",
      cookie,
      body: { intent: "reminder-move", reminder: id!, date: today },
    });
    expect(moved.status).toBe(303);
    await waitFor(async () => states(await send(a!, page, { cookie })).join() === "sent", "the moved reminder", 30_000);
    expect(reminderMails()).toHaveLength(1);
    expect(reminderPosts()).toHaveLength(1);
    expect(reminderMails()[0]!.headers.get("subject")).toEqual(["Reminder: Gomez Addams"]);
  });
});
