import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectDkimPass, testDkim } from "../support/dkim";
import { enquiry } from "../support/enquiry";
import { ensureBuilt, runSiteExpectingExit, startSite, waitFor, type SiteServer } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";

/**
 * DKIM through the built server (`npm start`): started with DKIM_* and the key in a file, the notification of an
 * enquiry arrives at a real SMTP server signed, and a real verifier passes it; a key file that is no key stops the
 * start, naming DKIM_PRIVATE_KEY_FILE.
 */

const temp = useTempDir("haunt-dkim-site-");
const dkim = testDkim({ domain: "grimforge.example", selector: "site2026" });
let sink: SmtpSink;
const sites: SiteServer[] = [];

beforeAll(async () => {
  await ensureBuilt();
  sink = await startSmtpSink();
}, 120_000);
afterAll(() => sink.stop());
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
});

function env(keyFile: string, from = "site@grimforge.example"): Record<string, string> {
  return {
    DATABASE_URL: `file:${temp.dir()}/enquiries.db`,
    SMTP_URL: sink.url,
    NOTIFY_EMAIL_TO: "owner@grimforge.example",
    NOTIFY_EMAIL_FROM: `Grimforge <${from}>`,
    DKIM_DOMAIN: dkim.domain,
    DKIM_SELECTOR: dkim.selector,
    DKIM_PRIVATE_KEY_FILE: keyFile,
  };
}

describe("DKIM in the built server", () => {
  it("signs the notification of an enquiry with the key from DKIM_PRIVATE_KEY_FILE; the signature verifies", async () => {
    const keyFile = join(temp.dir(), "dkim.pem");
    writeFileSync(keyFile, dkim.privateKeyPem, { mode: 0o600 });
    const site = await startSite(env(keyFile));
    sites.push(site);
    expect(site.output()).toContain("DKIM-signed (d=grimforge.example, s=site2026)");
    expect(site.output()).not.toMatch(/dkim: .*not the domain|PRIVATE KEY|MII/);
    const email = `ann-${Date.now()}@visitor.example`;
    const response = await fetch(`${site.url}/api/site/save-contact`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(enquiry("1", { email })),
    });
    expect(response.status).toBe(204);
    await waitFor(
      () => sink.messages.some((mail) => mail.headers.get("reply-to")?.[0]?.includes(email)),
      "the notification",
      15_000,
    );
    const mail = sink.messages.find((m) => m.headers.get("reply-to")?.[0]?.includes(email))!;
    await expectDkimPass(dkim, mail.raw);
  });

  it("warns at start when DKIM_DOMAIN does not align with NOTIFY_EMAIL_FROM's domain", async () => {
    const keyFile = join(temp.dir(), "dkim.pem");
    writeFileSync(keyFile, dkim.privateKeyPem, { mode: 0o600 });
    const site = await startSite(env(keyFile, "site@hollow-hill.example"));
    sites.push(site);
    await waitFor(() => site.output().includes("dkim: DKIM_DOMAIN (grimforge.example)"), "the warning");
    expect(site.output()).toContain("is not the domain of NOTIFY_EMAIL_FROM (hollow-hill.example)");
  });

  it("refuses to start when DKIM_PRIVATE_KEY_FILE is no private key or cannot be read, naming it", async () => {
    const notAKey = join(temp.dir(), "dkim.pem");
    writeFileSync(notAKey, "-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----\n");
    const bad = await runSiteExpectingExit(env(notAKey));
    expect(bad.code).toBe(1);
    expect(bad.output).toMatch(/DKIM_PRIVATE_KEY_FILE: must be a PEM private key/);
    const missing = await runSiteExpectingExit(env(join(temp.dir(), "absent.pem")));
    expect(missing.code).toBe(1);
    expect(missing.output).toMatch(/DKIM_PRIVATE_KEY_FILE: cannot read .*absent\.pem.*ENOENT/);
  });
});
