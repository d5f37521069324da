import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inboxCopy } from "~/wording/inbox";
import { siteEditorCopy } from "~/wording/site-editor";
import { fromContent, formFields, serviceField, type SiteFormValues } from "~/site-content/form";
import { defaultSiteContent } from "~/site-content/schema.server";
import { runInbox } from "../support/inbox-command";
import { sendAs, type Answer } from "../support/site-http";
import { ensureBuilt, startSite, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * The owner's Site page and its history over plain HTTP, as a browser without JavaScript posts them, against the built
 * server on SQLite: bad and hand-made posts are answered with a plain message (never a 5xx), a save from a stale revision is
 * refused with who and when, a restore of a version that does not exist is a message, and a database that does not
 * answer is a 503 with a plain message with nothing published.
 */

const publicUrl = "http://site-editor.example";
const temp = useTempDir("haunt-site-editor-");
const password = "a coffin full of moonlit bats";
let site: SiteServer;
let databasePath: string;
let cookie: string;

const cli = (args: string[], input = "") =>
  runInbox(args, { env: { DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl, API_HOST: "" }, input });

const send = (path: string, options: { method?: string; body?: Record<string, string>; cookie?: string } = {}) =>
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

const revisionIn = (page: Answer) => Number(/name="revision" value="(\d+)"/.exec(page.text)?.[1]);
const decoded = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

beforeAll(async () => {
  await ensureBuilt();
  databasePath = join(temp.dir(), "inbox.db");
  expect((await cli(["operator", "add", "ann@example.com"], `${password}\n`)).status).toBe(0);
  site = await startSite({
    API_HOST: "",
    DATABASE_URL: `file:${databasePath}`,
    PUBLIC_URL: publicUrl,
    STORE_TIMEOUT_MS: "1000",
  });
  const login = await sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email: "ann@example.com", password, next: "/inbox/site" },
  });
  expect(login.status).toBe(302);
  cookie = login.headers["set-cookie"]![0]!.split(";")[0]!;
}, 60_000);
afterAll(() => site?.stop());

describe("the Site page", () => {
  it("is for operators only, private and unindexed, and warns that the default season is over", async () => {
    const visitor = await send("/inbox/site", { cookie: "" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.location).toBe("/inbox/login?next=%2Finbox%2Fsite");
    const page = await send("/inbox/site");
    expect(page.status).toBe(200);
    expect(page.headers["cache-control"]).toMatch(/^no-store\b/);
    expect(page.headers["x-robots-tag"]).toBe("noindex, nofollow");
    expect(page.text).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(page.text).toContain('href="/inbox/site"');
    for (const label of ["Season year", "Orders close on", "Service 5 detail", "Social links", "Publish"])
      expect(page.text).toContain(`>${label}<`);
    expect(decoded(page.text)).toContain(siteEditorCopy.staleSeason(2025));
    expect(decoded((await send("/inbox")).text)).toContain(siteEditorCopy.staleSeason(2025));
  });

  it("answers a post missing every field with a message per field, not a 5xx", async () => {
    const answer = await send("/inbox/site", { method: "POST", body: { intent: "save", revision: "0" } });
    expect(answer.status).toBe(400);
    const text = decoded(answer.text);
    expect(text).toContain('role="alert"');
    expect(text).toContain("Season year: Please enter a four-digit year from 2000 to 2100.");
    expect(text).toContain("Home tagline: Please fill this in.");
    expect(text).toContain("Services: Please keep at least one service.");
    expect(text).toContain('aria-invalid="true"');
    expect(text).toContain(`aria-describedby="site-season-year-hint site-season-year-error"`);
  });

  it("refuses a year of letters, two thousand services and HTML, keeping what was typed", async () => {
    const body = formBody("save", 0, (values) => {
      values.year = "abc";
      values.tagline = "Props <b>that</b> scream";
      values.aboutText = "Kept as typed\n\nover {years} years";
    });
    for (let index = 5; index < 2_000; index++) {
      body[serviceField(index, "name")] = `Extra ${index}`;
      body[serviceField(index, "detail")] = "x";
    }
    const answer = await send("/inbox/site", { method: "POST", body });
    expect(answer.status).toBe(400);
    const text = decoded(answer.text);
    expect(text).toContain("Season year: Please enter a four-digit year");
    expect(text).toContain("Home tagline: Text only: please remove the HTML tag");
    expect(text).toContain("Services: Please keep it to 12 services.");
    expect(text).toContain('value="abc"');
    expect(text).toContain("Kept as typed\n\nover {years} years");
    // Shown back up to one over the limit, not two thousand.
    expect(text).toContain('name="services.12.name"');
    expect(text).not.toContain('name="services.13.name"');
  });

  it("refuses ten thousand services by the body cap, with a plain message", async () => {
    const body = formBody("save", 0);
    for (let index = 5; index < 10_000; index++) body[serviceField(index, "name")] = `Extra service ${index}`;
    const answer = await send("/inbox/site", { method: "POST", body });
    expect(answer.status).toBe(413);
    expect(decoded(answer.text)).toContain("larger than the 256 KiB this form takes");
  });

  it("moves, adds and removes services without saving", async () => {
    const moved = await send("/inbox/site", {
      method: "POST",
      body: formBody("down-service:0", 0, (values) => (values.services[0]!.name = "Typed, not saved")),
    });
    expect(moved.status).toBe(200);
    expect(moved.text).toMatch(/name="services\.1\.name"[^>]*value="Typed, not saved"/);
    expect(moved.text).toContain(siteEditorCopy.serviceEdited);
    const added = await send("/inbox/site", { method: "POST", body: formBody("add-service", 0) });
    expect(added.text).toContain('name="services.5.name"');
    expect(revisionIn(await send("/inbox/site"))).toBe(0);
  });

  it("saves a draft (nothing public changes), refuses a save from a stale revision with who and when, publishes", async () => {
    // A hand-made post without a revision, or with an empty one, is not the fresh draft's 0: refused, nothing kept.
    for (const revision of [undefined, "", "1e0", "-0"]) {
      const { revision: _posted, ...rest } = formBody("publish", 0, (values) => (values.year = "2099"));
      const body = revision === undefined ? rest : { ...rest, revision };
      expect((await send("/inbox/site", { method: "POST", body })).status, `revision ${revision}`).toBe(409);
    }
    expect(decoded((await send("/inbox/site")).text)).not.toContain('value="2099"');
    const saved = await send("/inbox/site", {
      method: "POST",
      body: formBody("save", 0, (values) => {
        values.year = "2027";
        values.aboutText = "A draft paragraph about the workshop.";
        values.contactIntro = "A draft word before the form.";
      }),
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe("/inbox/site?done=saved");
    expect(decoded((await send("/", { cookie: "" })).text)).toContain("Orders are open for the 2025 haunt season.");
    // The draft on the public pages, each page showing its own part of it: for operators only, never kept by a
    // cache, never indexed.
    for (const [path, shown] of [
      ["/?preview", "Orders are open for the 2027 haunt season."],
      ["/about?preview", "A draft paragraph about the workshop."],
      ["/contact?preview", "A draft word before the form."],
    ] as const) {
      const preview = await send(path);
      expect(preview.status, path).toBe(200);
      expect(preview.headers["cache-control"], path).toMatch(/^private, no-store\b/);
      expect(preview.headers["x-robots-tag"], path).toBe("noindex, nofollow");
      expect(decoded(preview.text), path).toContain(shown);
      const visitor = await send(path, { cookie: "" });
      expect(visitor.status, path).toBe(302);
      expect(visitor.headers.location, path).toMatch(/^\/inbox\/login\?next=/);
    }

    const stale = await send("/inbox/site", {
      method: "POST",
      body: formBody("publish", 0, (values) => (values.tagline = "The second operator's words")),
    });
    expect(stale.status).toBe(409);
    const text = decoded(stale.text);
    expect(text).toMatch(/ann@example\.com saved the site at \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC, after you opened/);
    expect(text).toContain('value="The second operator\'s words"');
    expect(revisionIn(stale)).toBe(1);

    const published = await send("/inbox/site", {
      method: "POST",
      body: formBody("publish", 1, (values) => (values.year = "2027")),
    });
    expect(published.status).toBe(303);
    expect(published.headers.location).toBe("/inbox/site?done=published&version=1");
    expect(decoded((await send(published.headers.location!)).text)).toContain(siteEditorCopy.done.published(1, 6));
    expect(decoded((await send("/", { cookie: "" })).text)).toContain("Orders are open for the 2027 haunt season.");
    const again = await send("/inbox/site", { method: "POST", body: formBody("publish", 2, (v) => (v.year = "2027")) });
    expect(again.headers.location).toBe("/inbox/site?done=unchanged");
  });
});

describe("the history", () => {
  it("lists versions with their changes and answers a restore of a version that does not exist with a plain message", async () => {
    const history = decoded((await send("/inbox/site/history")).text);
    expect(history).toContain("Version 1");
    expect(history.replace(/<[^>]+>/g, "")).toContain("Season year: 2025 → 2027");
    for (const version of ["999", "abc", ""]) {
      const answer = await send("/inbox/site/history", { method: "POST", body: { version, revision: "3" } });
      expect(answer.status).toBe(404);
      expect(decoded(answer.text)).toContain(siteEditorCopy.errors.noVersion(version));
    }
  });

  it("restores an older version as a new one, refusing a stale revision first", async () => {
    const revision = revisionIn(await send("/inbox/site"));
    expect(
      (await send("/inbox/site", { method: "POST", body: formBody("publish", revision, (v) => (v.year = "2028")) }))
        .headers.location,
    ).toBe("/inbox/site?done=published&version=2");
    const stale = await send("/inbox/site/history", { method: "POST", body: { version: "1", revision: "0" } });
    expect(stale.status).toBe(409);
    expect(decoded(stale.text)).toContain("Nothing was restored");
    const current = Number(/name="revision" value="(\d+)"/.exec(stale.text)?.[1]);
    const restored = await send("/inbox/site/history", {
      method: "POST",
      body: { version: "1", revision: String(current) },
    });
    expect(restored.status).toBe(303);
    expect(restored.headers.location).toBe("/inbox/site/history?done=restored&restored=1&version=3");
    const history = decoded((await send(restored.headers.location!)).text);
    expect(history).toContain("restored from version 1");
    expect(decoded((await send("/", { cookie: "" })).text)).toContain("Orders are open for the 2027 haunt season.");
  });
});

describe("a database that does not answer", () => {
  it("is a 503 with a plain message and publishes nothing", async () => {
    const before = (await cli(["activity"])).stdout;
    const revision = revisionIn(await send("/inbox/site"));
    const blocker = new DatabaseSync(databasePath, { timeout: 10_000 });
    blocker.exec("BEGIN EXCLUSIVE");
    try {
      const answer = await send("/inbox/site", {
        method: "POST",
        body: formBody("publish", revision, (values) => (values.year = "2030")),
      });
      expect(answer.status).toBe(503);
      expect(answer.text).toContain(inboxCopy.unavailable);
    } finally {
      blocker.exec("ROLLBACK");
      blocker.close();
    }
    expect((await cli(["activity"])).stdout).toBe(before);
    expect(decoded((await send("/", { cookie: "" })).text)).toContain("Orders are open for the 2027 haunt season.");
  });
});
