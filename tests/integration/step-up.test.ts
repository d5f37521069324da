import { createHash } from "node:crypto";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { securityCopy } from "~/wording/security";
import { siteEditorCopy } from "~/wording/site-editor";
import { recoveryCodeHash } from "~/owner/one-time-codes.server";
import { formFields, fromContent, serviceField, type SiteFormValues } from "~/site-content/form";
import { defaultSiteContent } from "~/site-content/schema.server";
import { openInboxStore } from "~/store/store.server";
import { runInbox } from "../support/inbox-command";
import { sendAs, type Answer } from "../support/site-http";
import { ensureBuilt, startSite, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * Step-up and the Security page's sessions through the built server on SQLite, as a browser without JavaScript posts:
 * an operator with one-time codes (set up through the store with a known secret, codes computed here) erases, publishes,
 * restores and exports at once after the login's code; ten minutes later (the session's factor time moved back in the
 * database) each of them goes to the code page first, changes nothing, and comes back to press again. The sessions list
 * shows each login; "Log out" ends another session of the operator's (never someone else's), and "Log out everywhere
 * else" every other one.
 */

const publicUrl = "http://guard.example";
const temp = useTempDir("haunt-step-up-");
const ann = "ann@grimforge.example";
const bob = "bob@grimforge.example";
const password = "a coffin full of moonlit bats";
const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const recoveryCodes = ["aaaaa-bbbbb", "ccccc-ddddd", "eeeee-fffff", "ggggg-hhhhh", "jjjjj-kkkkk", "mmmmm-nnnnn"];
const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });

let site: SiteServer;
let databasePath: string;
let annId: string;
const erasable: string[] = [];

const cli = (args: string[], input = "") =>
  runInbox(args, { env: { DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl, API_HOST: "" }, input });

const send = (path: string, cookie: string, options: { method?: string; body?: Record<string, string> } = {}) =>
  sendAs(publicUrl, site.url, path, { cookie, ...options });

/** Each code once: the next 30 s step not used yet (now's or the next, both accepted), else a recovery code. */
let lastStep = 0;
let recoveryUsed = 0;
function nextCode(): string {
  const now = Math.floor(Date.now() / 30_000);
  const step = Math.max(lastStep + 1, now);
  if (step > now + 1) return recoveryCodes[recoveryUsed++]!;
  lastStep = step;
  return totp.generate({ timestamp: step * 30_000 });
}

const cookieOf = (answer: Answer) => answer.headers["set-cookie"]![0]!.split(";")[0]!;
const sessionHash = (cookie: string) => createHash("sha256").update(cookie.split("=")[1]!).digest("hex");

async function logIn(email: string, userAgent: string): Promise<string> {
  const answer = await sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email, password, next: "/inbox" },
    headers: { "User-Agent": userAgent },
  });
  expect(answer.status).toBe(302);
  return cookieOf(answer);
}

/** Posts a code on the code page; resolves with where it goes next. */
async function verify(cookie: string, next: string): Promise<string> {
  const answer = await send("/inbox/verify", cookie, { method: "POST", body: { code: nextCode(), next } });
  expect(answer.status, answer.text.slice(0, 300)).toBe(302);
  return answer.headers.location!;
}

/**
 * The login's second step: posts a code from the password step's session; resolves with the session's new cookie (a
 * change of stage gives a new id, and the old one opens nothing).
 */
async function passCode(cookie: string, next: string): Promise<string> {
  const answer = await send("/inbox/verify", cookie, { method: "POST", body: { code: nextCode(), next } });
  expect(answer.status, answer.text.slice(0, 300)).toBe(302);
  expect(answer.headers.location).toBe(next);
  return cookieOf(answer);
}

/** The session's last second factor, eleven minutes ago (as if the owner had been reading for that long). */
function ageFactor(cookie: string): void {
  const db = new DatabaseSync(databasePath, { timeout: 5_000 });
  try {
    const changed = db
      .prepare("UPDATE sessions SET factor_at = ? WHERE id_hash = ?")
      .run(Date.now() - 11 * 60_000, sessionHash(cookie));
    expect(changed.changes).toBe(1);
  } finally {
    db.close();
  }
}

/** The code page's address that step-up sends to, back to `next` afterwards. */
const stepUpTo = (next: string) => `/inbox/verify?next=${encodeURIComponent(next)}&again=1`;

function siteForm(intent: string, revision: number, edit: (values: SiteFormValues) => void) {
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
  for (const email of [ann, bob]) expect((await cli(["operator", "add", email], `${password}\n`)).status).toBe(0);
  // One-time codes for ann with a known secret (confirmed with a step long past, so every code from now on is new),
  // recovery codes, and enquiries to erase.
  const store = await openInboxStore({ kind: "sqlite", path: databasePath }, { timeoutMs: 5_000 });
  try {
    annId = (await store.findOperator(ann))!.id;
    expect(await store.startTotp(annId, secret)).toBe(true);
    expect(await store.takeTotpStep(annId, 1, { confirm: true })).toBe(true);
    await store.replaceRecoveryCodes(
      annId,
      recoveryCodes.map((code) => recoveryCodeHash(annId, code)),
    );
    for (const n of [1, 2]) {
      const saved = await store.save(
        { name: `Visitor ${n}`, email: `visitor${n}@example.com`, message: `A skull, please (${n}).` },
        [],
      );
      erasable.push(saved.id);
    }
  } finally {
    await store.close();
  }
  site = await startSite({
    API_HOST: "",
    DATABASE_URL: `file:${databasePath}`,
    PUBLIC_URL: publicUrl,
    INBOX_REQUIRE_2FA: "on",
  });
}, 60_000);
afterAll(async () => {
  await site?.stop();
});

describe("step-up for what cannot be undone", () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await logIn(ann, "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0 Safari/537.36");
    cookie = await passCode(cookie, "/inbox");
  });

  it("erase: at once after the login's code; ten minutes later the code page first, then back to press again", async () => {
    const [first, second] = erasable as [string, string];
    expect((await send(`/inbox/${first}/erase`, cookie, { method: "POST" })).headers.location).toBe("/inbox?erased=1");

    ageFactor(cookie);
    const erasePage = `/inbox/${second}/erase`;
    const asked = await send(erasePage, cookie, { method: "POST" });
    expect(asked.status).toBe(302);
    expect(asked.headers.location).toBe(stepUpTo(erasePage));
    expect((await send(erasePage, cookie)).status).toBe(200); // nothing erased: its page is still there

    const codePage = decoded((await send(asked.headers.location!, cookie)).text);
    expect(codePage).toContain(securityCopy.verify.againIntro);
    expect(codePage).toContain(securityCopy.verify.againWhy.erase);
    expect(await verify(cookie, erasePage)).toBe(erasePage);
    expect((await send(erasePage, cookie, { method: "POST" })).headers.location).toBe("/inbox?erased=1");
    expect((await send(erasePage, cookie)).status).toBe(404);
  });

  it("publish: the draft is saved before the code page, shown again after it, and published by the second press", async () => {
    ageFactor(cookie);
    const revision = revisionIn(await send("/inbox/site", cookie));
    const tagline = "Props that remember your name";
    const asked = await send("/inbox/site", cookie, {
      method: "POST",
      body: siteForm("publish", revision, (values) => (values.tagline = tagline)),
    });
    expect(asked.status).toBe(302);
    expect(asked.headers.location).toBe(stepUpTo("/inbox/site?done=saved"));
    const codePage = decoded((await send(asked.headers.location!, cookie)).text);
    expect(codePage).toContain(securityCopy.verify.againWhy.publish);
    // Nothing published, nothing lost.
    const db = new DatabaseSync(databasePath, { readOnly: true });
    try {
      expect(db.prepare("SELECT COUNT(*) AS n FROM site_versions").get()!.n).toBe(0);
    } finally {
      db.close();
    }

    expect(await verify(cookie, "/inbox/site?done=saved")).toBe("/inbox/site?done=saved");
    const back = await send("/inbox/site?done=saved", cookie);
    expect(decoded(back.text)).toContain(`value="${tagline}"`);
    expect(decoded(back.text)).toContain(siteEditorCopy.done.saved);
    const published = await send("/inbox/site", cookie, {
      method: "POST",
      body: siteForm("publish", revisionIn(back), (values) => (values.tagline = tagline)),
    });
    expect(published.status).toBe(303);
    expect(published.headers.location).toBe("/inbox/site?done=published&version=1");
  });

  it("restore: the code page first, back to the history", async () => {
    ageFactor(cookie);
    // The draft's revision as the Site page has it (the newest version has no Restore button of its own).
    const revision = () => send("/inbox/site", cookie).then((page) => String(revisionIn(page)));
    const asked = await send("/inbox/site/history", cookie, {
      method: "POST",
      body: { version: "1", revision: await revision() },
    });
    expect(asked.headers.location).toBe(stepUpTo("/inbox/site/history"));
    expect(decoded((await send(asked.headers.location!, cookie)).text)).toContain(securityCopy.verify.againWhy.restore);
    expect(await verify(cookie, "/inbox/site/history")).toBe("/inbox/site/history");
    // Version 1 is what is public: a restore of it changes nothing, and says so.
    const restored = await send("/inbox/site/history", cookie, {
      method: "POST",
      body: { version: "1", revision: await revision() },
    });
    expect(restored.headers.location).toBe("/inbox/site/history?done=unchanged&restored=1");
  });

  it("CSV export: the code page first, back to the list it was asked from, then the file", async () => {
    ageFactor(cookie);
    const asked = await send("/inbox/export.csv?folder=handled&q=skull", cookie);
    expect(asked.status).toBe(302);
    expect(asked.headers.location).toBe(stepUpTo("/inbox?folder=handled&q=skull"));
    expect(asked.headers["content-disposition"]).toBeUndefined();
    expect(decoded((await send(asked.headers.location!, cookie)).text)).toContain(securityCopy.verify.againWhy.export);
    expect(await verify(cookie, "/inbox?folder=handled&q=skull")).toBe("/inbox?folder=handled&q=skull");
    const file = await send("/inbox/export.csv?folder=handled&q=skull", cookie);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toBe("text/csv; charset=utf-8");
  });

  it("an operator who still has to set up a factor reaches none of them: only the Security page", async () => {
    // With the factor required and none set up, bob's session is at stage setup: only the Security page.
    const bobCookie = await logIn(bob, "Mozilla/5.0 (Windows NT 10.0) Firefox/133.0");
    const erase = await send(`/inbox/${erasable[1]}/erase`, bobCookie, { method: "POST" });
    expect(erase.headers.location).toBe("/inbox/security");
  });
});

describe("the Security page's sessions", () => {
  const chrome = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 Chrome/131.0.0.0 Safari/537.36";
  const android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0.0.0 Mobile Safari/537.36";

  it("lists each login; Log out ends another one of the operator's, never someone else's; then everywhere else", async () => {
    // Fresh: nobody else logged in as ann.
    const db = new DatabaseSync(databasePath, { timeout: 5_000 });
    db.prepare("DELETE FROM sessions").run();
    db.close();
    const here = await passCode(await logIn(ann, chrome), "/inbox/security");
    const phone = await passCode(await logIn(ann, android), "/inbox");
    const laptop = await logIn(ann, "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0");
    const bobs = await logIn(bob, android);
    // A session idle for longer than the idle limit opens nothing: not listed.
    const idle = await logIn(ann, "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0");
    const stale = new DatabaseSync(databasePath, { timeout: 5_000 });
    stale
      .prepare("UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?")
      .run(Date.now() - 31 * 60_000, sessionHash(idle));
    stale.close();

    const page = decoded((await send("/inbox/security", here)).text);
    expect(page).toContain("Chrome on macOS");
    expect(page).toContain(securityCopy.sessions.thisBrowser);
    expect(page).toContain("Chrome on Android");
    expect(page).toContain("Firefox on Windows");
    expect(page).toContain(securityCopy.sessions.stageWaiting); // the laptop still owes its code
    expect(page).toContain("127.0.0.1");
    expect(page).not.toContain("Firefox on Linux");
    // Only ann's three: bob's session is not on her page, and her own has no Log out button.
    expect(page.match(/name="intent" value="session-end"/g)).toHaveLength(2);
    expect(page).not.toContain(sessionHash(bobs));
    expect(page).not.toContain(`value="${sessionHash(here)}"`);

    // A hash of bob's session does nothing (ann cannot end it); nor does a made-up one.
    for (const session of [sessionHash(bobs), "0".repeat(64), "not a hash"]) {
      const refused = await send("/inbox/security", here, {
        method: "POST",
        body: { intent: "session-end", session },
      });
      expect(refused.headers.location).toBe("/inbox/security?sessions=none#security-sessions");
    }
    expect((await send("/inbox/security", bobs)).status).toBe(200);

    // Log out the phone: its cookie opens nothing any more.
    const ended = await send("/inbox/security", here, {
      method: "POST",
      body: { intent: "session-end", session: sessionHash(phone) },
    });
    expect(ended.headers.location).toBe("/inbox/security?sessions=ended#security-sessions");
    expect(decoded((await send("/inbox/security?sessions=ended", here)).text)).toContain(securityCopy.sessions.ended);
    expect((await send("/inbox", phone)).headers.location).toMatch(/^\/inbox\/login/);
    expect((await send("/inbox", here)).status).toBe(200);

    // Everywhere else: the laptop goes (and the idle session's row), this browser and bob stay.
    const others = await send("/inbox/security", here, { method: "POST", body: { intent: "sessions-end-others" } });
    expect(others.headers.location).toBe("/inbox/security?sessions=others-2#security-sessions");
    expect((await send("/inbox/verify", laptop)).headers.location).toMatch(/^\/inbox\/login/);
    expect((await send("/inbox/security", bobs)).status).toBe(200);
    const after = decoded((await send("/inbox/security?sessions=others-2", here)).text);
    expect(after).toContain(securityCopy.sessions.endedOthers(2));
    expect(after).toContain(securityCopy.sessions.onlyThis);
    expect(after).not.toContain("Firefox on Windows");

    const activity = (await cli(["activity"])).stdout;
    expect(activity).toContain("logged out another session");
    expect(activity).toContain("logged out everywhere else");
    expect(activity).not.toContain(sessionHash(phone));
  });
});
