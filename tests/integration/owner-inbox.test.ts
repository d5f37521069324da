import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInbox } from "../support/inbox-command";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { sendAs, type Answer } from "../support/site-http";
import { ensureBuilt, startSite, type SiteServer } from "../support/site-server";

/**
 * The owner's inbox through the CLI's commands (in this process) and the built server: operators added from stdin (the password never in an argument),
 * refused passwords, the activity log; and two instances on one PostgreSQL accepting one session, which a logout on
 * either ends on both.
 */

const publicUrl = "http://inbox.example";

const cli = (databaseUrl: string, args: string[], input = "") =>
  runInbox(args, { env: { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, API_HOST: "" }, input });

const send = (
  site: SiteServer,
  path: string,
  options: { method?: string; cookie?: string; body?: Record<string, string> } = {},
) => sendAs(publicUrl, site.url, path, options);

const sessionCookie = (headers: Answer["headers"]) => headers["set-cookie"]![0]!.split(";")[0]!;

describe("operator commands", () => {
  let dir: string;
  let databaseUrl: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "haunt-operators-"));
    databaseUrl = `file:${join(dir, "inbox.db")}`;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("add reads the password from stdin, refuses short and common ones, and logs every change", async () => {
    expect(await cli(databaseUrl, ["operator", "add", "owner@example.com"], "too short\n")).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/at least 12 characters\. Nothing was changed/),
    });
    expect((await cli(databaseUrl, ["operator", "add", "owner@example.com"], "scandinavian\n")).stderr).toMatch(
      /too easy to guess/,
    );
    expect(await cli(databaseUrl, ["operator", "add", "owner@example.com"], "")).toMatchObject({ status: 1 });
    expect(await cli(databaseUrl, ["operator", "add", "Owner@Example.com"], "a coffin full of bats\n")).toMatchObject({
      status: 0,
      stdout: expect.stringContaining("Operator Owner@Example.com added"),
    });
    // Again (any case): a new password, not a second operator.
    expect((await cli(databaseUrl, ["operator", "add", "owner@example.com"], "a crypt full of bats\n")).stdout).toMatch(
      /New password set/,
    );
    expect((await cli(databaseUrl, ["operator", "list"])).stdout).toMatch(
      /^Owner@Example\.com {2}\(added \d{4}-\d\d-\d\d\)\n$/,
    );
    expect((await cli(databaseUrl, ["operator", "revoke-sessions", "owner@example.com"])).stdout).toMatch(
      /^0 sessions/,
    );
    expect(await cli(databaseUrl, ["operator", "remove", "nobody@example.com"])).toMatchObject({ status: 1 });
    expect(await cli(databaseUrl, ["operator", "add", "not-an-address"])).toMatchObject({ status: 2 });
    expect(await cli(databaseUrl, ["operator", "remove", "owner@example.com"])).toMatchObject({ status: 0 });
    const activity = (await cli(databaseUrl, ["activity"])).stdout;
    for (const action of ["operator added", "operator password changed", "sessions revoked", "operator removed"])
      expect(activity).toContain(action);
    expect(activity).not.toMatch(/bats/);
  }, 60_000); // several command runs, each hashing or scoring a password: slow on a loaded machine

  it("add refuses repeated, sequential, common and context-built passwords, says why, and stores nothing", async () => {
    const email = "owner@grimforge.example";
    const refused: [string, RegExp][] = [
      ["Password1234", /one of the most common passwords/],
      ["aaaaaaaaaaaa", /repeats characters or words/],
      [" ".repeat(12), /repeats characters or words/],
      ["123456789012", /most common|sequence/],
      ["passwordpassword", /repeats characters or words/],
      [email, /built on your e-mail address or the business's name/],
      ["GrimforgeProps2026", /built on your e-mail address or the business's name/],
    ];
    for (const [password, reason] of refused) {
      const result = await cli(databaseUrl, ["operator", "add", email], `${password}\n`);
      expect(result.status, password).toBe(1);
      expect(result.stderr, password).toMatch(reason);
      expect(result.stderr, password).toMatch(/Nothing was changed\.\n$/);
    }
    expect((await cli(databaseUrl, ["operator", "list"])).stdout).not.toContain(email);
    expect((await cli(databaseUrl, ["operator", "add", email], "lantern velvet orchard 47\n")).status).toBe(0);
    expect((await cli(databaseUrl, ["operator", "remove", email])).status).toBe(0);
  }, 60_000); // several command runs, each hashing or scoring a password: slow on a loaded machine
});

describe("sessions on SQLite", () => {
  let dir: string;
  let site: SiteServer | undefined;
  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), "haunt-sessions-"));
  }, 60_000);
  afterAll(async () => {
    await site?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a forged id, a revoked session and a removed operator's session open nothing; each session is its operator's", async () => {
    const databaseUrl = `file:${join(dir, "inbox.db")}`;
    for (const email of ["owner@example.com", "helper@example.com"])
      expect((await cli(databaseUrl, ["operator", "add", email], `${email} has a long password\n`)).status).toBe(0);
    site = await startSite({ API_HOST: "", DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl });
    const logIn = async (email: string) =>
      sessionCookie(
        (
          await send(site!, "/inbox/login", {
            method: "POST",
            body: { email, password: `${email} has a long password`, next: "/inbox" },
          })
        ).headers,
      );
    const status = async (cookie: string) => (await send(site!, "/inbox", { cookie })).status;

    const [owner, helper] = [await logIn("owner@example.com"), await logIn("helper@example.com")];
    expect((await send(site, "/inbox", { cookie: owner })).text).toContain("Logged in as <span");
    expect((await send(site, "/inbox", { cookie: helper })).text).toContain("helper@example.com");
    expect((await send(site, "/inbox", { cookie: owner })).text).not.toContain("helper@example.com");
    for (const forged of ["inbox_session=" + "A".repeat(43), "inbox_session=' OR 1=1 --", "__Host-inbox_session=x"])
      expect(await status(forged)).toBe(302);

    expect((await cli(databaseUrl, ["operator", "revoke-sessions", "helper@example.com"])).stdout).toMatch(
      /^1 session /,
    );
    expect(await status(helper)).toBe(302);
    expect(await status(owner)).toBe(200);
    const again = await logIn("helper@example.com");
    expect((await cli(databaseUrl, ["operator", "remove", "helper@example.com"])).status).toBe(0);
    expect(await status(again)).toBe(302);
  }, 60_000);
});

describe.skipIf(!postgresAvailable)("sessions on PostgreSQL", () => {
  let postgres: TestDatabases;
  const sites: SiteServer[] = [];
  beforeAll(async () => {
    await ensureBuilt();
    postgres = await sharedPostgres();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(sites.map((site) => site.stop()));
    await postgres?.stop();
  });

  it("two instances accept one session; a logout on one ends it on both", async () => {
    const databaseUrl = await postgres.createDatabase();
    expect(
      (await cli(databaseUrl, ["operator", "add", "owner@example.com"], "two instances one session\n")).status,
    ).toBe(0);
    const env = { API_HOST: "", DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl };
    const [a, b] = await Promise.all([startSite(env), startSite(env)]);
    sites.push(a!, b!);

    const login = await send(a!, "/inbox/login", {
      method: "POST",
      body: { email: "owner@example.com", password: "two instances one session", next: "/inbox" },
    });
    expect(login.status).toBe(302);
    const cookie = sessionCookie(login.headers);
    for (const site of [a!, b!]) {
      const page = await send(site, "/inbox", { cookie });
      expect(page.status).toBe(200);
      expect(page.text).toContain("owner@example.com");
    }
    const logout = await send(b!, "/inbox/logout", { method: "POST", cookie });
    expect(logout.status).toBe(302);
    for (const site of [a!, b!]) {
      const page = await send(site, "/inbox", { cookie });
      expect(page.status).toBe(302);
      expect(page.headers.location).toMatch(/^\/inbox\/login/);
    }
  }, 60_000);
});
