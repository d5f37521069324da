import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "~/config/database.server";
import { fromContent, formFields, serviceField, type SiteFormValues } from "~/site-content/form";
import { contentFromJson, defaultSiteContent } from "~/site-content/schema.server";
import { openInboxStore } from "~/store/store.server";
import { siteEditorCopy } from "~/wording/site-editor";
import { runInbox } from "../support/inbox-command";
import { sendAs } from "../support/site-http";
import { ensureBuilt, startSite, type SiteServer } from "../support/site-server";

/**
 * The acknowledgement's setting on the owner's Site page over plain HTTP, as a browser without JavaScript posts it,
 * against the built server: off by default (the box unticked, and said to send nothing while this server has no
 * e-mail), working days outside 1–30 refused with a message and nothing published, then ticked with its words and
 * published as the next version, named in the history.
 */

const publicUrl = "http://site-acknowledgement.example";
const password = "a coffin full of moonlit bats";
let site: SiteServer;
let cookie: string;

const send = (path: string, options: { method?: string; body?: Record<string, string> } = {}) =>
  sendAs(publicUrl, site.url, path, { cookie, ...options });

/** The form as the page sends it: every field by its name, `edit` changing the values first. */
function formBody(intent: string, revision: number, edit: (values: SiteFormValues) => void = () => {}) {
  const values = fromContent(defaultSiteContent);
  edit(values);
  const body: Record<string, string> = { intent, revision: String(revision) };
  for (const [key, name] of Object.entries(formFields)) {
    const value = values[key as keyof typeof formFields];
    if (typeof value === "boolean") {
      if (value) body[name] = "on";
    } else body[name] = value;
  }
  values.services.forEach((service, index) => {
    body[serviceField(index, "name")] = service.name;
    body[serviceField(index, "detail")] = service.detail;
  });
  return body;
}

const decoded = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
const checkbox = (html: string) => /<input[^>]*name="acknowledgement\.enabled"[^>]*>/.exec(html)?.[0] ?? "";

beforeAll(async () => {
  await ensureBuilt();
  site = await startSite({ API_HOST: "", PUBLIC_URL: publicUrl });
  const added = await runInbox(["operator", "add", "ann@example.com"], {
    env: { DATABASE_URL: site.databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
    input: `${password}\n`,
  });
  expect(added.status, added.stderr).toBe(0);
  const login = await sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email: "ann@example.com", password, next: "/inbox/site" },
  });
  expect(login.status).toBe(302);
  cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
}, 60_000);
afterAll(() => site?.stop());

describe("the acknowledgement on the Site page", () => {
  it("is off by default, and says no e-mail is sent while this server has none set up", async () => {
    const page = await send("/inbox/site");
    expect(page.status).toBe(200);
    const text = decoded(page.text);
    expect(text).toContain(`>${siteEditorCopy.sections.acknowledgement}<`);
    expect(text).toContain(">Send an acknowledgement<");
    expect(checkbox(page.text)).not.toMatch(/checked/);
    expect(checkbox(page.text)).toContain('aria-describedby="site-acknowledgement-enabled-hint"');
    expect(text).toContain(siteEditorCopy.acknowledgementNoMail);
    expect(text).toContain(">Working days to answer<");
    expect(text).toContain('value="3"');
  });

  it("refuses working days outside 1 to 30, keeping what was typed and publishing nothing", async () => {
    for (const days of ["0", "31", "two"]) {
      const answer = await send("/inbox/site", {
        method: "POST",
        body: formBody("publish", 0, (values) => {
          values.acknowledge = true;
          values.replyDays = days;
        }),
      });
      expect(answer.status, days).toBe(400);
      const text = decoded(answer.text);
      expect(text).toContain("Working days to answer: Please enter a whole number of working days from 1 to 30.");
      expect(text).toContain(`value="${days}"`);
      expect(checkbox(answer.text)).toMatch(/checked/);
    }
    const store = await openInboxStore(parseDatabaseUrl(site.databaseUrl)!, { timeoutMs: 10_000 });
    try {
      expect(await store.publishedSite()).toBeNull();
    } finally {
      await store.close();
    }
  });

  it("publishes it ticked with its words, shows it ticked again, and names the change in the history", async () => {
    const published = await send("/inbox/site", {
      method: "POST",
      body: formBody("publish", 0, (values) => {
        values.acknowledge = true;
        values.acknowledgementText = "Thanks! We answer within {days} working days.";
        values.replyDays = "5";
      }),
    });
    expect(published.status).toBe(303);
    expect(published.headers.location).toBe("/inbox/site?done=published&version=1");
    const page = await send("/inbox/site");
    expect(checkbox(page.text)).toMatch(/checked/);
    expect(decoded(page.text)).toContain("Thanks! We answer within {days} working days.");
    expect(page.text).toContain('value="5"');

    const store = await openInboxStore(parseDatabaseUrl(site.databaseUrl)!, { timeoutMs: 10_000 });
    try {
      const version = await store.publishedSite();
      expect(contentFromJson(version!.content).acknowledgement).toEqual({
        enabled: true,
        text: "Thanks! We answer within {days} working days.",
        replyDays: 5,
      });
    } finally {
      await store.close();
    }
    const history = decoded((await send("/inbox/site/history")).text).replace(/<[^>]+>/g, "");
    expect(history).toContain("Send an acknowledgement: no → yes");
    expect(history).toContain("Working days to answer: 3 → 5");
  });
});
