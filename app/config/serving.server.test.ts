import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { defaultLogFormat } from "~/log.server";
import { refusal } from "../../tests/support/config-refusal";

describe("parseConfig: serving (PORT, HOST, PUBLIC_URL, TRUST_PROXY, LOG_FORMAT, METRICS_*)", () => {
  it("logs as LOG_FORMAT says (json or text), by default text under a terminal and JSON otherwise", () => {
    expect(parseConfig({ LOG_FORMAT: "json" }).logFormat).toBe("json");
    expect(parseConfig({ LOG_FORMAT: "text" }).logFormat).toBe("text");
    expect(parseConfig({ LOG_FORMAT: "" }).logFormat).toBe(defaultLogFormat(Boolean(process.stdout.isTTY)));
    expect(refusal({ LOG_FORMAT: "pretty" })).toMatch(/LOG_FORMAT: must be json or text/);
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
});
