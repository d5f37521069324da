import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { createMailTransport } from "~/notify/mail-transport.server";
import { verifyDkim } from "../support/dkim";
import { runInbox } from "../support/inbox-command";
import { startSmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";

/**
 * `npm run inbox -- dkim generate`: the key it writes signs mail that a real verifier passes against the TXT record
 * it prints; it never overwrites a file, and the key file is its owner's alone.
 */

const temp = useTempDir("dkim-command-");
const email = { SMTP_URL: "smtp://127.0.0.1:2525", NOTIFY_EMAIL_TO: "owner@example.com" };

/** The printed record's name and value. */
function record(stdout: string): { name: string; value: string } {
  const name = /^ {3}Name: {2}(\S+)$/m.exec(stdout)?.[1];
  const value = /^ {3}Value: (v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]+)$/m.exec(stdout)?.[1];
  expect(name).toBeDefined();
  expect(value).toBeDefined();
  return { name: name!, value: value! };
}

describe("npm run inbox -- dkim generate", () => {
  it("writes a 2048-bit RSA key (mode 0600) and prints the TXT record and the variables; the pair verifies", async () => {
    const out = join(temp.dir(), "dkim.pem");
    const result = await runInbox(["dkim", "generate", "--selector", "Haunt2026", "--out", out], {
      env: { ...email, NOTIFY_EMAIL_FROM: "Haunt <site@grimforge.example>" },
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const { name, value } = record(result.stdout);
    expect(name).toBe("haunt2026._domainkey.grimforge.example");
    expect(result.stdout).toContain(`DKIM_DOMAIN=grimforge.example\n`);
    expect(result.stdout).toContain(`DKIM_SELECTOR=haunt2026\n`);
    expect(result.stdout).toContain(`DKIM_PRIVATE_KEY_FILE=${out}\n`);
    // The zone-file form: the same value in strings of at most 255 characters.
    const zone = /IN TXT \( (.*) \)$/m.exec(result.stdout)![1]!;
    const strings = [...zone.matchAll(/"([^"]*)"/g)].map((match) => match[1]!);
    expect(strings.every((part) => part.length <= 255)).toBe(true);
    expect(strings.join("")).toBe(value);

    // The site starts with the key file, and what it signs passes against the printed record.
    const sink = await startSmtpSink();
    try {
      const config = parseConfig({
        ...email,
        SMTP_URL: sink.url,
        NOTIFY_EMAIL_FROM: "site@grimforge.example",
        DKIM_DOMAIN: "grimforge.example",
        DKIM_SELECTOR: "haunt2026",
        DKIM_PRIVATE_KEY_FILE: out,
      });
      expect(config.dkim?.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
      const { transport } = createMailTransport(config.notify!.email!);
      await transport.sendMail({
        from: "site@grimforge.example",
        to: "owner@example.com",
        subject: "Hi",
        text: "Hi\n",
      });
      transport.close();
      const verdict = await verifyDkim(
        { domain: "grimforge.example", selector: "haunt2026", txtValue: value },
        sink.messages[0]!.raw,
      );
      expect(verdict.statuses).toEqual(["pass"]);
    } finally {
      await sink.stop();
    }
  });

  it("never overwrites a file: an existing --out is left as it was", async () => {
    const out = join(temp.dir(), "in-use.pem");
    writeFileSync(out, "the key in use\n");
    const result = await runInbox(["dkim", "generate", "--domain", "example.com", "--out", out]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/already exists: nothing was written/);
    expect(result.stdout).toBe("");
    expect(readFileSync(out, "utf8")).toBe("the key in use\n");
  });

  it("takes DKIM_DOMAIN as the domain, a dated selector by default, and refuses the selector in use", async () => {
    const dir = temp.dir();
    const live = join(dir, "live.pem");
    expect((await runInbox(["dkim", "generate", "--domain", "example.com", "--out", live])).status).toBe(0);
    const env = { DKIM_DOMAIN: "Example.com", DKIM_SELECTOR: "old", DKIM_PRIVATE_KEY_FILE: live };

    const rotated = await runInbox(["dkim", "generate", "--out", join(dir, "next.pem")], { env });
    expect(rotated.status).toBe(0);
    expect(record(rotated.stdout).name).toMatch(/^site20\d{4}\._domainkey\.example\.com$/);

    const reused = await runInbox(["dkim", "generate", "--selector", "old", "--out", join(dir, "again.pem")], { env });
    expect(reused.status).toBe(2);
    expect(reused.stderr).toMatch(/--selector: old is the selector in use \(DKIM_SELECTOR\)/);
    expect(() => statSync(join(dir, "again.pem"))).toThrow();

    // A key file that cannot be read stops the command as it stops the site.
    await expect(
      runInbox(["dkim", "generate", "--out", join(dir, "x.pem")], {
        env: { ...env, DKIM_PRIVATE_KEY_FILE: join(dir, "missing.pem") },
      }),
    ).rejects.toThrow(/DKIM_PRIVATE_KEY_FILE: cannot read/);
  });

  it("refuses wrong usage with status 2, writing nothing", async () => {
    const dir = temp.dir();
    for (const args of [
      ["dkim"],
      ["dkim", "make"],
      ["dkim", "generate", "--selector", "bad selector", "--domain", "example.com"],
      ["dkim", "generate", "--domain", "not a domain"],
      ["dkim", "generate", "--bits", "1024"],
    ]) {
      const result = await runInbox([...args, "--out", join(dir, "x.pem")]);
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(/^inbox: /);
    }
    expect(() => statSync(join(dir, "x.pem"))).toThrow();
    expect((await runInbox(["--help"])).stdout).toContain("dkim generate [--selector NAME]");
  });
});
