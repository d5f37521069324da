import { TOTP, Secret } from "otpauth";
import { describe, expect, it } from "vitest";
import {
  groupedSecret,
  newRecoveryCodes,
  newTotpSecret,
  otpauthQrSvg,
  otpauthUri,
  recoveryCodeHash,
  totpStepOf,
} from "~/owner/one-time-codes.server";

const codeAt = (secret: string, at: Date) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: at.getTime(),
  });

describe("one-time codes (RFC 6238: SHA-1, 6 digits, 30 s)", () => {
  it("matches RFC 6238's SHA-1 test vector", () => {
    // The RFC's key "12345678901234567890" at 59 s is 94287082 (8 digits); the 6-digit code is its last six.
    const secret = new Secret({ buffer: new TextEncoder().encode("12345678901234567890").buffer }).base32;
    expect(totpStepOf(secret, "287082", new Date(59_000))).toBe(1);
  });

  it("takes the code of the step before, now and after, and names the step; nothing further off", () => {
    const secret = newTotpSecret();
    const now = new Date(Date.UTC(2026, 10, 26, 12, 0, 10));
    const step = Math.floor(now.getTime() / 30_000);
    expect(totpStepOf(secret, codeAt(secret, now), now)).toBe(step);
    expect(totpStepOf(secret, codeAt(secret, new Date(now.getTime() - 30_000)), now)).toBe(step - 1);
    expect(totpStepOf(secret, codeAt(secret, new Date(now.getTime() + 30_000)), now)).toBe(step + 1);
    expect(totpStepOf(secret, codeAt(secret, new Date(now.getTime() - 90_000)), now)).toBeNull();
    expect(totpStepOf(secret, "12345", now)).toBeNull();
    expect(totpStepOf(secret, "abcdef", now)).toBeNull();
  });

  it("makes 160-bit upper-case base32 secrets, shown in groups of four, and an otpauth URI", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(groupedSecret(secret)).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/);
    const uri = new URL(otpauthUri(secret, "Grimforge Haunt Props", "owner@example.com"));
    expect(uri.protocol).toBe("otpauth:");
    expect(uri.searchParams.get("secret")).toBe(secret);
    expect(uri.searchParams.get("algorithm")).toBe("SHA1");
    expect(uri.searchParams.get("digits")).toBe("6");
    expect(uri.searchParams.get("period")).toBe("30");
  });

  it("makes ten distinct recovery codes, hashed per operator, the same however they are typed", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const code = codes[0]!;
    expect(recoveryCodeHash("a", code)).toBe(recoveryCodeHash("a", ` ${code.toUpperCase().replace("-", " ")} `));
    expect(recoveryCodeHash("a", code)).not.toBe(recoveryCodeHash("b", code));
  });
});

describe("the set-up's QR code", () => {
  it("is SVG markup alone: dark modules on white, a quiet zone of four modules, no script, no style", () => {
    const svg = otpauthQrSvg(otpauthUri(newTotpSecret(), "Grimforge Haunt Props", "owner@example.com"));
    const [, size] = /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 (\d+) \1">/.exec(svg) ?? [];
    expect(size).toBeDefined();
    expect(svg).toContain(`<rect fill="#ffffff" width="${size}" height="${size}"/>`);
    const modules = [...svg.matchAll(/M(\d+),(\d+)h8v8h-8z/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
    expect(modules.length).toBeGreaterThan(100);
    // 8 px a module: nothing dark within 4 modules (32 px) of any edge.
    const coordinates = modules.flat();
    expect(Math.min(...coordinates)).toBe(32);
    expect(Math.max(...coordinates)).toBe(Number(size) - 32 - 8);
    expect(svg).toMatch(/<path fill="#000000" d="/);
    expect(svg).not.toMatch(/<script|style=|on[a-z]+=/i);
  });
});
