import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isSealed, keyIdOf, seal, sealedKeyId, totpSecretColumn, unseal } from "~/store/sealed-secrets.server";

const key = randomBytes(32);
const other = randomBytes(32);
const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

describe("sealed secrets (AES-256-GCM, v1:KEYID:NONCE:SEALED)", () => {
  it("seals to a versioned value naming the key, never the secret, and opens back", () => {
    const sealed = seal(key, secret, totpSecretColumn, "op-1");
    expect(sealed).toMatch(/^v1:[0-9a-f]{12}:[\w-]+:[\w-]+$/);
    expect(sealed).not.toContain(secret);
    expect(isSealed(sealed)).toBe(true);
    expect(sealedKeyId(sealed)).toBe(keyIdOf(key));
    expect(unseal(key, sealed, totpSecretColumn, "op-1")).toBe(secret);
    // A fresh nonce each time: the same secret never seals to the same text.
    expect(seal(key, secret, totpSecretColumn, "op-1")).not.toBe(sealed);
  });

  it("a clear value (written before the key was set) is read as it is", () => {
    expect(unseal(key, secret, totpSecretColumn, "op-1")).toBe(secret);
    expect(unseal(undefined, secret, totpSecretColumn, "op-1")).toBe(secret);
  });

  it("refuses a missing key, a wrong key, a value moved to another row and a changed byte, naming SECRETS_KEY", () => {
    const sealed = seal(key, secret, totpSecretColumn, "op-1");
    expect(() => unseal(undefined, sealed, totpSecretColumn, "op-1")).toThrow(/SECRETS_KEY is not set/);
    expect(() => unseal(other, sealed, totpSecretColumn, "op-1")).toThrow(/SECRETS_KEY is not the key/);
    expect(() => unseal(key, sealed, totpSecretColumn, "op-2")).toThrow(/changed or moved from another row/);
    const [version, keyId, nonce, body] = sealed.split(":") as [string, string, string, string];
    const bytes = Buffer.from(body, "base64url");
    bytes[0]! ^= 1;
    const changed = [version, keyId, nonce, bytes.toString("base64url")].join(":");
    expect(() => unseal(key, changed, totpSecretColumn, "op-1")).toThrow(/changed or moved/);
  });

  it("a key's id is short, stable, and differs between keys", () => {
    expect(keyIdOf(key)).toBe(keyIdOf(Buffer.from(key)));
    expect(keyIdOf(key)).not.toBe(keyIdOf(other));
  });
});
