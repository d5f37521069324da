import { createPrivateKey } from "node:crypto";
import { dkimVerify } from "mailauth";
import { expect } from "vitest";
import type { DkimConfig } from "~/config.server";
import { dkimRecordName, generateDkimKeyPair } from "~/notify/dkim-key.server";

/**
 * DKIM in tests, with a real verifier (mailauth, the verifier of the nodemailer project's own mail server): a key
 * pair whose public half is "published" by the verifier's resolver, and a check of a raw message as it arrived.
 *
 *   const dkim = testDkim();                                  // once per file: 2048-bit RSA, d=grimforge.example
 *   createX({ email: { ...email, dkim: dkim.config } })       // the sender under test signs with it
 *   await expectDkimPass(dkim, mail.raw);                     // one signature, status pass, d= and s= as configured
 */

export interface TestDkim {
  /** What parseConfig puts on `notify.email.dkim`. */
  config: DkimConfig;
  /** The private key as DKIM_PRIVATE_KEY / the file's contents. */
  privateKeyPem: string;
  /** The TXT record's value, as `npm run inbox -- dkim generate` prints it. */
  txtValue: string;
  domain: string;
  selector: string;
}

let shared: { privateKeyPem: string; txtValue: string } | undefined;

/** A key pair (made once per test file: 2048-bit generation takes a moment) for `domain` and `selector`. */
export function testDkim({ domain = "grimforge.example", selector = "site" } = {}): TestDkim {
  shared ??= generateDkimKeyPair();
  const { privateKeyPem, txtValue } = shared;
  return {
    config: { domainName: domain, keySelector: selector, privateKey: createPrivateKey(privateKeyPem) },
    privateKeyPem,
    txtValue,
    domain,
    selector,
  };
}

export interface DkimVerdict {
  /** pass, fail, neutral, none, … per signature, in the order they appear. */
  statuses: string[];
  /** Each signature's d= and s=. */
  signers: { domain?: string; selector?: string }[];
  /** The first signature's signed header names (lower case). */
  signedHeaders: string[];
  /** The verifier's comment on the first signature (e.g. "body hash did not verify"). */
  comment?: string;
}

/**
 * Verifies every DKIM signature in `raw` against the key `dkim` publishes; no other DNS name resolves. A message
 * with no signature gives one status, "none".
 */
export async function verifyDkim(dkim: Pick<TestDkim, "domain" | "selector" | "txtValue">, raw: string | Buffer) {
  const name = dkimRecordName(dkim.selector, dkim.domain);
  const resolver = async (domain: string, type: string) => {
    if (type === "TXT" && domain.toLowerCase() === name) return [[dkim.txtValue]];
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${domain}`), { code: "ENOTFOUND" });
  };
  const result = await dkimVerify(typeof raw === "string" ? Buffer.from(raw) : raw, {
    resolver,
    // RFC 6376, 8301 and 8463 exactly (a changed body is "fail", as large providers judge it, not "neutral").
    strict: true,
  });
  const [first] = result.results;
  return {
    statuses: result.results.map((signature) => String(signature.status.result)),
    signers: result.results.map((signature) => ({ domain: signature.signingDomain, selector: signature.selector })),
    signedHeaders: (first?.signingHeaders?.keys ?? "")
      .split(":")
      .map((key) => key.trim().toLowerCase())
      .filter(Boolean),
    comment: first?.status.comment,
  } satisfies DkimVerdict;
}

/** One signature in `raw`, by `dkim`'s domain and selector, that verifies; returns the verdict for more checks. */
export async function expectDkimPass(dkim: TestDkim, raw: string | Buffer): Promise<DkimVerdict> {
  const verdict = await verifyDkim(dkim, raw);
  expect(verdict.signers).toEqual([{ domain: dkim.domain, selector: dkim.selector }]);
  expect(verdict.statuses, verdict.comment).toEqual(["pass"]);
  expect(verdict.signedHeaders).toEqual(expect.arrayContaining(["from", "to", "subject", "date", "message-id"]));
  return verdict;
}
