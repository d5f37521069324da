import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { refusal } from "../../tests/support/config-refusal";

describe("parseConfig: spam filter, retention and digest", () => {
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
});
