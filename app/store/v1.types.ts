/**
 * The v1 inbox's import (app/store/v1.server.ts).
 */

/** A line of the v1 JSON-lines inbox. */
export interface V1Record {
  receivedAt: string;
  name: string;
  email: string;
  message: string;
}

/** A v1 file the import read to the end. */
export interface V1FileSeen {
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
}

/** The v1 inbox's import (app/store/v1.server.ts). */
export interface V1ImportStore {
  /** Whether a v1 file of this size and modification time (or, when given, content hash) was imported whole. */
  v1FileImported(file: { size: number; mtimeMs: number; sha256?: string }): Promise<boolean>;
  /** Remembers a v1 file the import read to the end. */
  rememberV1File(file: V1FileSeen, now?: Date): Promise<void>;
  /**
   * Imports v1 lines; each line is imported once, however often this runs, and never one from an erased address.
   * Resolves with the number newly added.
   */
  importV1(records: readonly V1Record[]): Promise<number>;
}
