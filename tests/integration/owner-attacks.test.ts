import { createHash } from "node:crypto";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DatabaseSync } from "node:sqlite";
import type { ServerBuild } from "@remix-run/node";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inboxCopy } from "~/wording/inbox";
import { securityCopy } from "~/wording/security";
import { recoveryCodeHash } from "~/owner/one-time-codes.server";
import { openInboxStore } from "~/store/store.server";
import { runInbox } from "../support/inbox-command";
import { sendAs, type Answer } from "../support/site-http";
import { ensureBuilt, projectRoot, startSite, waitFor, type SiteServer } from "../support/site-server";
import { SoftAuthenticator, type CreationOptions, type RequestOptions } from "../support/soft-authenticator";
import { useTempDir } from "../support/temp-dir";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * What an outside attack on the owner area found, each through the built server on SQLite as a browser
 * posts: (1) a session whose factor is stale cannot add a factor (one-time codes, a passkey) without step-up, adding
 * one never makes the factor fresh, it is announced like a new login, and the first factor at set-up needs a fresh
 * password; (7) a new session id at every change of stage, the old one opening nothing; (6) a wrong body type on any
 * action is a 400 or 415 with a plain message; (9a) a post to the CSV export is a 405 with a plain message.
 */

const publicUrl = "http://attacks.example";
const temp = useTempDir("haunt-owner-attacks-");
const password = "a coffin full of moonlit bats";
const ann = "ann@grimforge.example";
const eve = "eve@grimforge.example";
const carl = "carl@grimforge.example";
const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const totp = (key: string) => new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(key) });

let site: SiteServer;
let receiver: WebhookReceiver;
let databasePath: string;

const cli = (args: string[], input = "") =>
  runInbox(args, { env: { DATABASE_URL: `file:${databasePath}`, PUBLIC_URL: publicUrl, API_HOST: "" }, input });

const send = (path: string, cookie: string | undefined, options: Parameters<typeof sendAs>[3] = {}) =>
  sendAs(publicUrl, site.url, path, { cookie, ...options });

/** The session cookie an answer sets, if it sets one. */
const setCookie = (answer: Answer) =>
  answer.headers["set-cookie"]?.map((line) => line.split(";")[0]!).find((pair) => pair.startsWith("inbox_session="));
/** The cookie to go on with: the one the answer set, else the one sent. */
const goOn = (answer: Answer, cookie: string) => setCookie(answer) ?? cookie;
const sessionHash = (cookie: string) => createHash("sha256").update(cookie.split("=")[1]!).digest("hex");

/** ann's recovery codes: used when her app's next code is not accepted yet (each step is taken once). */
const recoveryCodes = Array.from({ length: 10 }, (_, n) => `aaaa${n}-bbbb${n}`);
let recoveryUsed = 0;

/** Each TOTP step once per secret: the next one not used yet (now's or the next), else one of ann's recovery codes. */
const lastStep = new Map<string, number>();
function nextCode(key: string): string {
  const now = Math.floor(Date.now() / 30_000);
  const step = Math.max((lastStep.get(key) ?? 0) + 1, now);
  if (step > now + 1 && key === secret) return recoveryCodes[recoveryUsed++]!;
  lastStep.set(key, step);
  return totp(key).generate({ timestamp: step * 30_000 });
}

async function logIn(email: string): Promise<{ cookie: string; location: string }> {
  const answer = await send("/inbox/login", undefined, { method: "POST", body: { email, password, next: "/inbox" } });
  expect(answer.status).toBe(302);
  return { cookie: setCookie(answer)!, location: answer.headers.location! };
}

/** A code on the code page; resolves with the answer (its redirect and any new cookie). */
const postCode = (cookie: string, next: string, key = secret) =>
  send("/inbox/verify", cookie, { method: "POST", body: { code: nextCode(key), next } });

/** One step of the passkeys' JSON exchange. */
async function exchange(body: object, cookie: string) {
  const answer = await send("/inbox/passkey", cookie, {
    method: "POST",
    upload: { bytes: Buffer.from(JSON.stringify(body)), contentType: "application/json" },
  });
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    // not JSON: the test says what it expected
  }
  return { ...answer, json };
}

function db<T>(work: (db: DatabaseSync) => T): T {
  const handle = new DatabaseSync(databasePath, { timeout: 5_000 });
  try {
    return work(handle);
  } finally {
    handle.close();
  }
}
/** The session's last factor (or its login), `minutes` ago. */
const age = (cookie: string, column: "factor_at" | "created_at", minutes: number) =>
  db((handle) => {
    const changed = handle
      .prepare(`UPDATE sessions SET ${column} = ? WHERE id_hash = ?`)
      .run(Date.now() - minutes * 60_000, sessionHash(cookie));
    expect(changed.changes).toBe(1);
  });
const factorAt = (cookie: string) =>
  db(
    (handle) => handle.prepare("SELECT factor_at FROM sessions WHERE id_hash = ?").get(sessionHash(cookie))?.factor_at,
  );

const stepUpTo = (next: string) => `/inbox/verify?next=${encodeURIComponent(next)}&again=1`;
const decoded = (html: string) =>
  html
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, "&");
/** The alerts' texts the webhook received (the json format's `content`). */
const alerts = () => receiver.posts.map((post) => String((post.json as { content?: string }).content ?? ""));

beforeAll(async () => {
  await ensureBuilt();
  receiver = await startWebhookReceiver();
  databasePath = join(temp.dir(), "inbox.db");
  for (const email of [ann, eve, carl]) expect((await cli(["operator", "add", email], `${password}\n`)).status).toBe(0);
  // ann has one-time codes with a known secret (confirmed with a step long past).
  const store = await openInboxStore({ kind: "sqlite", path: databasePath }, { timeoutMs: 5_000 });
  try {
    const annId = (await store.findOperator(ann))!.id;
    expect(await store.startTotp(annId, secret)).toBe(true);
    expect(await store.takeTotpStep(annId, 1, { confirm: true })).toBe(true);
    await store.replaceRecoveryCodes(
      annId,
      recoveryCodes.map((code) => recoveryCodeHash(annId, code)),
    );
  } finally {
    await store.close();
  }
  site = await startSite({
    API_HOST: "",
    DATABASE_URL: `file:${databasePath}`,
    PUBLIC_URL: publicUrl,
    INBOX_REQUIRE_2FA: "on",
    NOTIFY_WEBHOOK_URL: receiver.url,
  });
}, 60_000);
afterAll(async () => {
  await site?.stop();
  await receiver?.stop();
});

describe("1. adding a factor asks for step-up, never freshens the factor, and is announced", () => {
  it("a passkey: a session whose code is 25 minutes old is sent to the code page; after it, added and announced", async () => {
    const login = await logIn(ann);
    let cookie = goOn(await postCode(login.cookie, "/inbox"), login.cookie);
    age(cookie, "factor_at", 25);

    const refused = await exchange({ step: "options", purpose: "register" }, cookie);
    // Not a failure but the code page first, as a form's post would be redirected there.
    expect(refused.status, refused.text).toBe(200);
    expect(refused.json.options).toBeUndefined();
    expect(refused.json.next).toBe(stepUpTo("/inbox/security"));
    expect(refused.json.notice).toBe(securityCopy.passkeys.stepUp);
    // Without options there is nothing to finish either (no challenge was made).
    expect(db((h) => h.prepare("SELECT COUNT(*) AS n FROM webauthn_challenges").get()!.n)).toBe(0);

    const passed = await postCode(cookie, "/inbox/security");
    expect(passed.headers.location).toBe("/inbox/security");
    cookie = goOn(passed, cookie);
    const options = await exchange({ step: "options", purpose: "register" }, cookie);
    expect(options.status).toBe(200);
    const authenticator = new SoftAuthenticator(publicUrl);
    const response = authenticator.register(options.json.options as CreationOptions);
    // The factor turned stale between the options and the answer: the answer asks for step-up too.
    age(cookie, "factor_at", 25);
    const stale = await exchange({ step: "finish", purpose: "register", name: "Thief's key", response }, cookie);
    expect(stale.status).toBe(200);
    expect(stale.json.next).toBe(stepUpTo("/inbox/security"));
    expect(db((h) => h.prepare("SELECT COUNT(*) AS n FROM passkeys").get()!.n)).toBe(0);

    cookie = goOn(await postCode(cookie, "/inbox/security"), cookie);
    const before = factorAt(cookie);
    const fresh = await exchange({ step: "options", purpose: "register" }, cookie);
    const added = await exchange(
      {
        step: "finish",
        purpose: "register",
        name: "Laptop",
        response: authenticator.register(fresh.json.options as CreationOptions),
      },
      cookie,
    );
    expect(added.status, added.text).toBe(200);
    // Adding is not a step-up: the session's factor time is the code's, not the add's.
    expect(before).not.toBeNull();
    expect(factorAt(cookie)).toBe(before);
    await waitFor(() => alerts().some((text) => text.includes(securityCopy.factorAlert.head.passkey)), "the alert");
    const alert = alerts().find((text) => text.includes(securityCopy.factorAlert.head.passkey))!;
    expect(alert).toContain(ann);
    expect(alert).toContain('"Laptop"');
    expect((await cli(["activity"])).stdout).toContain("passkey added");
  });

  it("one-time codes: start and confirm ask for step-up on a stale session; adding does not freshen it", async () => {
    // eve sets up a passkey at set-up (her first factor, no step-up: nothing to step up with).
    const login = await logIn(eve);
    expect(login.location).toBe("/inbox/security");
    let cookie = login.cookie;
    const authenticator = new SoftAuthenticator(publicUrl);
    const options = await exchange({ step: "options", purpose: "register" }, cookie);
    expect(options.status, options.text).toBe(200);
    const added = await exchange(
      {
        step: "finish",
        purpose: "register",
        name: "Phone",
        response: authenticator.register(options.json.options as CreationOptions),
      },
      cookie,
    );
    expect(added.status, added.text).toBe(200);
    cookie = goOn(added, cookie);
    expect((await send("/inbox", cookie)).status).toBe(200);

    // 25 minutes later, someone with this cookie tries to add codes of their own.
    age(cookie, "factor_at", 25);
    const start = await send("/inbox/security", cookie, { method: "POST", body: { intent: "totp-start" } });
    expect(start.status).toBe(302);
    expect(start.headers.location).toBe(stepUpTo("/inbox/security"));
    // A set-up begun earlier (a fresh moment, another tab) cannot be confirmed from the stale session either.
    const thiefSecret = "KRSXG5CTMVRXEZLUKN2XAZLSKNSWG4TF";
    const store = await openInboxStore({ kind: "sqlite", path: databasePath }, { timeoutMs: 5_000 });
    try {
      expect(await store.startTotp((await store.findOperator(eve))!.id, thiefSecret)).toBe(true);
    } finally {
      await store.close();
    }
    const confirm = await send("/inbox/security", cookie, {
      method: "POST",
      body: { intent: "totp-confirm", code: nextCode(thiefSecret) },
    });
    expect(confirm.status).toBe(302);
    expect(confirm.headers.location).toBe(stepUpTo("/inbox/security"));
    expect(
      db((h) =>
        h
          .prepare("SELECT confirmed_at FROM totp_factors")
          .all()
          .filter((r) => r.confirmed_at),
      ),
    ).toHaveLength(
      1, // ann's only
    );
    expect((await send("/inbox/export.csv", cookie)).headers.location).toBe(stepUpTo("/inbox"));

    // Step-up with the passkey, then the codes go on, announced; the factor's time stays the passkey's.
    const challenge = await exchange({ step: "options", purpose: "verify" }, cookie);
    const verified = await exchange(
      {
        step: "finish",
        purpose: "verify",
        next: "/inbox/security",
        response: authenticator.assert(challenge.json.options as RequestOptions),
      },
      cookie,
    );
    expect(verified.status, verified.text).toBe(200);
    cookie = goOn(verified, cookie);
    const ownSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    const store2 = await openInboxStore({ kind: "sqlite", path: databasePath }, { timeoutMs: 5_000 });
    try {
      expect(await store2.startTotp((await store2.findOperator(eve))!.id, ownSecret)).toBe(true);
    } finally {
      await store2.close();
    }
    const before = factorAt(cookie);
    const confirmed = await send("/inbox/security", cookie, {
      method: "POST",
      body: { intent: "totp-confirm", code: nextCode(ownSecret) },
    });
    expect(confirmed.status, confirmed.text.slice(0, 300)).toBe(200);
    expect(decoded(confirmed.text)).toContain(securityCopy.codes.done);
    expect(factorAt(cookie)).toBe(before);
    await waitFor(() => alerts().some((text) => text.includes(securityCopy.factorAlert.head.codes)), "the alert");
    expect(alerts().find((text) => text.includes(securityCopy.factorAlert.head.codes))).toContain(eve);
  });

  it("set-up: the first factor needs no step-up right after the password; ten minutes after it, the password again", async () => {
    const stale = await logIn(carl);
    expect(stale.location).toBe("/inbox/security");
    age(stale.cookie, "created_at", 11);
    const asked = await send("/inbox/security", stale.cookie, { method: "POST", body: { intent: "totp-start" } });
    expect(asked.status).toBe(302);
    expect(asked.headers.location).toBe("/inbox/login?next=%2Finbox%2Fsecurity&again=1");
    expect(decoded((await send(asked.headers.location!, undefined)).text)).toContain(inboxCopy.login.again);
    // That session is over: its cookie opens nothing, not even the Security page.
    expect((await send("/inbox/security", stale.cookie)).headers.location).toMatch(/^\/inbox\/login/);
    const staleKey = await exchange({ step: "options", purpose: "register" }, stale.cookie);
    expect(staleKey.status).toBe(401);

    const { cookie } = await logIn(carl);
    const start = await send("/inbox/security", cookie, { method: "POST", body: { intent: "totp-start" } });
    expect(start.status).toBe(200);
    const shown = /([A-Z2-7]{4}(?: [A-Z2-7]{1,4})+)/.exec(decoded(start.text))?.[1];
    expect(shown).toBeTruthy();
    const key = shown!.replace(/ /g, "");
    const confirmed = await send("/inbox/security", cookie, {
      method: "POST",
      body: { intent: "totp-confirm", code: nextCode(key) },
    });
    expect(confirmed.status, confirmed.headers.location).toBe(200);
    // 7: set-up done is a change of stage: a new session id, and the old one opens nothing.
    const renewed = setCookie(confirmed);
    expect(renewed).toBeTruthy();
    expect(renewed).not.toBe(cookie);
    expect((await send("/inbox", renewed)).status).toBe(200);
    expect((await send("/inbox", cookie)).headers.location).toMatch(/^\/inbox\/login/);
  });
});

describe("7. a new session id at every change of stage", () => {
  it("the cookie from the password step opens nothing once the code is taken", async () => {
    const login = await logIn(ann);
    expect(login.location).toBe("/inbox/verify?next=%2Finbox");
    const passed = await postCode(login.cookie, "/inbox");
    expect(passed.headers.location).toBe("/inbox");
    const renewed = setCookie(passed);
    expect(renewed).toBeTruthy();
    expect(renewed).not.toBe(login.cookie);
    expect(renewed).toMatch(/HttpOnly|^inbox_session=/);
    expect((await send("/inbox", renewed)).status).toBe(200);
    const old = await send("/inbox", login.cookie);
    expect(old.status).toBe(302);
    expect(old.headers.location).toMatch(/^\/inbox\/login/);
    // Step-up is no change of stage: the cookie stays.
    age(renewed!, "factor_at", 11);
    const again = await postCode(renewed!, "/inbox");
    expect(again.headers.location).toBe("/inbox");
    expect(setCookie(again)).toBeUndefined();
    expect((await send("/inbox", renewed)).status).toBe(200);
  });

  it("the passkey as the second step: the cookie from the password step opens nothing afterwards", async () => {
    // eve has a passkey (added above); her password alone now owes the second step.
    const authenticator = new SoftAuthenticator(publicUrl);
    const login = await logIn(eve);
    let cookie = login.cookie;
    // A passkey of her own for this test: added through a whole session first.
    cookie = goOn(await postCode(cookie, "/inbox", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"), cookie);
    const options = await exchange({ step: "options", purpose: "register" }, cookie);
    await exchange(
      {
        step: "finish",
        purpose: "register",
        name: "Tablet",
        response: authenticator.register(options.json.options as CreationOptions),
      },
      cookie,
    );
    const second = await logIn(eve);
    const challenge = await exchange({ step: "options", purpose: "verify" }, second.cookie);
    const verified = await exchange(
      {
        step: "finish",
        purpose: "verify",
        next: "/inbox",
        response: authenticator.assert(challenge.json.options as RequestOptions),
      },
      second.cookie,
    );
    expect(verified.status, verified.text).toBe(200);
    const renewed = setCookie(verified);
    expect(renewed).toBeTruthy();
    expect((await send("/inbox", renewed)).status).toBe(200);
    expect((await send("/inbox", second.cookie)).headers.location).toMatch(/^\/inbox\/login/);
  });
});

/** Every route of the built app that has an action, with a path to post to (parameters filled in). */
async function actionRoutes(): Promise<{ id: string; path: string }[]> {
  const build = (await import(pathToFileURL(join(projectRoot, "build/index.js")).href)) as ServerBuild;
  const pathOf = (id: string): string => {
    const route = build.routes[id]!;
    const own = (route.path ?? "").replace(/:[^/]+/g, "x").replace(/\*/g, "x");
    const parent = route.parentId ? pathOf(route.parentId) : "";
    return [parent, own].filter(Boolean).join("/");
  };
  return Object.keys(build.routes)
    .filter((id) => typeof build.routes[id]!.module.action === "function")
    .map((id) => ({ id, path: `/${pathOf(id)}` }));
}

/** The refusals' words: the owner area's (app/wording/shared.ts), or the contact form's and the JSON API's own. */
const refusedWords = new RegExp(
  [
    "Refused: this takes",
    "Refused: the form that was sent could not be read",
    "Please send your enquiry with the contact form",
    "The form could not be read",
    "Send the enquiry as application/json",
    "The enquiry is not valid JSON",
    "Please send the photo with the upload form", // the Photos page's own, for an upload it cannot read
  ]
    .map((words) => words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("|"),
);

describe("6. a wrong body type is a 400 or 415 with a plain message on every action", () => {
  it("text/plain and a broken multipart body, to every route with an action, logged in and at the code step", async () => {
    const login = await logIn(ann);
    const whole = goOn(await postCode(login.cookie, "/inbox"), login.cookie);
    const pending = (await logIn(ann)).cookie; // a password-only session (the code page takes its posts)
    const routes = await actionRoutes();
    expect(routes.map((route) => route.path)).toEqual(
      expect.arrayContaining(["/inbox/site", "/inbox/site/history", "/inbox/security", "/inbox/x", "/inbox/verify"]),
    );
    const bodies = [
      { contentType: "text/plain", bytes: Buffer.from("intent=publish&code=123456") },
      { contentType: "multipart/form-data; boundary=----haunt", bytes: Buffer.from("------haunt\r\nbroken") },
      { contentType: "multipart/form-data", bytes: Buffer.from("no boundary at all") },
    ];
    for (const { id, path } of routes) {
      for (const cookie of path === "/inbox/verify" ? [whole, pending] : [whole]) {
        for (const upload of bodies) {
          const answer = await send(path, path === "/inbox/login" ? undefined : cookie, { method: "POST", upload });
          const what = `${id} ${upload.contentType}`;
          expect([400, 415], `${what}: ${answer.status} ${answer.text.slice(0, 200)}`).toContain(answer.status);
          expect(answer.text, what).not.toMatch(/Something went wrong|Unexpected Server Error/);
          expect(decoded(answer.text), what).toMatch(refusedWords);
          if (path.startsWith("/inbox")) expect(answer.headers["cache-control"], what).toContain("no-store");
        }
      }
    }
    // Nothing was done: the session still opens the inbox, nothing was published.
    expect((await send("/inbox", whole)).status).toBe(200);
    expect(db((h) => h.prepare("SELECT COUNT(*) AS n FROM site_versions").get()!.n)).toBe(0);
  });
});

describe("9a. a post to the CSV export", () => {
  it("is a 405 with a plain message, Allow: GET, not stored", async () => {
    const login = await logIn(ann);
    const cookie = goOn(await postCode(login.cookie, "/inbox"), login.cookie);
    const answer = await send("/inbox/export.csv", cookie, { method: "POST", body: { folder: "inbox" } });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET");
    expect(answer.headers["cache-control"]).toContain("no-store");
    expect(answer.text).not.toContain("Unexpected Server Error");
    expect(answer.text).toContain("Download CSV");
  });
});

describe("9a. a post where nothing takes one", () => {
  it("is a 405 with a plain message on a page and on a resource route, never Remix's message or an error", async () => {
    const login = await logIn(ann);
    const cookie = goOn(await postCode(login.cookie, "/inbox"), login.cookie);
    for (const path of ["/inbox/activity", "/about", "/healthz", "/robots.txt"]) {
      const answer = await send(path, cookie, { method: "POST", body: { a: "b" } });
      expect(answer.status, path).toBe(405);
      expect(decoded(answer.text), path).toContain("Refused: this address is opened, not posted to.");
      expect(answer.text, path).not.toMatch(/Unexpected Server Error|You made a POST request/);
      expect(answer.headers["cache-control"], path).toContain("no-store");
    }
    expect(site.output()).not.toContain("did not provide an `action`");
  });
});
