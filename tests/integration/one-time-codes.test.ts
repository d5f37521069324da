import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Secret, TOTP } from "otpauth";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { securityCopy } from "~/wording/security";
import { runInbox } from "../support/inbox-command";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { sendAs, type Answer } from "../support/site-http";
import { ensureBuilt, startSite, type SiteServer } from "../support/site-server";

/**
 * One-time codes (TOTP) and recovery codes through the built server, as a browser without JavaScript uses them (form
 * posts), with INBOX_REQUIRE_2FA on: a new operator's password leads to the Security page and nothing else; set-up
 * (secret and QR shown, a wrong code refused, the right one confirms); ten recovery codes shown once; the login's code
 * page; the attacks on the second factor (a replayed code, another operator's code, a recovery code twice, guessing past the
 * throttle, on one instance and across two on PostgreSQL); `operator reset-2fa` ending the operator's sessions. Codes
 * are computed here from the secret the page showed, with otpauth, as an authenticator app does.
 */

const publicUrl = "http://inbox.example";
const codes = securityCopy.codes;
const verifyCopy = securityCopy.verify;

interface Operator {
  email: string;
  password: string;
}

function cli(databaseUrl: string, args: string[], input = "") {
  return runInbox(args, {
    env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "", INBOX_REQUIRE_2FA: "" },
    input,
  });
}

let counter = 0;
async function addOperator(databaseUrl: string): Promise<Operator> {
  const operator = { email: `keeper-${++counter}@example.com`, password: `velvet quartz owl ${counter} harbour lamp` };
  const run = await cli(databaseUrl, ["operator", "add", operator.email], `${operator.password}\n`);
  expect(run.status, run.stderr).toBe(0);
  return operator;
}

/** The page's text as shown: React escapes apostrophes and quotes. */
const shown = (text: string) => text.replaceAll("&#x27;", "'").replaceAll("&quot;", '"');
const cookieOf = (answer: Answer) => answer.headers["set-cookie"]![0]!.split(";")[0]!;
/** The session cookie to go on with: a change of stage (the second step, set-up done) sets a new one. */
const goOn = (answer: Answer, cookie: string) =>
  answer.headers["set-cookie"]?.map((line) => line.split(";")[0]!).find((pair) => pair.startsWith("inbox_session=")) ??
  cookie;

/** A request from one client (the server trusts one proxy hop): the throttle counts per operator and client. */
function request(
  site: SiteServer,
  path: string,
  { cookie, body, from }: { cookie?: string; body?: Record<string, string>; from: string },
) {
  return sendAs(publicUrl, site.url, path, {
    method: body ? "POST" : "GET",
    cookie,
    body,
    headers: { "X-Forwarded-For": from },
  });
}

async function logIn(site: SiteServer, operator: Operator, from: string) {
  const answer = await request(site, "/inbox/login", {
    body: { email: operator.email, password: operator.password, next: "/inbox" },
    from,
  });
  expect(answer.status).toBe(302);
  return { cookie: cookieOf(answer), location: answer.headers.location };
}

const totp = (secret: string) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret.replace(/\s/g, "")) });
/** The code an app shows `offsetSteps` steps from now (1: the next one, still accepted now: a clock a step ahead). */
const codeFor = (secret: string, offsetSteps = 0) =>
  totp(secret).generate({ timestamp: Date.now() + offsetSteps * 30_000 });
/** Six digits that are no code of the steps the server accepts now. */
function wrongCodeFor(secret: string): string {
  const near = new Set([-1, 0, 1, 2].map((offset) => codeFor(secret, offset)));
  for (let n = 0; ; n++) {
    const candidate = String(123456 + n * 7919).padStart(6, "0");
    if (!near.has(candidate)) return candidate;
  }
}

const secretIn = (html: string) => /data-secret=""[^>]*>([A-Z2-7 ]+)</.exec(html)?.[1];
const recoveryCodesIn = (html: string) => [...html.matchAll(/<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/g)].map((m) => m[1]!);

/** Set-up over HTTP from a session at stage setup: the secret read from the page, then confirmed with its code. */
async function setUpCodes(site: SiteServer, cookie: string, from: string) {
  const started = await request(site, "/inbox/security", { cookie, body: { intent: "totp-start" }, from });
  expect(started.status).toBe(200);
  const secret = secretIn(started.text)!;
  expect(secret).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
  const confirmed = await request(site, "/inbox/security", {
    cookie,
    body: { intent: "totp-confirm", code: codeFor(secret) },
    from,
  });
  expect(confirmed.status).toBe(200);
  const recovery = recoveryCodesIn(confirmed.text);
  expect(recovery).toHaveLength(10);
  return { secret, recovery, started, confirmed, cookie: goOn(confirmed, cookie) };
}

/** A code posted to the code page from a session at stage password. */
const verify = (site: SiteServer, cookie: string, code: string, from: string) =>
  request(site, "/inbox/verify", { cookie, body: { code, next: "/inbox" }, from });

function expectWrong(answer: Answer) {
  expect(answer.status).toBe(401);
  expect(shown(answer.text)).toMatch(new RegExp(`role="alert"[^>]*>${escape(verifyCopy.wrong)}`));
}
function expectThrottled(answer: Answer) {
  expect(answer.status).toBe(429);
  const seconds = Number(answer.headers["retry-after"]);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(900);
  expect(shown(answer.text)).toContain(verifyCopy.throttled(Math.ceil(seconds / 60)));
}
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const sites: SiteServer[] = [];
let dir: string;
beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "haunt-codes-"));
}, 60_000);
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const required = { API_HOST: "", PUBLIC_URL: publicUrl, TRUST_PROXY: "1", INBOX_REQUIRE_2FA: "on" };

async function sqliteSite(name: string): Promise<SiteServer> {
  const site = await startSite({ ...required, DATABASE_URL: `file:${join(dir, `${name}.db`)}` });
  sites.push(site);
  return site;
}

describe("one-time codes on SQLite, without JavaScript", () => {
  it("a new operator sets them up from the Security page, gets ten recovery codes once, then logs in with codes", async () => {
    const site = await sqliteSite("whole-path");
    const operator = await addOperator(site.databaseUrl);
    const other = await addOperator(site.databaseUrl);

    // The password alone leads to the Security page, and the inbox sends the session back there.
    const first = await logIn(site, operator, "192.0.2.10");
    expect(first.location).toBe("/inbox/security");
    const inboxBefore = await request(site, "/inbox", { cookie: first.cookie, from: "192.0.2.10" });
    expect(inboxBefore.status).toBe(302);
    expect(inboxBefore.headers.location).toBe("/inbox/security");
    const page = await request(site, "/inbox/security", { cookie: first.cookie, from: "192.0.2.10" });
    expect(page.status).toBe(200);
    expect(shown(page.text)).toContain(securityCopy.page.setupRequired);
    expect(shown(page.text)).toContain(codes.start);

    // Set up: the secret grouped in fours and its QR code (SVG, dark on white), a field "Code", a button "Confirm".
    const started = await request(site, "/inbox/security", {
      cookie: first.cookie,
      body: { intent: "totp-start" },
      from: "192.0.2.10",
    });
    expect(started.status).toBe(200);
    const secret = secretIn(started.text)!;
    expect(secret).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    expect(started.text).toMatch(/<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 \d+ \d+">/);
    expect(started.text).toContain('fill="#ffffff"');
    expect(started.text).toMatch(/<label for="codes-code"[^>]*>Code<\/label>/);
    expect(started.text).toMatch(/<button[^>]*value="totp-confirm"[^>]*>Confirm<\/button>/);

    // A wrong code: refused with a plain message, the same secret still on screen, nothing turned on.
    const wrong = await request(site, "/inbox/security", {
      cookie: first.cookie,
      body: { intent: "totp-confirm", code: wrongCodeFor(secret) },
      from: "192.0.2.10",
    });
    expect(wrong.status).toBe(400);
    expect(shown(wrong.text)).toMatch(new RegExp(`role="alert"[^>]*>${escape(codes.wrongCode)}`));
    expect(secretIn(wrong.text)).toBe(secret);
    expect((await request(site, "/inbox", { cookie: first.cookie, from: "192.0.2.10" })).status).toBe(302);

    // The right code: on, ten recovery codes shown once (one a line), and this session goes on to the inbox.
    const confirmed = await request(site, "/inbox/security", {
      cookie: first.cookie,
      body: { intent: "totp-confirm", code: codeFor(secret) },
      from: "192.0.2.10",
    });
    expect(confirmed.status).toBe(200);
    const recovery = recoveryCodesIn(confirmed.text);
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    expect(shown(confirmed.text)).toContain(codes.recoveryIntro);
    expect(confirmed.text).toContain(`href="/inbox"`);
    expect(shown(confirmed.text)).toContain(codes.goToInbox);
    expect(secretIn(confirmed.text)).toBeUndefined();
    // Set-up done changes the session's stage: it goes on under a new id, and the old one opens nothing.
    const firstCookie = goOn(confirmed, first.cookie);
    expect(firstCookie).not.toBe(first.cookie);
    expect((await request(site, "/inbox", { cookie: firstCookie, from: "192.0.2.10" })).status).toBe(200);
    expect((await request(site, "/inbox", { cookie: first.cookie, from: "192.0.2.10" })).headers.location).toBe(
      "/inbox/login?next=%2Finbox",
    );
    // The browser's "resend" of that post (a reload of its answer): refused with a plain message, neither key nor codes again.
    const resent = await request(site, "/inbox/security", {
      cookie: firstCookie,
      body: { intent: "totp-confirm", code: codeFor(secret) },
      from: "192.0.2.10",
    });
    expect(resent.status).toBe(409);
    expect(shown(resent.text)).toContain(codes.alreadyOn);
    expect(recoveryCodesIn(resent.text)).toEqual([]);
    expect(secretIn(resent.text)).toBeUndefined();
    const later = await request(site, "/inbox/security", { cookie: firstCookie, from: "192.0.2.10" });
    expect(shown(later.text)).toContain(codes.recoveryLeft(10));
    for (const code of recovery) expect(later.text).not.toContain(code);
    expect(later.text).not.toContain(secret.replace(/ /g, "").slice(0, 8));

    // The other operator sets up codes of their own.
    const otherSession = await logIn(site, other, "192.0.2.20");
    const { secret: otherSecret } = await setUpCodes(site, otherSession.cookie, "192.0.2.20");

    // Log out; the password now leads to the code page.
    expect((await request(site, "/inbox/logout", { cookie: firstCookie, body: {}, from: "192.0.2.10" })).status).toBe(
      302,
    );
    const second = await logIn(site, operator, "192.0.2.11");
    expect(second.location).toBe("/inbox/verify?next=%2Finbox");
    expect((await request(site, "/inbox", { cookie: second.cookie, from: "192.0.2.11" })).headers.location).toBe(
      "/inbox/verify?next=%2Finbox",
    );

    // Another operator's right code is no code here.
    expectWrong(await verify(site, second.cookie, codeFor(otherSecret, 1), "192.0.2.11"));
    // The app's next code (the set-up used this step's) lets the operator in, once.
    const code = codeFor(secret, 1);
    const accepted = await verify(site, second.cookie, code, "192.0.2.11");
    expect(accepted.status).toBe(302);
    expect(accepted.headers.location).toBe("/inbox");
    expect((await request(site, "/inbox", { cookie: goOn(accepted, second.cookie), from: "192.0.2.11" })).status).toBe(
      200,
    );
    // Replayed in a new session (the same password, the same code): refused.
    const third = await logIn(site, operator, "192.0.2.12");
    expectWrong(await verify(site, third.cookie, code, "192.0.2.12"));
    expect((await request(site, "/inbox", { cookie: third.cookie, from: "192.0.2.12" })).status).toBe(302);

    // A recovery code, typed as from a printout (upper case, a space for the dash): in once, then never again.
    const typed = recovery[3]!.toUpperCase().replace("-", " ");
    const byRecovery = await verify(site, third.cookie, typed, "192.0.2.12");
    expect(byRecovery.status).toBe(302);
    expect(byRecovery.headers.location).toBe("/inbox");
    const fourth = await logIn(site, operator, "192.0.2.13");
    expectWrong(await verify(site, fourth.cookie, recovery[3]!, "192.0.2.13"));
    const left = await request(site, "/inbox/security", { cookie: goOn(byRecovery, third.cookie), from: "192.0.2.12" });
    expect(shown(left.text)).toContain(codes.recoveryLeft(9));

    // The activity log names what happened; neither the secret nor a code is in it or in the server's output.
    const activity = await cli(site.databaseUrl, ["activity"]);
    expect(activity.stdout).toContain("one-time codes set up");
    expect(activity.stdout).toContain("second factor passed (one-time code)");
    expect(activity.stdout).toContain("second factor passed (recovery code)");
    for (const text of [activity.stdout, site.output()]) {
      expect(text).not.toContain(secret.replace(/ /g, ""));
      expect(text).not.toContain(secret);
      for (const code of recovery) expect(text).not.toContain(code);
    }
  }, 60_000);

  it("five wrong codes, then the sixth try is refused unchecked (429 with a plain message), even the right code; 20 wrong from many networks stop every network", async () => {
    const site = await sqliteSite("throttle");
    const operator = await addOperator(site.databaseUrl);
    const setupSession = await logIn(site, operator, "198.51.100.1");
    const { secret } = await setUpCodes(site, setupSession.cookie, "198.51.100.1");
    const { cookie } = await logIn(site, operator, "198.51.100.2");
    for (let n = 0; n < 5; n++) expectWrong(await verify(site, cookie, wrongCodeFor(secret), "198.51.100.2"));
    expectThrottled(await verify(site, cookie, wrongCodeFor(secret), "198.51.100.2"));
    expectThrottled(await verify(site, cookie, codeFor(secret, 1), "198.51.100.2"));
    expect((await request(site, "/inbox", { cookie, from: "198.51.100.2" })).status).toBe(302);
    // From another network the operator (not the guesser) still gets in.
    const elsewhere = await logIn(site, operator, "203.0.113.9");
    expect((await verify(site, elsewhere.cookie, codeFor(secret, 1), "203.0.113.9")).status).toBe(302);
    expect((await cli(site.databaseUrl, ["activity"])).stdout).toContain("code refused (throttled)");

    // Many networks, one wrong code each: 20 for the operator in all, then every network is refused unchecked.
    const spread = await logIn(site, operator, "203.0.113.200");
    const statuses: number[] = [];
    for (let n = 1; n <= 21; n++) {
      statuses.push((await verify(site, spread.cookie, wrongCodeFor(secret), `2001:db8:${n.toString(16)}::1`)).status);
    }
    // 15 of them checked: the guesser's 5 wrong codes above count too (its refused tries and the operator's right
    // code do not).
    expect(statuses).toEqual([...Array(15).fill(401), ...Array(6).fill(429)]);
    expectThrottled(await verify(site, spread.cookie, codeFor(secret, 2), "2001:db8:ffff::1"));
  }, 60_000);

  it("recovery codes can be made anew (the old stop working), and one-time codes are kept while they are the only factor", async () => {
    const site = await sqliteSite("manage");
    const operator = await addOperator(site.databaseUrl);
    const login = await logIn(site, operator, "192.0.2.30");
    const { recovery, secret, cookie } = await setUpCodes(site, login.cookie, "192.0.2.30");
    // Setting up a factor is not passing one: new recovery codes ask for a code first, even right after.
    const asked = await request(site, "/inbox/security", {
      cookie,
      body: { intent: "recovery-new" },
      from: "192.0.2.30",
    });
    expect(asked.headers.location).toBe("/inbox/verify?next=%2Finbox%2Fsecurity&again=1");
    const passed = await verify(site, cookie, codeFor(secret, 1), "192.0.2.30");
    expect(passed.status).toBe(302);
    const renewed = await request(site, "/inbox/security", {
      cookie,
      body: { intent: "recovery-new" },
      from: "192.0.2.30",
    });
    expect(renewed.status).toBe(200);
    const fresh = recoveryCodesIn(renewed.text);
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => recovery.includes(code))).toEqual([]);
    expect(shown(renewed.text)).toContain(codes.newRecoveryDone);
    // The only factor, and one is required: removal refused with a plain message.
    const removal = await request(site, "/inbox/security", {
      cookie,
      body: { intent: "totp-remove" },
      from: "192.0.2.30",
    });
    expect(removal.status).toBe(409);
    expect(shown(removal.text)).toMatch(new RegExp(`role="alert"[^>]*>${escape(codes.lastFactor)}`));
    const again = await logIn(site, operator, "192.0.2.31");
    expectWrong(await verify(site, again.cookie, recovery[0]!, "192.0.2.31"));
    expect((await verify(site, again.cookie, fresh[0]!, "192.0.2.31")).status).toBe(302);
    expect((await cli(site.databaseUrl, ["activity"])).stdout).toContain("new recovery codes made");
  }, 60_000);

  it("a second browser still setting up is asked for a code once the first has set one up", async () => {
    const site = await sqliteSite("two-browsers");
    const operator = await addOperator(site.databaseUrl);
    const first = await logIn(site, operator, "192.0.2.40");
    const second = await logIn(site, operator, "192.0.2.41");
    expect(second.location).toBe("/inbox/security");
    const { secret } = await setUpCodes(site, first.cookie, "192.0.2.40");
    // The second session may no longer set up a factor of its own: it owes the code now, like a new login.
    const security = await request(site, "/inbox/security", { cookie: second.cookie, from: "192.0.2.41" });
    expect(security.status).toBe(302);
    expect(security.headers.location).toMatch(/^\/inbox\/verify\?next=/);
    const started = await request(site, "/inbox/security", {
      cookie: second.cookie,
      body: { intent: "totp-start" },
      from: "192.0.2.41",
    });
    expect(started.status).toBe(302);
    expect(started.headers.location).toBe("/inbox/verify");
    const passed = await verify(site, second.cookie, codeFor(secret, 1), "192.0.2.41");
    expect(passed.status).toBe(302);
    expect((await request(site, "/inbox", { cookie: goOn(passed, second.cookie), from: "192.0.2.41" })).status).toBe(
      200,
    );
  }, 60_000);

  it("new recovery codes ask for a code again when this session's last one is over ten minutes old", async () => {
    const site = await sqliteSite("step-up");
    const operator = await addOperator(site.databaseUrl);
    const login = await logIn(site, operator, "192.0.2.60");
    const { secret, cookie } = await setUpCodes(site, login.cookie, "192.0.2.60");
    // Eleven minutes pass for this session's factor (its time moved back in the database, as a clock would).
    const database = new DatabaseSync(site.databaseUrl.replace(/^file:/, ""));
    try {
      database.exec("UPDATE sessions SET factor_at = factor_at - 660000");
    } finally {
      database.close();
    }
    const asked = await request(site, "/inbox/security", {
      cookie,
      body: { intent: "recovery-new" },
      from: "192.0.2.60",
    });
    expect(asked.status).toBe(302);
    expect(asked.headers.location).toBe("/inbox/verify?next=%2Finbox%2Fsecurity&again=1");
    const page = await request(site, "/inbox/verify?next=%2Finbox%2Fsecurity&again=1", { cookie, from: "192.0.2.60" });
    expect(shown(page.text)).toContain(verifyCopy.againIntro);
    const passed = await request(site, "/inbox/verify", {
      cookie,
      body: { code: codeFor(secret, 1), next: "/inbox/security" },
      from: "192.0.2.60",
    });
    expect(passed.status).toBe(302);
    expect(passed.headers.location).toBe("/inbox/security");
    const renewed = await request(site, "/inbox/security", {
      cookie,
      body: { intent: "recovery-new" },
      from: "192.0.2.60",
    });
    expect(renewed.status).toBe(200);
    expect(recoveryCodesIn(renewed.text)).toHaveLength(10);
  }, 60_000);

  it("with INBOX_REQUIRE_2FA off, codes set up can be removed: logged, and the password alone logs in again", async () => {
    const site = await startSite({
      ...required,
      INBOX_REQUIRE_2FA: "off",
      DATABASE_URL: `file:${join(dir, "off.db")}`,
    });
    sites.push(site);
    const operator = await addOperator(site.databaseUrl);
    const first = await logIn(site, operator, "192.0.2.70");
    expect(first.location).toBe("/inbox");
    const { secret } = await setUpCodes(site, first.cookie, "192.0.2.70");
    expect((await logIn(site, operator, "192.0.2.71")).location).toBe("/inbox/verify?next=%2Finbox");
    // Removing asks for a code (setting them up was not passing one), then goes through.
    const asked = await request(site, "/inbox/security", {
      cookie: first.cookie,
      body: { intent: "totp-remove" },
      from: "192.0.2.70",
    });
    expect(asked.headers.location).toBe("/inbox/verify?next=%2Finbox%2Fsecurity&again=1");
    expect((await verify(site, first.cookie, codeFor(secret, 1), "192.0.2.70")).status).toBe(302);
    const removed = await request(site, "/inbox/security", {
      cookie: first.cookie,
      body: { intent: "totp-remove" },
      from: "192.0.2.70",
    });
    expect(removed.status).toBe(200);
    expect(shown(removed.text)).toContain(codes.removed);
    expect(shown(removed.text)).toContain(codes.start);
    expect((await logIn(site, operator, "192.0.2.72")).location).toBe("/inbox");
    expect((await cli(site.databaseUrl, ["activity"])).stdout).toContain("one-time codes removed");
  }, 60_000);

  it("operator reset-2fa ends the operator's sessions, is logged, and the next login sets up a factor again", async () => {
    const site = await sqliteSite("reset");
    const operator = await addOperator(site.databaseUrl);
    const login = await logIn(site, operator, "192.0.2.40");
    const { secret, cookie } = await setUpCodes(site, login.cookie, "192.0.2.40");
    expect((await request(site, "/inbox", { cookie, from: "192.0.2.40" })).status).toBe(200);

    const reset = await cli(site.databaseUrl, ["operator", "reset-2fa", operator.email]);
    expect(reset.status, reset.stderr).toBe(0);
    expect(reset.stdout).toContain(`Second factor of ${operator.email} reset`);
    expect(reset.stdout).toContain("1 session ended");
    expect(reset.stdout).toContain("At their next login they set up");

    // The cookie from before opens nothing: the login page.
    const before = await request(site, "/inbox", { cookie, from: "192.0.2.40" });
    expect(before.status).toBe(302);
    expect(before.headers.location).toBe("/inbox/login?next=%2Finbox");
    expect((await request(site, "/inbox/login", { from: "192.0.2.40" })).status).toBe(200);
    const activity = (await cli(site.databaseUrl, ["activity"])).stdout;
    expect(activity).toMatch(
      new RegExp(`command line {2}second factor reset {2}${escape(operator.email)} \\(1 session ended\\)`),
    );

    // The next login is at stage setup: the Security page, and the old app's codes are nothing.
    const next = await logIn(site, operator, "192.0.2.41");
    expect(next.location).toBe("/inbox/security");
    expect((await request(site, "/inbox/verify", { cookie: next.cookie, from: "192.0.2.41" })).headers.location).toBe(
      "/inbox/security",
    );
    const page = await request(site, "/inbox/security", { cookie: next.cookie, from: "192.0.2.41" });
    expect(shown(page.text)).toContain(codes.start);
    expect(secret).toBeTruthy();

    const unknown = await cli(site.databaseUrl, ["operator", "reset-2fa", "nobody@example.com"]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain("no operator nobody@example.com");
    expect((await cli(site.databaseUrl, ["operator", "reset-2fa"])).status).toBe(2);
  }, 60_000);
});

describe.skipIf(!postgresAvailable)("one-time codes on two instances sharing PostgreSQL", () => {
  let postgres: TestDatabases;
  beforeAll(async () => {
    postgres = await sharedPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());

  it("a code used on one instance is refused on the other, and the wrong-code throttle is shared", async () => {
    const databaseUrl = await postgres.createDatabase();
    const operator = await addOperator(databaseUrl);
    const [a, b] = await Promise.all([
      startSite({ ...required, DATABASE_URL: databaseUrl }),
      startSite({ ...required, DATABASE_URL: databaseUrl }),
    ]);
    sites.push(a, b);
    const setupSession = await logIn(a, operator, "192.0.2.50");
    const { secret } = await setUpCodes(a, setupSession.cookie, "192.0.2.50");

    // Replayed across instances: in on A, refused on B in another session.
    const code = codeFor(secret, 1);
    const onA = await logIn(a, operator, "192.0.2.51");
    expect((await verify(a, onA.cookie, code, "192.0.2.51")).status).toBe(302);
    const onB = await logIn(b, operator, "192.0.2.52");
    expectWrong(await verify(b, onB.cookie, code, "192.0.2.52"));

    // Wrong codes from one client, alternating between the instances: five checked in all, then 429 on either.
    const guesser = await logIn(a, operator, "2001:db8:77::1");
    const statuses: number[] = [];
    for (let n = 0; n < 6; n++) {
      statuses.push(
        (await verify(n % 2 ? b : a, guesser.cookie, wrongCodeFor(secret), `2001:db8:77::${n + 1}`)).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expectThrottled(await verify(a, guesser.cookie, codeFor(secret, 1), "2001:db8:77::9"));
    expectThrottled(await verify(b, guesser.cookie, codeFor(secret, 1), "2001:db8:77::a"));
  }, 60_000);
});
