import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Secret, TOTP } from "otpauth";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "~/config.server";
import { inboxCopy } from "~/wording/inbox";
import { openInboxStore } from "~/store/store.server";
import { runInbox } from "../support/inbox-command";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { sendAs, type Answer } from "../support/site-http";
import { ensureBuilt, runSiteExpectingExit, startSite, type SiteServer } from "../support/site-server";
import { useTempDir } from "../support/temp-dir";

/**
 * Secrets sealed at rest (ADR 0034) through the built server and `npm run inbox`: a one-time-code secret
 * stored in clear is sealed at the first start with SECRETS_KEY (the database file and its WAL no longer hold it),
 * codes still log in after a restart and after `secrets rotate`, a missing or wrong key stops the start with a
 * message naming SECRETS_KEY (exit code 1), and a start without the key warns once. Codes are computed with otpauth,
 * as an authenticator app does.
 */

const temp = useTempDir("haunt-sealed-");
const publicUrl = "http://inbox.example";
const password = "velvet quartz owl harbour lamp";
const keyA = randomBytes(32).toString("base64");
const keyB = randomBytes(32).toString("base64");
const secret = new Secret({ size: 20 }).base32;
const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/**
 * One code per login, each for a later 30 s step than the operator's last (the server takes a step once): the steps
 * before, of and after now, which the server accepts; at most three logins per operator.
 */
const offsets = new Map<string, number>();
async function nextCode(email: string): Promise<string> {
  const offset = offsets.get(email) ?? -1;
  expect(offset).toBeLessThanOrEqual(1);
  offsets.set(email, offset + 1);
  // Not in a step's last 3 s: the code is judged by the server in the same step it was made for here.
  while (Date.now() % 30_000 > 27_000) await new Promise((resolve) => setTimeout(resolve, 250));
  return totp.generate({ timestamp: Date.now() + offset * 30_000 });
}

const env = (databaseUrl: string, key?: string) => ({
  API_HOST: "",
  DATABASE_URL: databaseUrl,
  PUBLIC_URL: publicUrl,
  INBOX_REQUIRE_2FA: "on",
  SECRETS_KEY: key ?? "",
});

function cli(databaseUrl: string, args: string[], extra: Record<string, string> = {}, input = "") {
  return runInbox(args, { env: { ...env(databaseUrl), ...extra }, input });
}

/** An operator with one-time codes stored the way they were before this issue: the secret in clear. */
async function operatorWithClearSecret(databaseUrl: string, email: string) {
  const added = await cli(databaseUrl, ["operator", "add", email], {}, `${password}\n`);
  expect(added.status, added.stderr).toBe(0);
  const store = await openInboxStore(parseDatabaseUrl(databaseUrl)!, { timeoutMs: 10_000 });
  try {
    const id = (await store.findOperator(email))!.id;
    expect(await store.startTotp(id, secret)).toBe(true);
    // Confirmed with a step long past: every code from now on is new.
    expect(await store.takeTotpStep(id, 1, { confirm: true })).toBe(true);
  } finally {
    await store.close();
  }
}

const send = (site: SiteServer, path: string, body: Record<string, string>, cookie?: string) =>
  sendAs(publicUrl, site.url, path, { method: "POST", body, cookie });
const cookieOf = (answer: Answer) => answer.headers["set-cookie"]![0]!.split(";")[0]!;

/** Password, then a one-time code: the inbox opens. */
async function logInWithCode(site: SiteServer, email: string) {
  const login = await send(site, "/inbox/login", { email, password, next: "/inbox" });
  expect(login.status).toBe(302);
  expect(login.headers.location).toMatch(/^\/inbox\/verify/);
  const verified = await send(site, "/inbox/verify", { code: await nextCode(email), next: "/inbox" }, cookieOf(login));
  expect(verified.status, verified.text.slice(0, 300)).toBe(302);
  expect(verified.headers.location).toBe("/inbox");
}

/** The SQLite database's bytes on disk: the file and its write-ahead log. */
const fileBytes = (path: string) =>
  Buffer.concat([path, `${path}-wal`].filter(existsSync).map((file) => readFileSync(file))).toString("latin1");

const warnings = (output: string) => output.split("\n").filter((line) => line.includes("SECRETS_KEY is not set"));

const sites: SiteServer[] = [];
async function start(databaseUrl: string, key?: string) {
  const site = await startSite(env(databaseUrl, key));
  sites.push(site);
  return site;
}
beforeAll(ensureBuilt);
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
});

describe("one-time-code secrets sealed with SECRETS_KEY on SQLite", () => {
  // One database through the steps below, in order (vitest runs a file's tests one after another).
  const path = join(temp.root, "kept.db");
  const databaseUrl = `file:${path}`;
  const email = "keeper@example.com";

  it("without the key: one warning; the first start with it seals the clear secret (file and WAL); codes work", async () => {
    await operatorWithClearSecret(databaseUrl, email);

    // Without the key: one warning line, the secret stays as it was (in clear: the file holds it).
    const keyless = await start(databaseUrl);
    expect(warnings(keyless.output())).toHaveLength(1);
    await keyless.stop();
    expect(fileBytes(path)).toContain(secret);

    // The first start with the key seals it: neither the file nor its WAL holds the secret any more.
    const sealing = await start(databaseUrl, keyA);
    expect(sealing.output()).toContain("[secrets] 1 stored secret(s) sealed with SECRETS_KEY");
    expect(warnings(sealing.output())).toHaveLength(0);
    expect(fileBytes(path)).not.toContain(secret);
    await logInWithCode(sealing, email);
    await sealing.stop();
    expect(fileBytes(path)).not.toContain(secret);
  }, 60_000);

  it("a restart with the key logs in with codes; a missing, wrong or malformed key stops the start with a plain message", async () => {
    // A restart with the same key: nothing sealed again, codes still work.
    const again = await start(databaseUrl, keyA);
    expect(again.output()).not.toContain("sealed with SECRETS_KEY");
    await logInWithCode(again, email);
    await again.stop();

    // A missing key and a wrong key stop the start (exit code 1) with words naming SECRETS_KEY: never a login that
    // silently fails.
    const missing = await runSiteExpectingExit(env(databaseUrl));
    expect(missing.code).toBe(1);
    expect(missing.output).toContain("sealed with a SECRETS_KEY");
    expect(missing.output).toContain("SECRETS_KEY is not set");
    expect(missing.output).toContain("The site will not start.");
    const wrong = await runSiteExpectingExit(env(databaseUrl, keyB));
    expect(wrong.code).toBe(1);
    expect(wrong.output).toContain("SECRETS_KEY is not the key the database's secrets were sealed with");
    const malformed = await runSiteExpectingExit(env(databaseUrl, "not-a-key"));
    expect(malformed.code).toBe(1);
    expect(malformed.output).toMatch(/SECRETS_KEY: must be 32 random bytes in base64/);
  }, 60_000);

  it("secrets rotate seals under SECRETS_KEY_NEW: codes work with the new key, the old one is refused", async () => {
    // The site keeps running with the old key while the operator rotates (docker exec).
    const running = await start(databaseUrl, keyA);
    // rotate: refused without the new key or with a wrong current key (nothing changed), then done under B.
    const noNewKey = await cli(databaseUrl, ["secrets", "rotate"], { SECRETS_KEY: keyA });
    expect(noNewKey.status).toBe(1);
    expect(noNewKey.stderr).toContain("SECRETS_KEY_NEW is not set");
    const wrongOld = await cli(databaseUrl, ["secrets", "rotate"], { SECRETS_KEY: keyB, SECRETS_KEY_NEW: keyB });
    expect(wrongOld.status).toBe(1);
    expect(wrongOld.stderr).toContain("Nothing was changed.");
    const rotated = await cli(databaseUrl, ["secrets", "rotate"], { SECRETS_KEY: keyA, SECRETS_KEY_NEW: keyB });
    expect(rotated.status, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain("1 secret(s) sealed under the new key");
    expect(fileBytes(path)).not.toContain(secret);
    // Run again (a rotate cut short, or twice by mistake): nothing left to do, still fine.
    const twice = await cli(databaseUrl, ["secrets", "rotate"], { SECRETS_KEY: keyB, SECRETS_KEY_NEW: keyB });
    expect(twice.status, twice.stderr).toBe(0);
    expect(twice.stdout).toContain("1 already were");

    // Until it restarts with the new key, the old server says so plainly (503) at the code step, never "wrong code".
    const login = await send(running, "/inbox/login", { email, password, next: "/inbox" });
    const stale = await send(running, "/inbox/verify", { code: "123456", next: "/inbox" }, cookieOf(login));
    expect(stale.status).toBe(503);
    expect(stale.text).toContain(inboxCopy.secretsKey);
    expect(running.output()).toContain("SECRETS_KEY is not the key");
    await running.stop();

    const afterRotate = await start(databaseUrl, keyB);
    await logInWithCode(afterRotate, email);
    await afterRotate.stop();
    const oldKey = await runSiteExpectingExit(env(databaseUrl, keyA));
    expect(oldKey.code).toBe(1);
    expect(oldKey.output).toContain("SECRETS_KEY is not the key");
  }, 60_000);

  it("a key lost for good: secrets forget removes the codes that do not open, and the operator sets codes up again", async () => {
    const keyC = randomBytes(32).toString("base64");
    const kept = await cli(databaseUrl, ["secrets", "forget"], { SECRETS_KEY: keyB });
    expect(kept.status, kept.stderr).toBe(0);
    expect(kept.stdout).toContain("nothing was removed");
    const forgot = await cli(databaseUrl, ["secrets", "forget"], { SECRETS_KEY: keyC });
    expect(forgot.status, forgot.stderr).toBe(0);
    expect(forgot.stdout).toBe(
      "These secrets did not open with SECRETS_KEY:\n" +
        "- Removed the one-time codes of 1 operator(s): they set codes up again after their password.\n",
    );
    const site = await start(databaseUrl, keyC);
    const login = await send(site, "/inbox/login", { email, password, next: "/inbox" });
    expect(login.status).toBe(302);
    expect(login.headers.location).toBe("/inbox/security");
  }, 60_000);

  it("a secret set up on the Security page with the key is never written in clear", async () => {
    const path = join(temp.dir(), "inbox.db");
    const databaseUrl = `file:${path}`;
    const added = await cli(databaseUrl, ["operator", "add", "owner@example.com"], {}, `${password}\n`);
    expect(added.status, added.stderr).toBe(0);
    const site = await start(databaseUrl, keyA);
    const login = await send(site, "/inbox/login", { email: "owner@example.com", password, next: "/inbox" });
    expect(login.headers.location).toBe("/inbox/security");
    const cookie = cookieOf(login);
    const started = await send(site, "/inbox/security", { intent: "totp-start" }, cookie);
    const shown = /data-secret=""[^>]*>([A-Z2-7 ]+)</.exec(started.text)?.[1]?.replace(/ /g, "");
    expect(shown).toMatch(/^[A-Z2-7]{32}$/);
    const code = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(shown!) }).generate();
    const confirmed = await send(site, "/inbox/security", { intent: "totp-confirm", code }, cookie);
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toMatch(/<li>[a-z2-9]{5}-[a-z2-9]{5}<\/li>/);
    expect(fileBytes(path)).not.toContain(shown);
  }, 60_000);
});

describe.skipIf(!postgresAvailable)("one-time-code secrets sealed with SECRETS_KEY on PostgreSQL", () => {
  let postgres: TestDatabases;
  beforeAll(async () => {
    postgres = await sharedPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());

  it("clear rows sealed at the first start with the key, codes still work, a missing key stops the start", async () => {
    const databaseUrl = await postgres.createDatabase();
    const email = "pg-keeper@example.com";
    await operatorWithClearSecret(databaseUrl, email);
    const stored = async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return String((await client.query("SELECT secret FROM totp_factors")).rows[0]?.secret);
      } finally {
        await client.end();
      }
    };
    expect(await stored()).toBe(secret);

    const site = await start(databaseUrl, keyA);
    expect(site.output()).toContain("[secrets] 1 stored secret(s) sealed with SECRETS_KEY");
    expect(await stored()).toMatch(/^v1:[0-9a-f]{12}:/);
    expect(await stored()).not.toContain(secret);
    await logInWithCode(site, email);
    await site.stop();

    const missing = await runSiteExpectingExit(env(databaseUrl));
    expect(missing.code).toBe(1);
    expect(missing.output).toContain("SECRETS_KEY is not set");

    const rotated = await cli(databaseUrl, ["secrets", "rotate"], { SECRETS_KEY: keyA, SECRETS_KEY_NEW: keyB });
    expect(rotated.status, rotated.stderr).toBe(0);
    const afterRotate = await start(databaseUrl, keyB);
    await logInWithCode(afterRotate, email);
  }, 60_000);
});
