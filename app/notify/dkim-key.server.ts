import { createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { dkimKeyBits } from "~/config/dkim.server";

/**
 * A DKIM key pair and the DNS TXT record that publishes its public half (RFC 6376 3.6.1), for
 * `npm run inbox -- dkim generate` and the tests' verifier.
 */

export interface DkimKeyPair {
  /** The private key, PKCS#8 PEM: what DKIM_PRIVATE_KEY_FILE holds. */
  privateKeyPem: string;
  /** The TXT record's value: `v=DKIM1; k=rsa; p=…`. */
  txtValue: string;
}

export function generateDkimKeyPair(bits: number = dkimKeyBits.generated): DkimKeyPair {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: bits });
  return {
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    txtValue: dkimTxtValue(privateKey),
  };
}

/** `p=` is the public key's SubjectPublicKeyInfo (DER) in base64, from either half of the pair. */
export function dkimTxtValue(key: KeyObject): string {
  const der = createPublicKey(key).export({ type: "spki", format: "der" });
  return `v=DKIM1; k=rsa; p=${der.toString("base64")}`;
}

/** The name the TXT record is published under. */
export const dkimRecordName = (selector: string, domain: string) => `${selector}._domainkey.${domain}`;

/**
 * The value split into strings of at most 255 characters, as a DNS TXT record holds it (a 2048-bit key's value is
 * longer than one string): the way most zone files and DNS panels want it written.
 */
export function txtStrings(value: string): string[] {
  const parts: string[] = [];
  for (let at = 0; at < value.length; at += 255) parts.push(value.slice(at, at + 255));
  return parts;
}
