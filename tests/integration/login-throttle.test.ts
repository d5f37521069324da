import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { inboxCopy } from "~/wording/inbox";
import { runInbox } from "../support/inbox-command";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { sendAs, type Answer } from "../support/site-http";
import { ensureBuilt, startSite, type SiteServer } from "../support/site-server";

/**
 * The login throttle attacked through the built server: a burst of guesses at the same moment, on SQLite
 * and on two instances sharing PostgreSQL, is checked at most 5 times per account and client; an IPv6 /64 is one
 * client; the hashing queue and the site-wide login rate refuse with a plain message with Retry-After. "Checked" is what the
 * answers say: 401 (wrong) or 302 (in, to the inbox) means the password was hashed and compared, 429 and 503 that it was not.
 */

const publicUrl = "http://inbox.example";
const owner = { email: "owner@example.com", password: "velvet quartz owl 7394 harbour" };

async function addOperator(databaseUrl: string) {
  const run = await runInbox(["operator", "add", owner.email], {
    env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" },
    input: `${owner.password}\n`,
  });
  expect(run.status, run.stderr).toBe(0);
}

/** A login post as a browser on the inbox's own page sends it, optionally through the trusted proxy (`from`). */
const logIn = (site: SiteServer, password: string, from?: string) =>
  sendAs(publicUrl, site.url, "/inbox/login", {
    method: "POST",
    body: { email: owner.email, password, next: "/inbox" },
    headers: from ? { "X-Forwarded-For": from } : {},
  });

const checked = (answers: Answer[]) => answers.filter((a) => a.status === 401 || a.status === 302);
/** The page's text as shown: React escapes apostrophes and quotes. */
const shown = (text: string) => text.replaceAll("&#x27;", "'").replaceAll("&quot;", '"');

/**
 * `wrong` wrong passwords at the same moment, and the right one while they are in flight: sent once 5 answers have
 * come, so 5 attempts were counted before it whatever the order the server took the rest in.
 */
async function burst(targets: SiteServer[], wrong: number, from?: string): Promise<{ all: Answer[]; right: Answer }> {
  let answered = 0;
  let fiveAnswered!: () => void;
  const five = new Promise<void>((resolve) => (fiveAnswered = resolve));
  const guesses = Array.from({ length: wrong }, (_, n) =>
    logIn(targets[n % targets.length]!, `wrong guess number ${n}`, from).then((answer) => {
      if (++answered === 5) fiveAnswered();
      return answer;
    }),
  );
  const right = five.then(() => logIn(targets[wrong % targets.length]!, owner.password, from));
  const all = await Promise.all([...guesses, right]);
  return { all, right: await right };
}

function expectThrottled(answer: Answer) {
  expect(answer.status).toBe(429);
  const seconds = Number(answer.headers["retry-after"]);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(900);
  expect(answer.headers["set-cookie"]).toBeUndefined();
  expect(shown(answer.text)).toContain(inboxCopy.login.throttled(Math.ceil(seconds / 60)));
}

const sites: SiteServer[] = [];
let dir: string;
beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "haunt-login-throttle-"));
}, 60_000);
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function sqliteSite(name: string, env: Record<string, string> = {}): Promise<SiteServer> {
  const databaseUrl = `file:${join(dir, `${name}.db`)}`;
  await addOperator(databaseUrl);
  const site = await startSite({ API_HOST: "", DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, ...env });
  sites.push(site);
  return site;
}

describe("the login throttle on SQLite", () => {
  it("99 wrong passwords and the right one at the same moment from one address: at most 5 checked, never in", async () => {
    const site = await sqliteSite("burst");
    const { all, right } = await burst([site], 99);

    expect(checked(all).length).toBeLessThanOrEqual(5);
    expect(all.filter((a) => a.status === 401).length).toBeGreaterThan(0);
    expectThrottled(right);
    for (const answer of all) expect([401, 429]).toContain(answer.status);
    for (const answer of all.filter((a) => a.status === 429)) expectThrottled(answer);
    // Afterwards too, the right password from that address is not checked.
    expectThrottled(await logIn(site, owner.password));
  }, 60_000);

  it("an IPv6 /64 is one client (IPv4-mapped counted as IPv4): 20 addresses of one /64 get 5 tries", async () => {
    const site = await sqliteSite("ipv6", { TRUST_PROXY: "1" });
    const answers: Answer[] = [];
    for (let n = 1; n <= 20; n++) answers.push(await logIn(site, `wrong ${n}`, `2001:db8:5:7::${n.toString(16)}`));
    expect(answers.map((a) => a.status)).toEqual([...Array(5).fill(401), ...Array(15).fill(429)]);
    for (const answer of answers.slice(5)) expectThrottled(answer);
    // Another /64 is another client; the right password gets in from there.
    expect((await logIn(site, owner.password, "2001:db8:5:8::1")).status).toBe(302);

    for (let n = 0; n < 5; n++) expect((await logIn(site, `wrong ${n}`, "192.0.2.7")).status).toBe(401);
    expectThrottled(await logIn(site, "wrong again", "::ffff:192.0.2.7"));
  }, 60_000);

  it("past the hashing queue a login is refused at once: 503 with a plain message with Retry-After, nothing waits forever", async () => {
    const site = await sqliteSite("queue", { TRUST_PROXY: "1" });
    // 120 different clients at once (no per-client limit applies): more than the one hash and eight waiting.
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, n) => logIn(site, `wrong ${n}`, `198.51.100.${n + 1}`)),
    );
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    expect(checked(answers).length).toBeGreaterThan(0);
    for (const answer of answers) expect([401, 503]).toContain(answer.status);
    for (const answer of refused) {
      expect(answer.headers["retry-after"]).toBe("5");
      expect(shown(answer.text)).toContain(inboxCopy.login.overloaded);
    }
    // A refused login used up none of its client's tries: that client still gets 5 checks.
    const client = answers.indexOf(refused[0]!) + 1;
    for (let n = 0; n < 5; n++) expect((await logIn(site, "still wrong", `198.51.100.${client}`)).status).toBe(401);
  }, 60_000);

  it("the site-wide login rate refuses past its count per minute: 429 with a plain message with Retry-After", async () => {
    const site = await sqliteSite("rate", { TRUST_PROXY: "1", RATE_LIMIT_LOGIN_PER_MINUTE: "3" });
    const answers: Answer[] = [];
    for (let n = 1; n <= 4; n++) answers.push(await logIn(site, `wrong ${n}`, `203.0.113.${n}`));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 429]);
    const seconds = Number(answers[3]!.headers["retry-after"]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(shown(answers[3]!.text)).toContain(inboxCopy.login.busy(seconds));
  }, 60_000);
});

describe.skipIf(!postgresAvailable)("the login throttle on two instances sharing PostgreSQL", () => {
  let postgres: TestDatabases;
  beforeAll(async () => {
    postgres = await sharedPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());

  async function twoInstances(env: Record<string, string> = {}): Promise<[SiteServer, SiteServer]> {
    const databaseUrl = await postgres.createDatabase();
    await addOperator(databaseUrl);
    const base = { API_HOST: "", DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, ...env };
    const started = await Promise.all([startSite(base), startSite(base)]);
    sites.push(...started);
    return started as [SiteServer, SiteServer];
  }

  it("39 wrong and the right one at once, spread over both: at most 5 checked in all, never in", async () => {
    const [a, b] = await twoInstances({ TRUST_PROXY: "1" });
    const { all, right } = await burst([a, b], 39, "2001:db8:9::1");

    expect(checked(all).length).toBeLessThanOrEqual(5);
    expectThrottled(right);
    for (const answer of all) expect([401, 429]).toContain(answer.status);
    // The same /64 through the other instance: still throttled.
    expectThrottled(await logIn(b, owner.password, "2001:db8:9::2"));
  }, 60_000);

  it("the site-wide login rate is shared: 3 a minute over both instances", async () => {
    const [a, b] = await twoInstances({ TRUST_PROXY: "1", RATE_LIMIT_LOGIN_PER_MINUTE: "3" });
    const statuses: number[] = [];
    for (let n = 1; n <= 4; n++) statuses.push((await logIn(n % 2 ? a : b, `wrong ${n}`, `203.0.113.${n}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  }, 60_000);
});
