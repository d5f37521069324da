import { argon2, randomBytes, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

/**
 * Operators' passwords: argon2id (Node 24's crypto.argon2) with OWASP's parameters, stored as a PHC string
 * ($argon2id$v=19$m=19456,t=2,p=1$salt$hash), compared in constant time. Which passwords may be chosen:
 * password-policy.server.ts.
 */

const argon2Async = promisify(argon2);
const parameters = { memory: 19_456, passes: 2, parallelism: 1 } as const;
const tagLength = 32;

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
