import { createPrivateKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { emptyAsUnset } from "~/config/env.server";

/**
 * DKIM signing of every e-mail the site sends (docs/notifications.md, ADR 0044): DKIM_DOMAIN, DKIM_SELECTOR and the
 * private key, from a file (DKIM_PRIVATE_KEY_FILE) or inline (DKIM_PRIVATE_KEY): all three or none. The key is read
 * and checked at start, so a key nodemailer could not sign with stops the start instead of mail going out unsigned
 * (nodemailer sends a message without a signature when signing fails).
 */

/** A DNS name of letters, digits and hyphens, dot-separated, e.g. example.com (no trailing dot). */
const dnsName = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
/** A selector: one or more DNS labels (RFC 6376 3.1), e.g. `site` or `2026.site`. */
const selectorName = /^(?=.{1,63}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

const trimmedLower = (value: unknown) => emptyAsUnset(typeof value === "string" ? value.trim().toLowerCase() : value);

export const dkimEnv = z.object({
  DKIM_DOMAIN: z.preprocess(
    trimmedLower,
    z
      .string()
      .regex(dnsName, "must be the domain the mail is signed for, e.g. example.com (the domain of NOTIFY_EMAIL_FROM)")
      .optional(),
  ),
  DKIM_SELECTOR: z.preprocess(
    trimmedLower,
    z
      .string()
      .regex(selectorName, "must be a DNS label of letters, digits and hyphens, e.g. site or site2026")
      .optional(),
  ),
  DKIM_PRIVATE_KEY_FILE: z.preprocess(emptyAsUnset, z.string().optional()),
  // The PEM inline; `\n` written as two characters (as pasted into one line of a .env file) is a line break.
  DKIM_PRIVATE_KEY: z.preprocess(emptyAsUnset, z.string().optional()),
});

export interface DkimConfig {
  /** d=: the domain the signature is for; its TXT record is `{keySelector}._domainkey.{domainName}`. */
  domainName: string;
  /** s=: which of the domain's keys. */
  keySelector: string;
  /** A checked RSA private key (a KeyObject: logging the configuration cannot print it). */
  privateKey: KeyObject;
}

/** RFC 8301: signers use at least 1024 bits; verifiers need only accept up to 4096. */
export const dkimKeyBits = { min: 1024, max: 4096, generated: 2048 } as const;

const keyHelp = "generate one with `npm run inbox -- dkim generate`";

/** The key from its PEM, or what is wrong with it (never its contents). */
function checkKey(pem: string): KeyObject | string {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: "pem" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_MISSING_PASSPHRASE" || /ENCRYPTED PRIVATE KEY|Proc-Type: 4,ENCRYPTED/.test(pem))
      return `the private key is encrypted with a passphrase: give it without one (${keyHelp})`;
    return `must be a PEM private key (-----BEGIN PRIVATE KEY----- or -----BEGIN RSA PRIVATE KEY-----); ${keyHelp}`;
  }
  if (key.asymmetricKeyType !== "rsa")
    return (
      `is a ${key.asymmetricKeyType ?? "non-RSA"} key: mail is signed with rsa-sha256 (nodemailer signs with RSA ` +
      `only), so it must be an RSA key; ${keyHelp}`
    );
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < dkimKeyBits.min || bits > dkimKeyBits.max)
    return `is a ${bits}-bit RSA key: it must have ${dkimKeyBits.min} to ${dkimKeyBits.max} bits (${dkimKeyBits.generated} recommended); ${keyHelp}`;
  return key;
}

/** The PEM as an operator pastes it into one line: literal `\n` become line breaks, surrounding quotes and blanks go. */
export function unescapePem(value: string): string {
  return value
    .trim()
    .replace(/^(["'])([\s\S]*)\1$/, "$2")
    .replace(/\\r\\n|\\n/g, "\n");
}

/**
 * The signing configuration, or the problems that stop the start, each naming its variable. Reads
 * DKIM_PRIVATE_KEY_FILE (as the user the site runs as: the file must be readable by it, and by nobody else).
 */
export function readDkim(data: z.infer<typeof dkimEnv>): { dkim?: DkimConfig; problems: string[] } {
  const { DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY_FILE, DKIM_PRIVATE_KEY } = data;
  const given = {
    DKIM_DOMAIN: DKIM_DOMAIN !== undefined,
    DKIM_SELECTOR: DKIM_SELECTOR !== undefined,
    DKIM_PRIVATE_KEY_FILE: DKIM_PRIVATE_KEY_FILE !== undefined || DKIM_PRIVATE_KEY !== undefined,
  };
  const names = Object.keys(given) as (keyof typeof given)[];
  const set = names.filter((name) => given[name]);
  if (set.length === 0) return { problems: [] };
  if (DKIM_PRIVATE_KEY_FILE !== undefined && DKIM_PRIVATE_KEY !== undefined)
    return {
      problems: [
        "  DKIM_PRIVATE_KEY: set DKIM_PRIVATE_KEY_FILE or DKIM_PRIVATE_KEY, not both (one key signs the mail)",
      ],
    };
  if (set.length < names.length) {
    const described = (name: string) =>
      name === "DKIM_PRIVATE_KEY_FILE" && DKIM_PRIVATE_KEY !== undefined ? "DKIM_PRIVATE_KEY" : name;
    const givenWords = set.map(described).join(" and ");
    return {
      problems: names
        .filter((name) => !given[name])
        .map(
          (name) =>
            `  ${name === "DKIM_PRIVATE_KEY_FILE" ? "DKIM_PRIVATE_KEY_FILE (or DKIM_PRIVATE_KEY)" : name}: must be set too, ` +
            `because ${givenWords} ${set.length > 1 ? "are" : "is"} (DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and ` +
            "DKIM_PRIVATE_KEY_FILE or DKIM_PRIVATE_KEY)",
        ),
    };
  }
  let pem: string;
  let variable: string;
  if (DKIM_PRIVATE_KEY_FILE !== undefined) {
    variable = "DKIM_PRIVATE_KEY_FILE";
    try {
      pem = readFileSync(DKIM_PRIVATE_KEY_FILE, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "error";
      return {
        problems: [
          `  DKIM_PRIVATE_KEY_FILE: cannot read ${JSON.stringify(DKIM_PRIVATE_KEY_FILE)} (${code}): it must be a PEM file the site's user can read`,
        ],
      };
    }
  } else {
    variable = "DKIM_PRIVATE_KEY";
    pem = unescapePem(DKIM_PRIVATE_KEY!);
  }
  const key = checkKey(pem);
  if (typeof key === "string") return { problems: [`  ${variable}: ${key}`] };
  return { dkim: { domainName: DKIM_DOMAIN!, keySelector: DKIM_SELECTOR!, privateKey: key }, problems: [] };
}

/** The domain of an address: what follows its last @, lower case. */
const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/**
 * What the start warns about (it does not refuse: a relay may add its own aligned signature, and a domain signing
 * for another can be deliberate). DMARC passes on DKIM only when the signing domain aligns with the From domain:
 * relaxed alignment (the default) asks for the same organisational domain. Without the Public Suffix List the site
 * cannot tell every such pair, so it accepts the certain cases, the same domain or one a subdomain of the other,
 * and warns about the rest.
 */
export function dkimWarnings({ dkim, from }: { dkim: DkimConfig | undefined; from: string | undefined }): string[] {
  if (!dkim) return [];
  if (from === undefined)
    return [
      "dkim: DKIM_DOMAIN is set but e-mail is not configured (SMTP_URL, NOTIFY_EMAIL_TO, NOTIFY_EMAIL_FROM): nothing is sent, so nothing is signed",
    ];
  const fromDomain = domainOf(from);
  const signing = dkim.domainName;
  if (fromDomain === signing || fromDomain.endsWith(`.${signing}`) || signing.endsWith(`.${fromDomain}`)) return [];
  return [
    `dkim: DKIM_DOMAIN (${signing}) is not the domain of NOTIFY_EMAIL_FROM (${fromDomain}) nor a parent or subdomain ` +
      "of it: the signature may not align with the From address for DMARC, and mail providers may treat the mail as " +
      "unauthenticated. Sign for the From address's domain (see docs/operating.md).",
  ];
}
