import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { open, rm, stat } from "node:fs/promises";
import { basename } from "node:path";
import { pipeline } from "node:stream/promises";
import { BackupError } from "~/store/backup-files.server";

// File layout: magic (8) | version (1) | key id (8) | nonce (12) | ciphertext | tag (16). The header is authenticated
// too (additional data). The key id tells a wrong key from a changed file, with a plain message.
const magic = Buffer.from("HAUNTBK\0", "latin1");
const formatVersion = 1;
const headerLength = magic.length + 1 + 8 + 12;
const tagLength = 16;

const keyId = (key: Buffer) => createHmac("sha256", key).update("haunt backup key id").digest().subarray(0, 8);

export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function encryptFile(plain: string, target: string, key: Buffer): Promise<void> {
  const nonce = randomBytes(12);
  const header = Buffer.concat([magic, Buffer.from([formatVersion]), keyId(key), nonce]);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(header);
  await pipeline(
    createReadStream(plain),
    async function* (source: AsyncIterable<Buffer>) {
      yield header;
      for await (const chunk of source) yield cipher.update(chunk);
      yield cipher.final();
      yield cipher.getAuthTag();
    },
    createWriteStream(target, { mode: 0o600 }),
  );
}

/** Decrypts `file` into `target`; throws BackupError with a plain message for a wrong key, a changed byte or not a backup. */
export async function decryptFile(file: string, target: string, key: Buffer | undefined): Promise<void> {
  const name = basename(file);
  if (!key) throw new BackupError(`${name} is encrypted: set BACKUP_KEY to the key it was made with`);
  const size = (await stat(file)).size;
  const handle = await open(file, "r");
  let header: Buffer;
  let tag: Buffer;
  try {
    if (size < headerLength + tagLength) throw new BackupError(`${name} is not an encrypted backup (too short)`);
    header = Buffer.alloc(headerLength);
    tag = Buffer.alloc(tagLength);
    await handle.read(header, 0, headerLength, 0);
    await handle.read(tag, 0, tagLength, size - tagLength);
  } finally {
    await handle.close();
  }
  if (!header.subarray(0, magic.length).equals(magic)) throw new BackupError(`${name} is not an encrypted backup`);
  if (header[magic.length] !== formatVersion)
    throw new BackupError(`${name} is in a newer backup format (${header[magic.length]}) than this version reads`);
  if (!header.subarray(magic.length + 1, magic.length + 9).equals(keyId(key)))
    throw new BackupError(`${name} was encrypted with another key: BACKUP_KEY is not the key it was made with`);
  const decipher = createDecipheriv("aes-256-gcm", key, header.subarray(magic.length + 9));
  decipher.setAAD(header);
  decipher.setAuthTag(tag);
  try {
    await pipeline(
      createReadStream(file, { start: headerLength, end: size - tagLength - 1 }),
      decipher,
      createWriteStream(target, { mode: 0o600 }),
    );
  } catch (error) {
    await rm(target, { force: true });
    if (/authenticate/i.test((error as Error).message))
      throw new BackupError(`${name} has been changed or damaged since it was made: it cannot be trusted`);
    throw error;
  }
}
