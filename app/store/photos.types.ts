/**
 * The photos' part of the store: uploads, their renditions and the encoded files (app/store/photos.server.ts).
 */

/**
 * The crops a photo is encoded for: a carousel slide (16:9), the About photo (3:2), a project's photo (4:3), or a
 * video's poster frame (the clip's own shape).
 */
export type PhotoShape = "slide" | "about" | "work" | "poster";

/** An uploaded photo as the owner's Photos page lists it (its bytes stay in the database). */
export interface PhotoUpload {
  id: string;
  contentType: string;
  width: number;
  height: number;
  byteSize: number;
  fileName: string;
  /** The alt text typed with the upload: the words it is placed with when none are given. */
  alt: string;
  uploadedAt: Date;
  uploadedBy: string;
}

export type RenditionState = "pending" | "ready" | "failed";

/** One upload encoded for one shape around one focal point: its files, once ready, and how far it got. */
export interface PhotoRendition {
  key: string;
  uploadId: string;
  shape: PhotoShape;
  focus: { x: number; y: number };
  state: RenditionState;
  /** Files written so far and in all ("encoding 2 of 3 sizes"). */
  done: number;
  total: number;
  /** JSON of the encoded entry (app/photos/encoder.server.ts), once ready. */
  entry: string | null;
  error: string | null;
}

/** A rendition this process holds a lease on until `claimUntil`, with the upload's bytes to encode. */
export interface ClaimedRendition extends PhotoRendition {
  claimToken: string;
  claimUntil: Date;
  /** How many times it has been claimed, this claim included (a process that died while encoding it counts too). */
  attempts: number;
  original: Uint8Array;
}

/** An encoded file, served at /photos/NAME (immutable: the name holds its content's hash). */
export interface PhotoFile {
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

/** The owner's photos (app/store/photos.server.ts). */
export interface PhotoStore {
  /** Keeps an upload's bytes under its id (the same bytes twice are one upload); true when it was new. */
  saveUpload(
    upload: Omit<PhotoUpload, "uploadedAt" | "alt"> & { alt?: string; original: Uint8Array },
    now?: Date,
  ): Promise<boolean>;
  listUploads(): Promise<PhotoUpload[]>;
  getUpload(id: string): Promise<PhotoUpload | null>;
  /** Asks for a rendition (pending) unless it exists; resolves with it as it now is. */
  requestRendition(
    key: string,
    uploadId: string,
    shape: PhotoShape,
    focus: { x: number; y: number },
    now?: Date,
  ): Promise<PhotoRendition>;
  renditions(keys: readonly string[]): Promise<PhotoRendition[]>;
  /** How many renditions are ready: with the newest version's number, what every instance polls. */
  readyRenditionCount(): Promise<number>;
  /** How many renditions wait to be encoded (the encoder's queue, every instance's uploads). */
  pendingRenditionCount(): Promise<number>;
  /** Claims the oldest pending rendition (or one whose lease ran out) for `leaseMs`; null when none is due. */
  claimRendition(leaseMs: number, now?: Date): Promise<ClaimedRendition | null>;
  /**
   * Stores one encoded file and counts it done, and renews the lease for `leaseMs` from now when given (the claim's
   * holder only; false when the claim was lost).
   */
  addRenditionFile(
    claim: ClaimedRendition,
    file: PhotoFile,
    total: number,
    leaseMs?: number,
    now?: Date,
  ): Promise<boolean>;
  /** Lets the claim go without an outcome: pending again, claimable from `retryAt` (after an unexpected error). */
  releaseRendition(claim: ClaimedRendition, retryAt: Date): Promise<boolean>;
  /** Marks it ready with its entry (JSON), or failed with the reason, and lets the claim go. */
  finishRendition(claim: ClaimedRendition, result: { entry: string } | { error: string }, now?: Date): Promise<boolean>;
  photoFile(name: string): Promise<PhotoFile | null>;
}
