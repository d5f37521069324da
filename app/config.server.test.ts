import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { defaultLogFormat } from "~/log.server";
import { refusal } from "../tests/support/config-refusal";

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
      mediaCacheDir: expect.stringMatching(/haunt-media-cache$/),
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
      notify: { email: undefined, webhookUrl: undefined, mailPerMinute: 60 },
      spam: { filter: true },
      retention: { retentionDays: 365, spamRetentionDays: 30 },
      spamDigest: { hour: 8, timeZone: "UTC" },
      backup: { intervalMs: 3_600_000, dir: "data/backups", keepHourly: 24, keepDaily: 30, key: undefined },
      reminders: { hour: 8, timeZone: "UTC" },
    });
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

  it("ignores unrelated variables", () => {
    expect(parseConfig({ HOME: "/root", NODE_ENV: "production" })).toEqual(parseConfig({}));
  });

  it("names every bad variable at once", () => {
    const message = refusal({ API_HOST: "ftp://x", API_TIMEOUT_MS: "5", PORT: "99999" });
    for (const name of ["API_HOST", "API_TIMEOUT_MS", "PORT"]) expect(message).toContain(name);
  });
});
