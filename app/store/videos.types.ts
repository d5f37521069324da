/**
 * The video clips' part of the store: the owner's uploads, their encoding by one instance at a time and the encoded
 * clips (app/store/videos.server.ts). A clip is up to 200 MB and the server runs in 256 MiB: no operation takes or
 * gives a whole file in memory. Bytes go in from a file on disk and out to one (or as chunks of 1 MiB), one chunk at
 * a time.
 */

/**
 * 'receiving' while the original's chunks are written (one left so by a crash is never encoded; saving the same
 * bytes again starts it over), 'pending' until encoded, then 'ready' or 'failed'.
 */
export type VideoState = "receiving" | "pending" | "ready" | "failed";

/** What the caller knows of an original when it saves it (its bytes come from a file). */
export interface NewVideo {
  /** The first 24 hex digits of the SHA-256 of the original's bytes: the same clip twice is one upload. */
  id: string;
  fileName: string;
  contentType: string;
  /** What a probe of the original found; null when it could not tell. */
  durationMs: number | null;
  width: number | null;
  height: number | null;
  uploadedBy: string;
}

/** The encoded clip of a ready upload. */
export interface EncodedClip {
  /** Its content-hashed file name (`<24 hex>.mp4`), served at a path that never changes content. */
  name: string;
  size: number;
  width: number;
  height: number;
  durationMs: number;
  /** The photo upload (photo_uploads) that holds its poster frame, encoded as any photo is; null: none. */
  posterUpload: string | null;
}

/** An uploaded clip as the owner's page lists it (its bytes stay in the database). */
export interface VideoUpload extends NewVideo {
  /** Of the original, as stored. */
  byteSize: number;
  uploadedAt: Date;
  state: VideoState;
  /** How far the encoding is, 0 to 100 ("Encoding video… 40 %"); 100 once ready. */
  progress: number;
  /** How many times it has been claimed (a process that died while encoding it counts too); 0 after a retry. */
  attempts: number;
  /** Why it failed, in the encoder's words. */
  error: string | null;
  /** Once ready. */
  clip: EncodedClip | null;
  readyAt: Date | null;
}

/** An upload this process holds a lease on until `claimUntil`, to encode it. */
export interface ClaimedVideo extends VideoUpload {
  claimToken: string;
  claimUntil: Date;
  /** The lease asked for at the claim: writing the clip renews it by as much with each chunk. */
  leaseMs: number;
}

/** A ready clip, for serving it (always MP4). */
export interface VideoClip {
  name: string;
  videoId: string;
  size: number;
  contentType: "video/mp4";
}

/** What the encoder made of a claimed upload: the clip in a file on disk, or why it could not. */
export type VideoOutcome =
  | {
      clipPath: string;
      clipName: string;
      width: number;
      height: number;
      durationMs: number;
      posterUpload: string | null;
    }
  | { error: string };

/** The owner's video clips (app/store/videos.server.ts). */
export interface VideoStore {
  /**
   * Stores the file at `originalPath` as the upload `video`, chunk by chunk, then makes it pending. False when an
   * upload of that id is already stored (the same bytes), or when another save of the same bytes took over meanwhile.
   */
  saveVideoUpload(video: NewVideo, originalPath: string, now?: Date): Promise<boolean>;
  /** Every upload, newest first (or those of `ids`), receiving ones included. */
  listVideos(ids?: readonly string[]): Promise<VideoUpload[]>;
  getVideo(id: string): Promise<VideoUpload | null>;
  /** Claims the oldest pending upload (or one whose lease ran out) for `leaseMs`, progress 0; null when none is due. */
  claimVideo(leaseMs: number, now?: Date): Promise<ClaimedVideo | null>;
  /** Writes the original's bytes to a new file at `path`; false when there is no such upload (or it is receiving). */
  copyOriginalToFile(video: ClaimedVideo | string, path: string): Promise<boolean>;
  /** Writes a ready clip's bytes to a new file at `path`; false when no ready upload has a clip of that name. */
  copyClipToFile(clipName: string, path: string): Promise<boolean>;
  /**
   * A ready clip's bytes from `start` up to and without `end` (a Range request; default: all of it), one chunk at a
   * time. Throws when there is no such ready clip, or it goes while being read.
   */
  clipBytes(clipName: string, range?: { start: number; end: number }): AsyncIterable<Uint8Array>;
  /** Sets the progress shown (0 to 100) and renews the lease for `leaseMs`; false when the claim was lost. */
  reportVideoProgress(claim: ClaimedVideo, percent: number, leaseMs: number, now?: Date): Promise<boolean>;
  /**
   * Stores the clip from its file and marks the upload ready, or marks it failed with the reason, and lets the claim
   * go. False when the claim was lost: then nothing of this outcome is kept as the upload's clip.
   */
  finishVideo(claim: ClaimedVideo, outcome: VideoOutcome, now?: Date): Promise<boolean>;
  /** Lets the claim go without an outcome: pending again, claimable from `retryAt` (after an unexpected error). */
  releaseVideo(claim: ClaimedVideo, retryAt: Date): Promise<boolean>;
  /** A failed upload pending again, attempts from zero (the owner's "Retry"); false when it is not failed. */
  retryVideo(id: string): Promise<boolean>;
  /** How many uploads wait to be encoded (the encoder's queue, every instance's uploads). */
  pendingVideoCount(): Promise<number>;
  /** How many are ready: what every instance polls to notice a clip became ready. */
  readyVideoCount(): Promise<number>;
  /** A ready clip by its file name; null when there is none. */
  videoClip(clipName: string): Promise<VideoClip | null>;
  /** Removes an upload, its original and its clip; false when there was none. */
  deleteVideo(id: string): Promise<boolean>;
}
