import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { Row, SqlClient } from "~/store/sql.server";

/**
 * Secrets sealed at rest (ADR 0034): the one place where a stored credential is sealed and opened. With SECRETS_KEY,
 * each is kept as `v1:KEYID:NONCE:SEALED` — AES-256-GCM under the key, the key id a short hash of the key (so a wrong
 * key is told apart from a changed value), the row's table, column and id as additional data (a value moved to another
 * row does not open). Without the key, values stay as they are.
 */

/** Every stored value a thief could log in with (passwords and recovery codes are hashes; passkeys are public keys). */
export const sealedColumns = [
  { table: "totp_factors", column: "secret", id: "operator_id" },
  // A build page's token, kept so the owner can send the link again (looked up by its hash, never by this).
  { table: "build_pages", column: "token_sealed", id: "enquiry_id" },
  // The waitlist's links (confirm, unsubscribe), kept to write them into a mail again (looked up by their hashes).
  { table: "waitlist", column: "confirm_token_sealed", id: "id" },
  { table: "waitlist", column: "unsubscribe_token_sealed", id: "id" },
] as const;

type SealedColumn = (typeof sealedColumns)[number];

const prefix = "v1:";
const nonceBytes = 12;
const tagBytes = 16;

/** A start or a command that cannot go on: the key is missing, wrong, or a sealed value was changed. */
export class SecretsKeyError extends Error {
  override name = "SecretsKeyError";
}

/** The server's build and the pages' build each carry this class; its name is what both see. */
export const isSecretsKeyError = (error: unknown): error is Error =>
  error instanceof Error && error.name === "SecretsKeyError";

/** A short, stable name for a key: a hash of it (the key itself cannot be found from it). */
export const keyIdOf = (key: Uint8Array) =>
  createHash("sha256").update("haunt-site secrets key id\0").update(key).digest("hex").slice(0, 12);

export const isSealed = (stored: string) => stored.startsWith(prefix);

const additionalData = (where: SealedColumn, rowId: string) => Buffer.from(`${where.table}.${where.column}:${rowId}`);

/** What a sealed value names as its key, or undefined when it is in clear. */
export const sealedKeyId = (stored: string) => (isSealed(stored) ? stored.split(":")[1] : undefined);

export function seal(key: Uint8Array, value: string, where: SealedColumn, rowId: string): string {
  const nonce = randomBytes(nonceBytes);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(additionalData(where, rowId));
  const sealed = Buffer.concat([cipher.update(value, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${prefix}${keyIdOf(key)}:${nonce.toString("base64url")}:${sealed.toString("base64url")}`;
}

/** The value in clear; throws SecretsKeyError when it was sealed with another key, changed, or moved from its row. */
export function unseal(key: Uint8Array | undefined, stored: string, where: SealedColumn, rowId: string): string {
  // A value in clear: written before the key was set (it is sealed at the next start with the key).
  if (!isSealed(stored)) return stored;
  const [, keyId, nonce, sealed] = stored.split(":");
  const place = `${where.table}.${where.column} of ${rowId}`;
  if (!key) throw new SecretsKeyError(missingKey(keyId));
  if (keyId !== keyIdOf(key)) throw new SecretsKeyError(wrongKey(keyId, keyIdOf(key)));
  try {
    const bytes = Buffer.from(sealed ?? "", "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce ?? "", "base64url"));
    decipher.setAAD(additionalData(where, rowId));
    decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - tagBytes)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    throw new SecretsKeyError(
      `[secrets] the sealed value in ${place} does not open with SECRETS_KEY although it names this key: it was ` +
        "changed or moved from another row. Remove that operator's one-time codes (npm run inbox -- operator reset-2fa).",
    );
  }
}

const missingKey = (keyId: string | undefined) =>
  `[secrets] the database holds secrets sealed with a SECRETS_KEY (key id ${keyId}), but SECRETS_KEY is not set: ` +
  "set it to the key they were sealed with (docs/operating.md#secrets-key).";

const wrongKey = (keyId: string | undefined, given: string) =>
  `[secrets] SECRETS_KEY is not the key the database's secrets were sealed with (they name key id ${keyId}; this ` +
  `key's id is ${given}): set SECRETS_KEY to that key, or after 'secrets rotate' to the new one (docs/operating.md#secrets-key).`;

interface StoredValue {
  where: SealedColumn;
  rowId: string;
  stored: string;
}

async function storedValues(db: SqlClient): Promise<StoredValue[]> {
  const values: StoredValue[] = [];
  for (const where of sealedColumns) {
    // A column that may be empty (a used confirmation link) holds nothing to seal there.
    const rows: Row[] = await db.query(
      `SELECT ${where.id} AS id, ${where.column} AS value FROM ${where.table} WHERE ${where.column} IS NOT NULL`,
    );
    for (const row of rows) values.push({ where, rowId: String(row.id), stored: String(row.value) });
  }
  return values;
}

/**
 * Writes the new values in one transaction, each only if the row still holds what was read (two instances starting
 * together both seal, the second changes nothing), then leaves no clear copy in the database's files.
 */
async function replace(db: SqlClient, changes: (StoredValue & { next: string })[]): Promise<number> {
  if (changes.length === 0) return 0;
  const results = await db.transaction(
    changes.map(({ where, rowId, stored, next }) => ({
      sql: `UPDATE ${where.table} SET ${where.column} = ? WHERE ${where.id} = ? AND ${where.column} = ? RETURNING ${where.id}`,
      params: [next, rowId, stored],
    })),
  );
  await db.scrub([...new Set(changes.map(({ where }) => where.table))], { erase: true });
  return results.filter((rows) => rows.length > 0).length;
}

export interface SecretsAtStart {
  /** Values sealed now (they were in clear). */
  sealedNow: number;
  /** Values already sealed with the key. */
  sealed: number;
  /** Values in clear (no key). */
  clear: number;
}

/**
 * At start, after the migrations: every sealed value must open with the key (a missing or wrong key stops the start
 * here, not at a login), and with the key every value still in clear is sealed.
 */
export async function prepareSealedSecrets(db: SqlClient, key: Uint8Array | undefined): Promise<SecretsAtStart> {
  const values = await storedValues(db);
  for (const { where, rowId, stored } of values) unseal(key, stored, where, rowId);
  const clear = values.filter(({ stored }) => !isSealed(stored));
  if (!key) return { sealedNow: 0, sealed: 0, clear: clear.length };
  const sealedNow = await replace(
    db,
    clear.map((value) => ({ ...value, next: seal(key, value.stored, value.where, value.rowId) })),
  );
  return { sealedNow, sealed: values.length - clear.length, clear: clear.length - sealedNow };
}

/**
 * `npm run inbox -- secrets rotate`: every value sealed again under `newKey` (those in clear too). Values already under
 * the new key are left as they are, so a rotate cut short is finished by running it again.
 */
export async function resealSecrets(
  db: SqlClient,
  key: Uint8Array | undefined,
  newKey: Uint8Array,
): Promise<{ resealed: number; already: number }> {
  const newId = keyIdOf(newKey);
  const values = await storedValues(db);
  const already = values.filter(({ stored }) => sealedKeyId(stored) === newId);
  const changes = values
    .filter(({ stored }) => sealedKeyId(stored) !== newId)
    .map((value) => ({
      ...value,
      next: seal(newKey, unseal(key, value.stored, value.where, value.rowId), value.where, value.rowId),
    }));
  return { resealed: await replace(db, changes), already: already.length };
}

/**
 * `npm run inbox -- secrets forget` (a key lost for good): the one-time codes whose secret does not open with `key`
 * (all sealed ones when there is none) are removed with their recovery codes, in one transaction; those operators set
 * codes up again after their password. A build page's lost token revokes the page; a waitlist entry's lost confirmation
 * link ends (the visitor asks again), its lost unsubscribe link is replaced by a new one for the next mails. Resolves
 * with how many of each were removed or replaced.
 */
export interface ForgottenSecrets {
  /** Operators whose one-time codes were removed. */
  codes: number;
  /** Build pages revoked. */
  buildPages: number;
  /** Waitlist confirmation links ended. */
  confirmLinks: number;
  /** Waitlist unsubscribe links replaced. */
  unsubscribeLinks: number;
}

export async function forgetUnopenableSecrets(db: SqlClient, key: Uint8Array | undefined): Promise<ForgottenSecrets> {
  const lost = (await storedValues(db)).filter(({ where, rowId, stored }) => {
    try {
      unseal(key, stored, where, rowId);
      return false;
    } catch (error) {
      if (isSecretsKeyError(error)) return true;
      throw error;
    }
  });
  const forgotten: ForgottenSecrets = {
    codes: lost.filter(({ where }) => where.table === "totp_factors").length,
    buildPages: lost.filter(({ where }) => where.table === "build_pages").length,
    confirmLinks: lost.filter(({ where }) => where === waitlistConfirmColumn).length,
    unsubscribeLinks: lost.filter(({ where }) => where === waitlistUnsubscribeColumn).length,
  };
  if (lost.length === 0) return forgotten;
  await db.transaction(
    lost.flatMap(({ where, rowId, stored }) =>
      where.table === "build_pages"
        ? // The link cannot be shown again: the page is revoked (the owner shares a new one).
          [{ sql: "DELETE FROM build_pages WHERE enquiry_id = ? AND token_sealed = ?", params: [rowId, stored] }]
        : where === waitlistConfirmColumn
          ? // The confirmation link cannot be written again: it ends, with its unsent mail (the visitor asks again).
            [
              {
                sql: `UPDATE waitlist SET confirm_token_hash = NULL, confirm_token_sealed = NULL, confirm_until = NULL
                      WHERE id = ? AND confirm_token_sealed = ?`,
                params: [rowId, stored],
              },
              {
                sql: "DELETE FROM list_mail WHERE waitlist_id = ? AND kind = 'confirm' AND state = 'pending'",
                params: [rowId],
              },
            ]
          : where === waitlistUnsubscribeColumn
            ? // The unsubscribe link cannot be written again: a new one, for the next mails (the old one ends).
              [replacedUnsubscribeToken(key, rowId, stored)]
            : [
                { sql: "DELETE FROM totp_factors WHERE operator_id = ? AND secret = ?", params: [rowId, stored] },
                { sql: "DELETE FROM recovery_codes WHERE operator_id = ?", params: [rowId] },
              ],
    ),
  );
  return forgotten;
}

/** What the store's operations seal and open with: the key, or none. */
export interface SecretsSealer {
  seal(value: string, where: SealedColumn, rowId: string): string;
  open(stored: string, where: SealedColumn, rowId: string): string;
}

export const sealerWith = (key: Uint8Array | undefined): SecretsSealer => ({
  seal: (value, where, rowId) => (key ? seal(key, value, where, rowId) : value),
  open: (stored, where, rowId) => unseal(key, stored, where, rowId),
});

export const totpSecretColumn = sealedColumns[0];
export const buildTokenColumn = sealedColumns[1];
export const waitlistConfirmColumn = sealedColumns[2];
export const waitlistUnsubscribeColumn = sealedColumns[3];

/** A waitlist link's token: 256 random bits in lower-case hex (the site's paths are lower case), found by its SHA-256. */
export const newListToken = () => randomBytes(32).toString("hex");
export const hashListToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** A fresh unsubscribe link for an entry whose sealed one no longer opens, sealed with `key` (or in clear without). */
function replacedUnsubscribeToken(key: Uint8Array | undefined, rowId: string, stored: string) {
  const token = newListToken();
  return {
    sql: `UPDATE waitlist SET unsubscribe_token_hash = ?, unsubscribe_token_sealed = ?
          WHERE id = ? AND unsubscribe_token_sealed = ?`,
    params: [hashListToken(token), sealerWith(key).seal(token, waitlistUnsubscribeColumn, rowId), rowId, stored],
  };
}
