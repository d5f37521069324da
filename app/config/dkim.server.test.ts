import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { generateKeyPairSync } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { dkimWarnings, unescapePem } from "~/config/dkim.server";
import { refusal } from "../../tests/support/config-refusal";

const dir = mkdtempSync(join(tmpdir(), "dkim-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pem = (type: "rsa" | "ed25519", bits = 2048) =>
  (type === "rsa"
    ? generateKeyPairSync("rsa", { modulusLength: bits }).privateKey
    : generateKeyPairSync("ed25519").privateKey
  )
    .export({ type: "pkcs8", format: "pem" })
    .toString();
const rsa = pem("rsa");
const keyFile = (contents: string, name = `k-${Math.random()}.pem`) => {
  const path = join(dir, name);
  writeFileSync(path, contents, { mode: 0o600 });
  return path;
};

const email = {
  SMTP_URL: "smtp://mail.example.com:587",
  NOTIFY_EMAIL_TO: "owner@example.com",
  NOTIFY_EMAIL_FROM: "Haunt <site@example.com>",
};

describe("parseConfig: DKIM", () => {
  it("signs nothing when none of DKIM_* is set", () => {
    const config = parseConfig(email);
    expect(config.dkim).toBeUndefined();
    expect(config.notify?.email).not.toHaveProperty("dkim");
  });

  it("reads the domain, selector and key file, and hands them to the e-mail channel", () => {
    const config = parseConfig({
      ...email,
      DKIM_DOMAIN: " Example.COM ",
      DKIM_SELECTOR: "Site2026",
      DKIM_PRIVATE_KEY_FILE: keyFile(rsa),
    });
    expect(config.dkim).toMatchObject({ domainName: "example.com", keySelector: "site2026" });
    expect(config.dkim?.privateKey.asymmetricKeyType).toBe("rsa");
    expect(config.notify?.email?.dkim).toBe(config.dkim);
    // The key never shows in what the configuration prints.
    expect(JSON.stringify(config)).not.toContain("PRIVATE");
  });

  it("takes the key inline, as pasted into one line with \\n, or with real line breaks", () => {
    for (const inline of [rsa, rsa.trim().replace(/\n/g, "\\n"), `"${rsa.trim().replace(/\n/g, "\\n")}"`]) {
      const config = parseConfig({ DKIM_DOMAIN: "example.com", DKIM_SELECTOR: "site", DKIM_PRIVATE_KEY: inline });
      expect(config.dkim?.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    }
    expect(unescapePem("'a\\nb\\r\\nc'")).toBe("a\nb\nc");
  });

  it("needs all three or none, naming each missing one", () => {
    expect(refusal({ DKIM_DOMAIN: "example.com" })).toMatch(
      /DKIM_SELECTOR: must be set too, because DKIM_DOMAIN is[\s\S]*DKIM_PRIVATE_KEY_FILE \(or DKIM_PRIVATE_KEY\): must be set too/,
    );
    const message = refusal({ DKIM_SELECTOR: "site", DKIM_PRIVATE_KEY: rsa });
    expect(message).toMatch(/DKIM_DOMAIN: must be set too, because DKIM_SELECTOR and DKIM_PRIVATE_KEY are/);
    expect(message).not.toContain("MII");
    expect(
      refusal({
        DKIM_DOMAIN: "example.com",
        DKIM_SELECTOR: "site",
        DKIM_PRIVATE_KEY: rsa,
        DKIM_PRIVATE_KEY_FILE: keyFile(rsa),
      }),
    ).toMatch(/DKIM_PRIVATE_KEY: set DKIM_PRIVATE_KEY_FILE or DKIM_PRIVATE_KEY, not both/);
  });

  it("refuses a domain or selector that is no DNS name", () => {
    const base = { DKIM_SELECTOR: "site", DKIM_PRIVATE_KEY: rsa };
    for (const bad of ["example", "exa mple.com", "-x.example.com", "example.com.", "site@example.com"])
      expect(refusal({ ...base, DKIM_DOMAIN: bad })).toMatch(/DKIM_DOMAIN: must be the domain the mail is signed for/);
    for (const bad of ["a b", "-site", "site;x=1", "s_1"])
      expect(refusal({ ...base, DKIM_DOMAIN: "example.com", DKIM_SELECTOR: bad })).toMatch(
        /DKIM_SELECTOR: must be a DNS label/,
      );
  });

  it("stops the start on a key file it cannot read, naming DKIM_PRIVATE_KEY_FILE", () => {
    const base = { DKIM_DOMAIN: "example.com", DKIM_SELECTOR: "site" };
    expect(refusal({ ...base, DKIM_PRIVATE_KEY_FILE: join(dir, "missing.pem") })).toMatch(
      /DKIM_PRIVATE_KEY_FILE: cannot read ".*missing\.pem" \(ENOENT\)/,
    );
    expect(refusal({ ...base, DKIM_PRIVATE_KEY_FILE: dir })).toMatch(/DKIM_PRIVATE_KEY_FILE: cannot read .*\(EISDIR\)/);
    if (process.getuid?.() !== 0) {
      const locked = keyFile(rsa, "locked.pem");
      chmodSync(locked, 0o000);
      expect(refusal({ ...base, DKIM_PRIVATE_KEY_FILE: locked })).toMatch(
        /DKIM_PRIVATE_KEY_FILE: cannot read .*EACCES/,
      );
    }
  });

  it("refuses what is not an RSA private key of 1024 to 4096 bits, naming the variable and never its contents", () => {
    const base = { DKIM_DOMAIN: "example.com", DKIM_SELECTOR: "site" };
    const publicKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
      .publicKey.export({ type: "spki", format: "pem" })
      .toString();
    const encrypted = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "pumpkin" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    }).privateKey;
    const cases: [string, RegExp][] = [
      ["not a key at all", /must be a PEM private key/],
      [publicKey, /must be a PEM private key/],
      [rsa.replace(/[A-Za-z]{10}/, "AAAAAAAAAA").slice(0, 300), /must be a PEM private key/],
      [encrypted, /the private key is encrypted with a passphrase/],
      [pem("ed25519"), /is a ed25519 key: .*must be an RSA key/],
      [pem("rsa", 512), /is a 512-bit RSA key: it must have 1024 to 4096 bits/],
    ];
    for (const [contents, words] of cases) {
      const file = refusal({ ...base, DKIM_PRIVATE_KEY_FILE: keyFile(contents) });
      expect(file).toMatch(new RegExp(`DKIM_PRIVATE_KEY_FILE: ${words.source}`));
      expect(file).toContain("npm run inbox -- dkim generate");
      const inline = refusal({ ...base, DKIM_PRIVATE_KEY: contents });
      expect(inline).toMatch(new RegExp(`DKIM_PRIVATE_KEY: ${words.source}`));
      expect(inline).not.toContain("MII"); // no part of the key itself
    }
  });
});

describe("the start's DKIM warnings", () => {
  const dkim = parseConfig({ DKIM_DOMAIN: "example.com", DKIM_SELECTOR: "site", DKIM_PRIVATE_KEY: rsa }).dkim!;

  it("say nothing when the signing domain aligns with NOTIFY_EMAIL_FROM's (the same, a parent or a subdomain)", () => {
    expect(dkimWarnings({ dkim: undefined, from: "site@other.example" })).toEqual([]);
    for (const from of ["site@example.com", "site@EXAMPLE.com", "site@mail.example.com"])
      expect(dkimWarnings({ dkim, from })).toEqual([]);
    expect(dkimWarnings({ dkim: { ...dkim, domainName: "mail.example.com" }, from: "site@example.com" })).toEqual([]);
  });

  it("warn when it does not (DMARC would not count the signature) and when no e-mail is configured", () => {
    expect(dkimWarnings({ dkim, from: "site@example.org" })).toEqual([
      expect.stringMatching(
        /DKIM_DOMAIN \(example\.com\) is not the domain of NOTIFY_EMAIL_FROM \(example\.org\).*DMARC/,
      ),
    ]);
    expect(dkimWarnings({ dkim, from: "site@notexample.com" })).toHaveLength(1);
    expect(dkimWarnings({ dkim, from: undefined })).toEqual([expect.stringMatching(/nothing is signed/)]);
  });
});
