import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";

describe("parseConfig: owner logins (INBOX_REQUIRE_2FA, SECRETS_KEY)", () => {
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

  it("requires a second factor unless INBOX_REQUIRE_2FA is off, refusing anything but on and off", () => {
    expect(parseConfig({ INBOX_REQUIRE_2FA: "off" }).requireSecondFactor).toBe(false);
    expect(parseConfig({ INBOX_REQUIRE_2FA: "on" }).requireSecondFactor).toBe(true);
    expect(parseConfig({ INBOX_REQUIRE_2FA: "" }).requireSecondFactor).toBe(true);
    expect(() => parseConfig({ INBOX_REQUIRE_2FA: "no" })).toThrow(/INBOX_REQUIRE_2FA: must be on or off/);
  });
});
