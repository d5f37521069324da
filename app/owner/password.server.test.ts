import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "~/owner/password.server";

describe("operator passwords", () => {
  it("are stored as argon2id PHC strings with OWASP's parameters and a fresh salt each time", async () => {
    const [a, b] = await Promise.all([
      hashPassword("a long enough passphrase"),
      hashPassword("a long enough passphrase"),
    ]);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
  });

  it("verify the right password only, and nothing against a string this code did not write", async () => {
    const stored = await hashPassword("Grave digger at midnight");
    expect(await verifyPassword("Grave digger at midnight", stored)).toBe(true);
    expect(await verifyPassword("grave digger at midnight", stored)).toBe(false);
    expect(await verifyPassword("Grave digger at midnight", "plaintext")).toBe(false);
    expect(await verifyPassword("", stored.replace(/\$[^$]+$/, "$AAAA"))).toBe(false);
  });
});
