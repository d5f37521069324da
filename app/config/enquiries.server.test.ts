import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { refusal } from "../../tests/support/config-refusal";

describe("parseConfig: enquiries (API_HOST, API_TIMEOUT_MS, RATE_LIMIT_*)", () => {
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
