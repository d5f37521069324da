import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { acceptEnquiry } from "~/enquiry/accept.server";
import { defaultSiteContent, type Project } from "~/site-content/schema.server";
import { startFakeUpstream } from "../support/fake-upstream.mjs";
import { runInbox } from "../support/inbox-command";
import { sendAs, type Answer } from "../support/site-http";
import { publishSite } from "../support/site-page";
import { ensureBuilt, noRateLimits, startSite, waitFor, type SiteServer } from "../support/site-server";
import { testServices } from "../support/services";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { enquiry } from "../support/enquiry";

/**
 * "Ask for one like this": /contact?about={slug} of a published project, through the built server. The form starts
 * with the project's title and posts its id; the enquiry keeps the project's id, address and title; the owner's page,
 * the e-mail and the chat message name it; with API_HOST the message sent upstream ends with its line.
 */

const publicUrl = "http://haunt.example";
const owner = { email: "owner@grimforge.example", password: "a coffin full of lunging reapers" };
const project: Project = {
  id: "0123456789ab",
  slug: "reaper-with-pneumatic-lunge",
  formerSlugs: ["lunging-reaper"],
  title: "Reaper with pneumatic lunge",
  service: null,
  year: 2025,
  client: "",
  story: "",
  photos: [],
  videos: [],
  featured: false,
};
const content = { ...defaultSiteContent, projects: [project] };
const prefill = "About your build “Reaper with pneumatic lunge”: ";
const line = `About the build: Reaper with pneumatic lunge — ${publicUrl}/work/reaper-with-pneumatic-lunge`;

const temp = useTempDir("haunt-ask-about-");
let sink: SmtpSink;
let receiver: WebhookReceiver;
let site: SiteServer;

const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const textarea = (html: string) => unescapeHtml(/<textarea[^>]*>([\s\S]*?)<\/textarea>/.exec(html)?.[1] ?? "");
const hiddenAbout = (html: string) => /<input[^>]*name="about"[^>]*value="([^"]*)"/.exec(html)?.[1];
const formAction = (html: string) => unescapeHtml(/<form[^>]*action="([^"]*)"/.exec(html)?.[1] ?? "");

const get = (path: string, cookie?: string) => sendAs(publicUrl, site.url, path, { cookie });
const post = (path: string, body: Record<string, string>) =>
  sendAs(publicUrl, site.url, path, { method: "POST", body });
const sessionCookie = (headers: Answer["headers"]) => headers["set-cookie"]![0]!.split(";")[0]!;

beforeAll(async () => {
  await ensureBuilt();
  [sink, receiver] = await Promise.all([startSmtpSink(), startWebhookReceiver()]);
  const databaseUrl = `file:${temp.file("inbox.db")}`;
  const added = await runInbox(["operator", "add", owner.email], {
    env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
    input: `${owner.password}\n`,
  });
  expect(added.status, added.stderr).toBe(0);
  await publishSite(databaseUrl, content);
  site = await startSite({
    API_HOST: "",
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: publicUrl,
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example",
    NOTIFY_EMAIL_FROM: "site@grimforge.example",
    NOTIFY_WEBHOOK_URL: receiver.url,
    NOTIFY_WEBHOOK_FORMAT: "json",
  });
}, 60_000);
afterAll(async () => {
  await site?.stop();
  await Promise.all([sink?.stop(), receiver?.stop()]);
});

describe("/contact?about= of a published project", () => {
  it("starts the message with the project's title and carries its id, on a page no cache keeps", async () => {
    for (const slug of [project.slug, "lunging-reaper"]) {
      const page = await get(`/contact?about=${slug}`);
      expect(page.status).toBe(200);
      expect(textarea(page.text)).toBe(prefill);
      expect(hiddenAbout(page.text)).toBe(project.id);
      // Shown again after a refusal without JavaScript, the page still carries the project.
      expect(formAction(page.text)).toBe(`/contact?about=${project.slug}`);
      expect(page.headers["cache-control"]).toMatch(/no-store/);
      // Its own form token, as any contact page.
      expect(page.text).toMatch(/name="form_token" value="[^"]+"/);
    }
  });

  it.each([
    "no-such-build",
    "Reaper-With-Pneumatic-Lunge",
    "../../inbox",
    "%00",
    "reaper-with-pneumatic-lunge%0a",
    "x".repeat(300),
    "",
    "0123456789ab",
  ])("ignores ?about=%s: the plain form, no error page", async (about) => {
    const page = await get(`/contact?about=${about}`);
    expect(page.status).toBe(200);
    expect(textarea(page.text)).toBe("");
    expect(hiddenAbout(page.text)).toBeUndefined();
    expect(formAction(page.text)).toBe("/contact");
  });

  it("keeps the project with the enquiry, shows it to the owner and names it in the e-mail and the chat message", async () => {
    const sent = enquiry(undefined, { message: `${prefill}one for our queue line, please.` });
    const answer = await post(`/contact?about=${project.slug}`, { ...sent, about: project.id });
    expect(answer.status).toBe(303);
    const stored = (await site.stored()).find((item) => item.email === sent.email);
    expect(stored).toMatchObject({
      message: sent.message.trim(),
      about: { projectId: project.id, slug: project.slug, title: project.title },
    });

    await waitFor(
      () => sink.forEnquiry(stored!.id).length > 0 && receiver.forEnquiry(stored!.id).length > 0,
      "the enquiry's notifications",
      10_000,
    );
    const mail = sink.forEnquiry(stored!.id)[0]!.text.replace(/\r\n/g, "\n");
    expect(mail.split("\n")).toContain(line);
    const chat = receiver.forEnquiry(stored!.id)[0]!.json as {
      content: string;
      enquiry: { about?: { url: string } };
    };
    expect(chat.content.split("\n")).toContain(line);
    expect(chat.enquiry.about?.url).toBe(`${publicUrl}/work/${project.slug}`);

    const login = await post("/inbox/login", { email: owner.email, password: owner.password, next: "/inbox" });
    expect(login.status).toBe(302);
    const page = await get(`/inbox/${stored!.id}`, sessionCookie(login.headers));
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      new RegExp(`About the build:(?:<!-- -->)?\\s*<a href="/work/${project.slug}"[^>]*>${project.title}</a>`),
    );
  });

  it("stores no project for an id that names none, and none for a plain enquiry", async () => {
    const unknown = enquiry();
    expect((await post("/contact", { ...unknown, about: "ffffffffffff" })).status).toBe(303);
    const plain = enquiry();
    expect((await post("/contact", plain)).status).toBe(303);
    const stored = await site.stored();
    for (const sent of [unknown, plain]) {
      const item = stored.find((entry) => entry.email === sent.email);
      expect(item).toBeDefined();
      expect(item!.about ?? null).toBeNull();
    }
  });
});

/**
 * With API_HOST the server has no database and shows the default content (no projects yet), so the action is called
 * directly with a published project, forwarding to the fake upstream over HTTP.
 */
describe("with API_HOST", () => {
  it("sends the project's line at the end of the message, and no field the upstream does not know", async () => {
    const upstream = await startFakeUpstream({ port: 0 });
    try {
      const config = parseConfig({ ...noRateLimits, API_HOST: upstream.origin, PUBLIC_URL: publicUrl });
      const forward = async (fields: Record<string, string>) => {
        const request = new Request(`${publicUrl}/contact?about=${project.slug}`, {
          method: "POST",
          body: new URLSearchParams(fields),
        });
        const outcome = await acceptEnquiry(request, "form", testServices(config), undefined, { projects: [project] });
        expect(outcome.kind).toBe("accepted");
      };
      const token = randomUUID();
      const sent = enquiry(token, { message: `${prefill}a twin for our graveyard, ${token}` });
      await forward({ ...sent, about: project.id });
      const [received, ...more] = upstream.receivedFor(token);
      expect(more).toHaveLength(0);
      expect(Object.keys(received!.body as object).sort()).toEqual(["email", "message", "name", "security"]);
      expect((received!.body as { message: string }).message).toBe(`${sent.message}\n\n${line}`);

      // An id that names no published project, and a message with no room left for the line: sent as typed.
      const other = randomUUID();
      const unknown = enquiry(other, { message: `Nothing in particular, ${other}` });
      await forward({ ...unknown, about: "ffffffffffff" });
      const full = randomUUID();
      const long = enquiry(full, { message: `${full} ${"x".repeat(4_950)}` });
      await forward({ ...long, about: project.id });
      expect(upstream.receivedFor(other).map((r) => (r.body as { message: string }).message)).toEqual([
        unknown.message,
      ]);
      expect(upstream.receivedFor(full).map((r) => (r.body as { message: string }).message)).toEqual([long.message]);
    } finally {
      await upstream.close();
    }
  });
});
