import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "~/config.server";
import { defaultLogFormat } from "~/log.server";

function refusal(env: Record<string, string | undefined>): string {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe("parseConfig", () => {
  it("has defaults for an empty environment: embedded back-end, 10 s timeout, port 3000", () => {
    expect(parseConfig({})).toEqual({
      port: 3000,
      host: undefined,
      apiHost: undefined,
      apiTimeoutMs: 10_000,
      database: { kind: "sqlite", path: "data/enquiries.db" },
      storeTimeoutMs: 5_000,
      inboxFile: "data/enquiries.jsonl",
      photoLeaseMs: 60_000,
      publicUrl: "http://localhost:3000",
      publicUrlSet: false,
      timeZone: "UTC",
      trustProxy: 0,
      rateLimitSitePerMinute: 30,
      rateLimitClientPerHour: 10,
      rateLimitLoginPerMinute: 30,
      requireSecondFactor: true,
      logFormat: defaultLogFormat(),
      notify: { email: undefined, webhookUrl: undefined },
      spam: { filter: true },
      retention: { retentionDays: 365, spamRetentionDays: 30 },
      spamDigest: { hour: 8, timeZone: "UTC" },
      backup: { intervalMs: 3_600_000, dir: "data/backups", keepHourly: 24, keepDaily: 30, key: undefined },
    });
  });

  it("reads SECRETS_KEY and SECRETS_KEY_NEW as 32 bytes of base64, refusing anything else by name", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    expect(parseConfig({}).secretsKey).toBeUndefined();
    expect(parseConfig({ SECRETS_KEY: "" }).secretsKey).toBeUndefined();
    expect(Buffer.from(parseConfig({ SECRETS_KEY: ` ${key}\n` }).secretsKey!)).toEqual(Buffer.alloc(32, 7));
    expect(parseConfig({ SECRETS_KEY_NEW: key.replace(/=$/, "") }).secretsKeyNew).toHaveLength(32);
    expect(() => parseConfig({ SECRETS_KEY: "hunter2" })).toThrow(/SECRETS_KEY: must be 32 random bytes in base64/);
    expect(() => parseConfig({ SECRETS_KEY: Buffer.alloc(16).toString("base64") })).toThrow(/SECRETS_KEY: must be/);
    expect(() => parseConfig({ SECRETS_KEY_NEW: `${key.slice(0, 40)}!!!=` })).toThrow(/SECRETS_KEY_NEW: must be/);
  });

  it("logs as LOG_FORMAT says (json or text), by default text under a terminal and JSON otherwise", () => {
    expect(parseConfig({ LOG_FORMAT: "json" }).logFormat).toBe("json");
    expect(parseConfig({ LOG_FORMAT: "text" }).logFormat).toBe("text");
    expect(parseConfig({ LOG_FORMAT: "" }).logFormat).toBe(defaultLogFormat(Boolean(process.stdout.isTTY)));
    expect(refusal({ LOG_FORMAT: "pretty" })).toMatch(/LOG_FORMAT: must be json or text/);
  });

  it("takes backups hourly into backups/ beside the SQLite file unless told otherwise, with a 32-byte key", () => {
    expect(parseConfig({ DATABASE_URL: "file:/var/lib/haunt/inbox.db" }).backup?.dir).toBe("/var/lib/haunt/backups");
    expect(parseConfig({ DATABASE_URL: "file:inbox.db" }).backup?.dir).toBe("backups");
    expect(parseConfig({ DATABASE_URL: "postgres://db/haunt" }).backup?.dir).toBeUndefined();
    expect(parseConfig({ BACKUP_DIR: "/app/backups" }).backup?.dir).toBe("/app/backups");
    expect(parseConfig({ BACKUP_INTERVAL: "30m" }).backup?.intervalMs).toBe(1_800_000);
    expect(parseConfig({ BACKUP_INTERVAL: " 1D " }).backup?.intervalMs).toBe(86_400_000);
    expect(parseConfig({ BACKUP_INTERVAL: "off" }).backup?.intervalMs).toBeNull();
    for (const bad of ["1", "5s", "8d", "hourly", "-1h"])
      expect(() => parseConfig({ BACKUP_INTERVAL: bad })).toThrow(/BACKUP_INTERVAL: must be a time from 10s to 7d/);
    expect(parseConfig({ BACKUP_KEEP_HOURLY: "48", BACKUP_KEEP_DAILY: "0" }).backup).toMatchObject({
      keepHourly: 48,
      keepDaily: 0,
    });
    expect(() => parseConfig({ BACKUP_KEEP_HOURLY: "0" })).toThrow(/BACKUP_KEEP_HOURLY/);
    const key = Buffer.alloc(32, 7);
    expect(parseConfig({ BACKUP_KEY: key.toString("base64") }).backup?.key).toEqual(key);
    for (const bad of [Buffer.alloc(16).toString("base64"), "not base64 at all!!", `${key.toString("base64")}AAAA`])
      expect(() => parseConfig({ BACKUP_KEY: bad })).toThrow(/BACKUP_KEY: must be 32 random bytes in base64/);
  });

  it("requires a second factor unless INBOX_REQUIRE_2FA is off, refusing anything but on and off", () => {
    expect(parseConfig({ INBOX_REQUIRE_2FA: "off" }).requireSecondFactor).toBe(false);
    expect(parseConfig({ INBOX_REQUIRE_2FA: "on" }).requireSecondFactor).toBe(true);
    expect(parseConfig({ INBOX_REQUIRE_2FA: "" }).requireSecondFactor).toBe(true);
    expect(() => parseConfig({ INBOX_REQUIRE_2FA: "no" })).toThrow(/INBOX_REQUIRE_2FA: must be on or off/);
  });

  it("reads SPAM_DIGEST_HOUR (0-23 or off) and SITE_TIMEZONE (an IANA name), refusing bad values naming them", () => {
    expect(parseConfig({ SPAM_DIGEST_HOUR: "0", SITE_TIMEZONE: "Europe/Berlin" }).spamDigest).toEqual({
      hour: 0,
      timeZone: "Europe/Berlin",
    });
    expect(parseConfig({ SPAM_DIGEST_HOUR: " OFF " }).spamDigest).toEqual({ hour: null, timeZone: "UTC" });
    expect(parseConfig({ SPAM_DIGEST_HOUR: "23" }).spamDigest?.hour).toBe(23);
    for (const bad of ["24", "-1", "8am", "7.5"]) {
      expect(refusal({ SPAM_DIGEST_HOUR: bad })).toMatch(/SPAM_DIGEST_HOUR: must be an hour from 0 to 23/);
    }
    for (const bad of ["Europe/Atlantis", "CET+", "Mars/Olympus_Mons"]) {
      expect(refusal({ SITE_TIMEZONE: bad })).toMatch(/SITE_TIMEZONE: must be an IANA time zone name/);
    }
  });

  it("reads SPAM_FILTER, RETENTION_DAYS and SPAM_RETENTION_DAYS, and refuses bad values naming the variable", () => {
    const config = parseConfig({ SPAM_FILTER: "off", RETENTION_DAYS: "90", SPAM_RETENTION_DAYS: "7" });
    expect(config.spam).toEqual({ filter: false });
    expect(config.retention).toEqual({ retentionDays: 90, spamRetentionDays: 7 });
    expect(() => parseConfig({ SPAM_FILTER: "no" })).toThrow(/SPAM_FILTER: must be on or off/);
    expect(() => parseConfig({ RETENTION_DAYS: "0" })).toThrow(/RETENTION_DAYS/);
    expect(() => parseConfig({ SPAM_RETENTION_DAYS: "soon" })).toThrow(/SPAM_RETENTION_DAYS/);
  });

  it("reads DATABASE_URL as a SQLite file or a PostgreSQL URL, and refuses anything else naming the variable", () => {
    expect(parseConfig({ DATABASE_URL: "file:/var/lib/haunt/enquiries.db" }).database).toEqual({
      kind: "sqlite",
      path: "/var/lib/haunt/enquiries.db",
    });
    expect(parseConfig({ DATABASE_URL: "postgres://haunt:secret@db:5432/haunt" }).database).toEqual({
      kind: "postgres",
      url: "postgres://haunt:secret@db:5432/haunt",
    });
    for (const bad of ["enquiries.db", "mysql://db/haunt", "postgres://", "file:"]) {
      expect(() => parseConfig({ DATABASE_URL: bad })).toThrow(/DATABASE_URL/);
    }
    expect(() => parseConfig({ STORE_TIMEOUT_MS: "10" })).toThrow(/STORE_TIMEOUT_MS/);
  });

  it("treats empty strings as unset", () => {
    const empty = {
      PORT: "",
      HOST: "",
      API_HOST: "",
      API_TIMEOUT_MS: "",
      DATABASE_URL: "",
      STORE_TIMEOUT_MS: "",
      INBOX_FILE: "",
      PUBLIC_URL: "",
      TRUST_PROXY: "",
    };
    expect(parseConfig({ ...empty, RATE_LIMIT_SITE_PER_MINUTE: "", RATE_LIMIT_CLIENT_PER_HOUR: "" })).toEqual(
      parseConfig({}),
    );
  });

  it("serves metrics only with METRICS_PORT, on 127.0.0.1 unless METRICS_HOST says otherwise, never on PORT", () => {
    expect(parseConfig({}).metrics).toBeUndefined();
    expect(parseConfig({ METRICS_PORT: "9464" }).metrics).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(parseConfig({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" }).metrics).toEqual({
      port: 9464,
      host: "0.0.0.0",
    });
    expect(refusal({ METRICS_PORT: "99999" })).toContain("METRICS_PORT");
    expect(refusal({ METRICS_PORT: "9464", METRICS_HOST: "not a host!" })).toContain("METRICS_HOST");
    expect(refusal({ PORT: "8080", METRICS_PORT: "8080" })).toMatch(/METRICS_PORT: must differ from PORT/);
  });

  it("ignores unrelated variables", () => {
    expect(parseConfig({ HOME: "/root", NODE_ENV: "production" })).toEqual(parseConfig({}));
  });

  it.each([
    ["http://127.0.0.1:4010", "http://127.0.0.1:4010"],
    ["http://127.0.0.1:4010/", "http://127.0.0.1:4010"],
    ["https://api.example.com", "https://api.example.com"],
    ["https://api.example.com:443/", "https://api.example.com"],
    ["HTTP://API.Example.com:8080", "http://api.example.com:8080"],
  ])("accepts API_HOST %s as the origin %s", (value, origin) => {
    expect(parseConfig({ API_HOST: value }).apiHost).toBe(origin);
  });

  it.each([
    "ftp://x",
    "ftp://example.com",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "127.0.0.1:4010",
    "example.com",
    "not a url",
    "http://",
    "https://api.example.com/v1",
    "https://api.example.com/api/site/save-contact",
    "https://api.example.com/?key=1",
    "https://api.example.com/#x",
    "https://user:secret@api.example.com",
  ])("refuses API_HOST %s with a message naming the variable", (value) => {
    const message = refusal({ API_HOST: value });
    expect(message).toContain("API_HOST");
    expect(message).not.toContain("API_TIMEOUT_MS");
  });

  it("does not echo credentials from a refused API_HOST", () => {
    expect(refusal({ API_HOST: "https://user:secret@api.example.com" })).not.toContain("secret");
  });

  it.each([
    ["100", 100],
    ["120000", 120_000],
    ["2500", 2500],
  ])("accepts API_TIMEOUT_MS %s", (value, expected) => {
    expect(parseConfig({ API_TIMEOUT_MS: value }).apiTimeoutMs).toBe(expected);
  });

  it.each(["99", "0", "-1", "120001", "1.5", "abc", "10s"])("refuses API_TIMEOUT_MS %s, naming it", (value) => {
    expect(refusal({ API_TIMEOUT_MS: value })).toContain("API_TIMEOUT_MS");
  });

  it.each([
    ["1", 1],
    ["8080", 8080],
    ["65535", 65535],
  ])("accepts PORT %s", (value, expected) => {
    expect(parseConfig({ PORT: value }).port).toBe(expected);
  });

  it.each(["0", "65536", "-80", "80.5", "http"])("refuses PORT %s, naming it", (value) => {
    expect(refusal({ PORT: value })).toContain("PORT");
  });

  it.each(["127.0.0.1", "0.0.0.0", "::", "::1", "localhost", "haunt-web.internal"])("accepts HOST %s", (value) => {
    expect(parseConfig({ HOST: value }).host).toBe(value);
  });

  it.each(["http://127.0.0.1", "[::1]", "127.0.0.1:3000", "two words"])("refuses HOST %s, naming it", (value) => {
    expect(refusal({ HOST: value })).toContain("HOST: must be an address or host name");
  });

  it("keeps INBOX_FILE as given", () => {
    expect(parseConfig({ INBOX_FILE: "/var/lib/haunt/enquiries.jsonl" }).inboxFile).toBe(
      "/var/lib/haunt/enquiries.jsonl",
    );
  });

  it("names every bad variable at once", () => {
    const message = refusal({ API_HOST: "ftp://x", API_TIMEOUT_MS: "5", PORT: "99999" });
    for (const name of ["API_HOST", "API_TIMEOUT_MS", "PORT"]) expect(message).toContain(name);
  });

  it.each([
    ["https://haunt.example", "https://haunt.example"],
    ["https://haunt.example/", "https://haunt.example"],
    ["HTTPS://Haunt.Example:443", "https://haunt.example"],
    ["http://localhost:8080", "http://localhost:8080"],
  ])("accepts PUBLIC_URL %s as the origin %s", (value, origin) => {
    expect(parseConfig({ PUBLIC_URL: value })).toMatchObject({ publicUrl: origin, publicUrlSet: true });
  });

  it("defaults PUBLIC_URL to http://localhost and the port", () => {
    expect(parseConfig({ PORT: "8080" })).toMatchObject({ publicUrl: "http://localhost:8080", publicUrlSet: false });
  });

  it.each([
    "haunt.example",
    "ftp://haunt.example",
    "https://haunt.example/shop",
    "https://haunt.example/?a=1",
    "https://u:p@haunt.example",
  ])("refuses PUBLIC_URL %s, naming it", (value) => {
    expect(refusal({ PUBLIC_URL: value })).toContain("PUBLIC_URL");
  });

  it.each([
    ["0", 0],
    ["1", 1],
    ["2", 2],
  ])("accepts TRUST_PROXY %s", (value, expected) => {
    expect(parseConfig({ TRUST_PROXY: value }).trustProxy).toBe(expected);
  });

  it.each(["-1", "true", "1.5", "loopback", "11"])("refuses TRUST_PROXY %s, naming it", (value) => {
    expect(refusal({ TRUST_PROXY: value })).toContain("TRUST_PROXY");
  });

  it("reads the rate limits, 0 meaning off", () => {
    expect(parseConfig({ RATE_LIMIT_SITE_PER_MINUTE: "0", RATE_LIMIT_CLIENT_PER_HOUR: "100" })).toMatchObject({
      rateLimitSitePerMinute: 0,
      rateLimitClientPerHour: 100,
    });
  });

  it.each(["RATE_LIMIT_SITE_PER_MINUTE", "RATE_LIMIT_CLIENT_PER_HOUR"])("refuses %s=-1 or ten, naming it", (name) => {
    expect(refusal({ [name]: "-1" })).toContain(name);
    expect(refusal({ [name]: "ten" })).toContain(name);
  });
});

describe("parseConfig: notifications", () => {
  const email = {
    SMTP_URL: "smtp://mail.example.com:587",
    NOTIFY_EMAIL_TO: "owner@example.com",
    NOTIFY_EMAIL_FROM: "site@example.com",
  };

  it("has no channel when none is configured", () => {
    expect(parseConfig({}).notify).toEqual({ email: undefined, webhookUrl: undefined });
  });

  it("reads the e-mail channel, with every NOTIFY_EMAIL_TO address (blanks around commas ignored)", () => {
    const config = parseConfig({ ...email, NOTIFY_EMAIL_TO: " owner@example.com, shop@example.com ,x@example.org" });
    expect(config.notify?.email).toEqual({
      smtpUrl: "smtp://mail.example.com:587",
      to: ["owner@example.com", "shop@example.com", "x@example.org"],
      from: "site@example.com",
    });
  });

  it.each([
    "smtp://mail.example.com",
    "smtps://mail.example.com:465",
    "smtp://user:p%40ss@127.0.0.1:2525",
    "smtp://[::1]:25",
  ])("accepts SMTP_URL %s", (value) => {
    expect(parseConfig({ ...email, SMTP_URL: value }).notify?.email?.smtpUrl).toBe(value);
  });

  it.each([
    "mail.example.com",
    "not a url",
    "http://mail.example.com",
    "smtp://",
    "smtp://mail.example.com/path",
    "smtp://mail.example.com?tls=false",
  ])("refuses SMTP_URL %s, naming it", (value) => {
    const message = refusal({ ...email, SMTP_URL: value });
    expect(message).toContain("SMTP_URL");
    expect(message).not.toContain("NOTIFY_EMAIL_TO");
  });

  it("does not echo the password of a refused SMTP_URL", () => {
    expect(refusal({ ...email, SMTP_URL: "smtp://user:hunter2@mail.example.com/x" })).not.toContain("hunter2");
  });

  it.each([
    "",
    " , ",
    "owner",
    "owner@example.com, nobody",
    "Owner <owner@example.com>",
    "owner@example.com;shop@example.com",
  ])("refuses NOTIFY_EMAIL_TO %j when the rest of e-mail is set", (value) => {
    expect(refusal({ ...email, NOTIFY_EMAIL_TO: value })).toContain("NOTIFY_EMAIL_TO");
  });

  it.each([
    ["site@example.com", { from: "site@example.com" }],
    ["Haunt website <website@haunt.example>", { from: "website@haunt.example", fromName: "Haunt website" }],
    ['"Grimforge, the site" <site@example.com>', { from: "site@example.com", fromName: "Grimforge, the site" }],
    ["<site@example.com>", { from: "site@example.com" }],
  ])("reads NOTIFY_EMAIL_FROM %j", (value, expected) => {
    const read = parseConfig({ ...email, NOTIFY_EMAIL_FROM: value }).notify?.email;
    expect({ from: read?.from, ...(read?.fromName ? { fromName: read.fromName } : {}) }).toEqual(expected);
  });

  it.each([
    "site",
    "Site <site>",
    "a@example.com,b@example.com",
    "a@example.com b@example.com",
    "Site <a@example.com> <b@example.com>",
    'Bad "quote" <site@example.com>',
  ])("refuses NOTIFY_EMAIL_FROM %j", (value) => {
    expect(refusal({ ...email, NOTIFY_EMAIL_FROM: value })).toContain("NOTIFY_EMAIL_FROM");
  });

  it.each([
    [{ SMTP_URL: email.SMTP_URL }, ["NOTIFY_EMAIL_TO", "NOTIFY_EMAIL_FROM"]],
    [{ NOTIFY_EMAIL_TO: email.NOTIFY_EMAIL_TO }, ["SMTP_URL", "NOTIFY_EMAIL_FROM"]],
    [{ SMTP_URL: email.SMTP_URL, NOTIFY_EMAIL_TO: email.NOTIFY_EMAIL_TO }, ["NOTIFY_EMAIL_FROM"]],
  ])("refuses e-mail half configured (%j), naming what is missing", (env, missing) => {
    const message = refusal(env);
    for (const name of missing) expect(message).toMatch(new RegExp(`^\\s+${name}: must be set too`, "m"));
  });

  it("reads NOTIFY_WEBHOOK_URL on its own, and refuses one that is not http(s)", () => {
    expect(parseConfig({ NOTIFY_WEBHOOK_URL: "https://hooks.slack.com/services/T0/B0/x" }).notify).toEqual({
      email: undefined,
      webhookUrl: "https://hooks.slack.com/services/T0/B0/x",
    });
    expect(refusal({ NOTIFY_WEBHOOK_URL: "hooks.slack.com/services/x" })).toContain("NOTIFY_WEBHOOK_URL");
    expect(refusal({ NOTIFY_WEBHOOK_URL: "ftp://example.com/x" })).toContain("NOTIFY_WEBHOOK_URL");
  });

  it("reads NOTIFY_WEBHOOK_FORMAT (any case), and refuses a format it does not know, listing the ones it does", () => {
    const url = "https://chat.example.com/hooks/abc";
    expect(parseConfig({ NOTIFY_WEBHOOK_URL: url, NOTIFY_WEBHOOK_FORMAT: " Mattermost " }).notify).toEqual({
      email: undefined,
      webhookUrl: url,
      webhookFormat: "mattermost",
    });
    expect(parseConfig({ NOTIFY_WEBHOOK_URL: url, NOTIFY_WEBHOOK_FORMAT: "" }).notify).not.toHaveProperty(
      "webhookFormat",
    );
    expect(refusal({ NOTIFY_WEBHOOK_URL: url, NOTIFY_WEBHOOK_FORMAT: "msteams" })).toMatch(
      /NOTIFY_WEBHOOK_FORMAT.*slack, discord, mattermost, googlechat, teams, json/,
    );
  });
});
