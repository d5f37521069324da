import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "../../app/config.server";
import { securityCopy } from "../../app/wording/security";
import { hashSessionId } from "../../app/owner/session.server";
import { openInboxStore } from "../../app/store/store.server";
import { runInbox } from "../support/inbox-command";
import { sendAs, type Answer } from "../support/site-http";
import { SoftAuthenticator, type CreationOptions, type RequestOptions } from "../support/soft-authenticator";
import { ensureBuilt, startSite, type SiteServer } from "../support/site-server";

/**
 * Passkeys against the built server over HTTP, with an authenticator in software (tests/support/soft-authenticator.ts):
 * adding one at set-up, logging in with it alone, the second step; and the attacks: an answer replayed (its challenge
 * is taken once), a challenge made for another ceremony or another operator, an expired one, an unknown or another
 * operator's passkey, a passkey that did not verify its user, and bodies that are not what the exchange takes: each a
 * 4xx with a plain message, never a 5xx, and nothing opened.
 */

const publicUrl = "http://passkeys.example";
const words = securityCopy.passkeys;

const sessionCookie = (headers: Answer["headers"]) => headers["set-cookie"]?.[0]?.split(";")[0];

describe("passkeys over HTTP", { timeout: 60_000 }, () => {
  let dir: string;
  let databaseUrl: string;
  let site: SiteServer;

  const cli = (args: string[], input = "") =>
    runInbox(args, { env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" }, input });

  const send = (path: string, options: Parameters<typeof sendAs>[3] = {}) => sendAs(publicUrl, site.url, path, options);

  /** One step of the JSON exchange; `raw` sends those bytes as they are. */
  async function exchange(body: object | string, cookie?: string) {
    const bytes = Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
    const answer = await send("/inbox/passkey", {
      method: "POST",
      cookie,
      upload: { bytes, contentType: "application/json" },
    });
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(answer.text) as Record<string, unknown>;
    } catch {
      // not JSON: the test says what it expected
    }
    return { ...answer, json };
  }

  async function newOperator() {
    const email = `owner-${randomUUID().slice(0, 8)}@example.com`;
    const password = `moonlit crypt ${randomUUID()}`;
    expect((await cli(["operator", "add", email], `${password}\n`)).status).toBe(0);
    return { email, password };
  }

  async function passwordLogin({ email, password }: { email: string; password: string }) {
    const answer = await send("/inbox/login", { method: "POST", body: { email, password, next: "/inbox" } });
    expect(answer.status).toBe(302);
    return { cookie: sessionCookie(answer.headers)!, location: answer.headers.location };
  }

  /** Step-up with the passkey: the session's factor is fresh for ten minutes. */
  async function stepUp(cookie: string, authenticator: SoftAuthenticator) {
    const options = (await exchange({ step: "options", purpose: "verify" }, cookie)).json.options as RequestOptions;
    const passed = await exchange(
      { step: "finish", purpose: "verify", response: authenticator.assert(options) },
      cookie,
    );
    expect(passed.status, passed.text).toBe(200);
  }

  /**
   * A new operator with one passkey added at set-up; the session that added it (under its new id: set-up done is a
   * change of stage), its factor then passed with that passkey (adding one is not passing one).
   */
  async function operatorWithPasskey() {
    const operator = await newOperator();
    const login = await passwordLogin(operator);
    expect(login.location).toBe("/inbox/security");
    const authenticator = new SoftAuthenticator(publicUrl);
    const options = await exchange({ step: "options", purpose: "register" }, login.cookie);
    expect(options.status).toBe(200);
    const response = authenticator.register(options.json.options as CreationOptions);
    const finished = await exchange({ step: "finish", purpose: "register", name: "Test key", response }, login.cookie);
    expect(finished.status, finished.text).toBe(200);
    const cookie = sessionCookie(finished.headers)!;
    await stepUp(cookie, authenticator);
    return { operator, cookie, authenticator, registration: response };
  }

  const loginChallenge = async () =>
    (await exchange({ step: "options", purpose: "login" })).json.options as RequestOptions;

  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), "haunt-passkeys-"));
    databaseUrl = `file:${join(dir, "inbox.db")}`;
    // The second factor at its default (required), as the site runs.
    site = await startSite({ API_HOST: "", DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, INBOX_REQUIRE_2FA: "on" });
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("adds a passkey at set-up (the inbox opens), logs in with it alone, and passes the second step with it", async () => {
    const operator = await newOperator();
    const setup = await passwordLogin(operator);
    expect((await send("/inbox", { cookie: setup.cookie })).headers.location).toBe("/inbox/security");

    const options = await exchange({ step: "options", purpose: "register" }, setup.cookie);
    expect(options.status).toBe(200);
    const creation = options.json.options as CreationOptions & {
      user: { id: string; name: string };
      authenticatorSelection: Record<string, unknown>;
      excludeCredentials: unknown[];
    };
    expect(creation.rp.id).toBe("passkeys.example");
    expect(creation.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "preferred" });
    expect(creation.excludeCredentials).toEqual([]);
    // The user handle is an opaque id, never the address.
    expect(Buffer.from(creation.user.id, "base64url").toString()).not.toContain("@");

    const authenticator = new SoftAuthenticator(publicUrl);
    const registration = authenticator.register(creation);
    const added = await exchange(
      { step: "finish", purpose: "register", name: "Laptop", response: registration },
      setup.cookie,
    );
    expect(added.status, added.text).toBe(200);
    expect(added.json).toEqual({ next: "/inbox/security?done=passkey-added-setup" });
    // Set-up done: a new session id, and the one from the password step opens nothing.
    const cookie = sessionCookie(added.headers)!;
    expect(cookie).not.toBe(setup.cookie);
    expect((await send("/inbox", { cookie })).status).toBe(200);
    expect((await send("/inbox", { cookie: setup.cookie })).headers.location).toMatch(/^\/inbox\/login/);
    const security = await send("/inbox/security", { cookie });
    expect(security.text).toContain("Laptop");

    // Adding another asks for step-up (adding one was not passing one): the new passkey passes it.
    const asked = await exchange({ step: "options", purpose: "register" }, cookie);
    expect(asked.status).toBe(200);
    expect(asked.json).toEqual({ notice: words.stepUp, next: "/inbox/verify?next=%2Finbox%2Fsecurity&again=1" });
    await stepUp(cookie, authenticator);
    // Its registration again: the challenge was taken.
    const again = await exchange(
      { step: "finish", purpose: "register", name: "Again", response: registration },
      cookie,
    );
    expect(again.status).toBe(400);
    expect(again.json.error).toBe(words.expired);
    // The next options exclude it.
    const next = await exchange({ step: "options", purpose: "register" }, cookie);
    expect((next.json.options as { excludeCredentials: { id: string }[] }).excludeCredentials).toEqual([
      expect.objectContaining({ id: authenticator.id }),
    ]);

    // The login with the passkey alone: discoverable (no allowed list), user verification required.
    const login = await loginChallenge();
    expect(login).toMatchObject({ allowCredentials: [], userVerification: "required", rpId: "passkeys.example" });
    const loggedIn = await exchange({
      step: "finish",
      purpose: "login",
      next: "/inbox/activity",
      response: authenticator.assert(login),
    });
    expect(loggedIn.status, loggedIn.text).toBe(200);
    expect(loggedIn.json).toEqual({ next: "/inbox/activity" });
    const passkeyCookie = sessionCookie(loggedIn.headers)!;
    expect(passkeyCookie).toMatch(/^inbox_session=[A-Za-z0-9_-]{43}$/);
    expect(passkeyCookie).not.toBe(cookie);
    // Noted like a password login: the browser's id for the new-login alert comes with it.
    expect(loggedIn.headers["set-cookie"]?.[1]).toMatch(/^inbox_browser=[A-Za-z0-9_-]{43}; /);
    const activity = await send("/inbox/activity", { cookie: passkeyCookie });
    expect(activity.status).toBe(200);
    expect(activity.text).toContain("logged in (passkey)");

    // The password, then the passkey as the second step.
    const second = await passwordLogin(operator);
    expect(second.location).toBe("/inbox/verify?next=%2Finbox");
    expect((await send("/inbox", { cookie: second.cookie })).headers.location).toMatch(/^\/inbox\/verify/);
    const verify = await exchange({ step: "options", purpose: "verify" }, second.cookie);
    expect(verify.status).toBe(200);
    expect((verify.json.options as { allowCredentials: { id: string }[] }).allowCredentials).toEqual([
      expect.objectContaining({ id: authenticator.id }),
    ]);
    const verified = await exchange(
      {
        step: "finish",
        purpose: "verify",
        next: "/inbox",
        response: authenticator.assert(verify.json.options as RequestOptions),
      },
      second.cookie,
    );
    expect(verified.status, verified.text).toBe(200);
    expect(verified.json).toEqual({ next: "/inbox" });
    // The second step is a change of stage: a new id; the password step's cookie opens nothing afterwards.
    const whole = sessionCookie(verified.headers)!;
    expect(whole).not.toBe(second.cookie);
    expect((await send("/inbox", { cookie: whole })).status).toBe(200);
    expect((await send("/inbox", { cookie: second.cookie })).headers.location).toMatch(/^\/inbox\/login/);
  });

  it("an accepted assertion replayed is refused: its challenge answers once", async () => {
    const { authenticator } = await operatorWithPasskey();
    const response = authenticator.assert(await loginChallenge());
    const first = await exchange({ step: "finish", purpose: "login", response });
    expect(first.status).toBe(200);
    const replayed = await exchange({ step: "finish", purpose: "login", response });
    expect(replayed.status).toBe(400);
    expect(replayed.json.error).toBe(words.expired);
    expect(replayed.headers["set-cookie"]).toBeUndefined();
    // Two answers to one challenge sent at once: exactly one gets in.
    const challenge = await loginChallenge();
    const [a, b] = await Promise.all([
      exchange({ step: "finish", purpose: "login", response: authenticator.assert(challenge) }),
      exchange({ step: "finish", purpose: "login", response: authenticator.assert(challenge) }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
  });

  it("a challenge made for another ceremony, or for another operator, is refused", async () => {
    const { operator, authenticator } = await operatorWithPasskey();
    const { cookie } = await passwordLogin(operator);
    // A login challenge answered on the second step, and a second step's challenge answered as a login.
    const login = await loginChallenge();
    const asVerify = await exchange(
      { step: "finish", purpose: "verify", response: authenticator.assert(login) },
      cookie,
    );
    expect(asVerify.status).toBe(400);
    expect(asVerify.json.error).toBe(words.expired);
    const verify = (await exchange({ step: "options", purpose: "verify" }, cookie)).json.options as RequestOptions;
    const asLogin = await exchange({ step: "finish", purpose: "login", response: authenticator.assert(verify) });
    expect(asLogin.status).toBe(400);
    expect(asLogin.json.error).toBe(words.expired);
    // Each was spent by the refusal: the right ceremony cannot use it afterwards either.
    const late = await exchange({ step: "finish", purpose: "login", response: authenticator.assert(login) });
    expect(late.status).toBe(400);

    // Another operator's second step, answered with this operator's passkey on the other's challenge.
    const other = await operatorWithPasskey();
    const otherLogin = await passwordLogin(other.operator);
    const otherChallenge = (await exchange({ step: "options", purpose: "verify" }, otherLogin.cookie)).json
      .options as RequestOptions;
    const crossed = await exchange(
      { step: "finish", purpose: "verify", response: authenticator.assert(otherChallenge) },
      otherLogin.cookie,
    );
    expect(crossed.status).toBe(403);
    expect(crossed.json.error).toBe(words.otherOperator);
    // This operator's session answering the other's challenge: refused too (the challenge is bound to its operator).
    const stolenChallenge = (await exchange({ step: "options", purpose: "verify" }, otherLogin.cookie)).json
      .options as RequestOptions;
    const bound = await exchange(
      { step: "finish", purpose: "verify", response: authenticator.assert(stolenChallenge) },
      cookie,
    );
    expect(bound.status).toBe(400);
    expect((await send("/inbox", { cookie })).headers.location).toMatch(/^\/inbox\/verify/);
    expect((await send("/inbox", { cookie: otherLogin.cookie })).headers.location).toMatch(/^\/inbox\/verify/);
  });

  it("an expired challenge is refused", async () => {
    const { authenticator } = await operatorWithPasskey();
    const location = parseDatabaseUrl(databaseUrl)!;
    const store = await openInboxStore(location, { timeoutMs: 10_000 });
    const challenge = randomBytes(32).toString("base64url");
    try {
      await store.putChallenge(challenge, "login", null, new Date(Date.now() - 1000));
    } finally {
      await store.close();
    }
    const expired = await exchange({ step: "finish", purpose: "login", response: authenticator.assert({ challenge }) });
    expect(expired.status).toBe(400);
    expect(expired.json.error).toBe(words.expired);
  });

  it("an unknown passkey, or one that did not verify its user, does not log in", async () => {
    const { registration } = await operatorWithPasskey();
    const stranger = new SoftAuthenticator(publicUrl);
    const unknown = await exchange({
      step: "finish",
      purpose: "login",
      response: stranger.assert(await loginChallenge()),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toBe(words.unknownKey);

    // A key without user verification can be added (preferred), serves as the second step, but is no login alone.
    const operator = await newOperator();
    const login = await passwordLogin(operator);
    const noUv = new SoftAuthenticator(publicUrl, false);
    const options = (await exchange({ step: "options", purpose: "register" }, login.cookie)).json
      .options as CreationOptions;
    const added = await exchange(
      { step: "finish", purpose: "register", name: "Key", response: noUv.register(options) },
      login.cookie,
    );
    expect(added.status).toBe(200);
    const cookie = sessionCookie(added.headers)!;
    await stepUp(cookie, noUv);
    const alone = await exchange({ step: "finish", purpose: "login", response: noUv.assert(await loginChallenge()) });
    expect(alone.status).toBe(400);
    expect(alone.json.error).toBe(words.notVerified);
    expect(alone.headers["set-cookie"]).toBeUndefined();

    // A registration answer signed for another site (origin) is refused.
    const elsewhere = new SoftAuthenticator("http://evil.example");
    const again = (await exchange({ step: "options", purpose: "register" }, cookie)).json.options as CreationOptions;
    const wrongOrigin = await exchange(
      { step: "finish", purpose: "register", name: "Evil", response: elsewhere.register(again) },
      cookie,
    );
    expect(wrongOrigin.status).toBe(400);
    expect(wrongOrigin.json.error).toBe(words.refused);
    expect(registration.id).not.toBe(elsewhere.id);
  });

  it("bodies that are not what the exchange takes are a 400 with a plain message, and it needs a session where it should", async () => {
    for (const body of ["not json", "", "[]", "{}", '{"step":"options","purpose":"everything"}', "null", '"x"']) {
      const answer = await exchange(body);
      expect(answer.status, body).toBe(400);
      expect(answer.json.error, body).toBe(words.badRequest);
    }
    const { cookie, authenticator } = await operatorWithPasskey();
    const good = authenticator.assert(await loginChallenge());
    const broken = [
      { step: "finish", purpose: "login", response: { ...good, type: "other" } },
      { step: "finish", purpose: "login", response: { ...good, id: "not base64url!" } },
      { step: "finish", purpose: "login", response: { ...good, response: { ...good.response, signature: 7 } } },
      {
        step: "finish",
        purpose: "login",
        response: { ...good, response: { ...good.response, clientDataJSON: "e30" } },
      },
      { step: "finish", purpose: "register", name: "x".repeat(61), response: good },
    ];
    for (const body of broken) {
      const answer = await exchange(body, cookie);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(typeof answer.json.error).toBe("string");
    }
    // A name too long for a real registration answer.
    const options = (await exchange({ step: "options", purpose: "register" }, cookie)).json.options as CreationOptions;
    const longName = await exchange(
      {
        step: "finish",
        purpose: "register",
        name: "x".repeat(61),
        response: new SoftAuthenticator(publicUrl).register(options),
      },
      cookie,
    );
    expect(longName.status).toBe(400);
    expect(longName.json.error).toBe(words.nameMissing);
    // Adding and the second step need a session: without one, 401 with a plain message and where to go.
    const anonymous = await exchange({ step: "options", purpose: "register" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toMatchObject({ error: words.sessionEnded, next: "/inbox/login" });
    expect((await exchange({ step: "options", purpose: "verify" })).status).toBe(401);
    // A GET is no exchange.
    expect((await send("/inbox/passkey")).status).toBe(405);
    // Another site's page posting to the exchange: refused before it runs.
    const crossSite = await send("/inbox/passkey", {
      method: "POST",
      upload: { bytes: Buffer.from('{"step":"options","purpose":"login"}'), contentType: "application/json" },
      headers: { Origin: "http://evil.example" },
    });
    expect(crossSite.status).toBe(403);
  });

  it("Remove (a plain form): step-up when the factor is old, never the last factor, never another operator's key", async () => {
    const { operator, cookie, authenticator } = await operatorWithPasskey();
    const remove = (passkey: string, session = cookie) =>
      send("/inbox/security", { method: "POST", cookie: session, body: { intent: "remove-passkey", passkey } });

    // The only factor: refused on the page, with a plain message.
    const last = await remove(authenticator.id);
    expect(last.status).toBe(409);
    expect(last.text).toContain(words.lastFactor.replace(/'/g, "&#x27;"));

    // A second passkey; then one of the two goes.
    const options = (await exchange({ step: "options", purpose: "register" }, cookie)).json.options as CreationOptions;
    const phone = new SoftAuthenticator(publicUrl);
    expect(
      (
        await exchange(
          { step: "finish", purpose: "register", name: "Phone", response: phone.register(options) },
          cookie,
        )
      ).status,
    ).toBe(200);

    // Another operator cannot remove it, even knowing its id.
    const other = await operatorWithPasskey();
    const foreign = await remove(phone.id, other.cookie);
    expect(foreign.status).toBe(404);
    expect(foreign.text).toContain(words.notFound);

    // The session's factor older than ten minutes: the code page first, then back to the Security page.
    const store = await openInboxStore(parseDatabaseUrl(databaseUrl)!, { timeoutMs: 10_000 });
    try {
      await store.passSecondFactor(hashSessionId(cookie.split("=")[1]!), new Date(Date.now() - 11 * 60_000));
    } finally {
      await store.close();
    }
    const stale = await remove(phone.id);
    expect(stale.status).toBe(302);
    expect(stale.headers.location).toBe("/inbox/verify?next=%2Finbox%2Fsecurity&again=1");
    const verify = (await exchange({ step: "options", purpose: "verify" }, cookie)).json.options as RequestOptions;
    expect(
      (await exchange({ step: "finish", purpose: "verify", response: authenticator.assert(verify) }, cookie)).status,
    ).toBe(200);

    const removed = await remove(phone.id);
    expect(removed.status).toBe(303);
    expect(removed.headers.location).toBe("/inbox/security?done=passkey-removed");
    const page = await send("/inbox/security", { cookie });
    expect(page.text).not.toContain("Phone");
    expect(page.text).toContain("Test key");
    const activity = (await cli(["activity"])).stdout;
    expect(activity).toContain("passkey removed");
    expect(activity).toContain(operator.email);
  });

  it("the passkey login takes from the site-wide login rate: past it, 429 with a plain message with Retry-After", async () => {
    const limited = await startSite({
      API_HOST: "",
      DATABASE_URL: `file:${join(dir, "limited.db")}`,
      PUBLIC_URL: publicUrl,
      INBOX_REQUIRE_2FA: "on",
      RATE_LIMIT_LOGIN_PER_MINUTE: "3",
    });
    try {
      const options = () =>
        sendAs(publicUrl, limited.url, "/inbox/passkey", {
          method: "POST",
          upload: { bytes: Buffer.from('{"step":"options","purpose":"login"}'), contentType: "application/json" },
        });
      for (let i = 0; i < 3; i++) expect((await options()).status).toBe(200);
      const refused = await options();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect((JSON.parse(refused.text) as { error: string }).error).toMatch(/Too many logins on this site/);
    } finally {
      await limited.stop();
    }
  });
});
