/**
 * What an uploaded video clip may be, for the upload's page, the checks (inspect.server.ts), the encoder
 * (encode.server.ts) and the words that refuse one (app/wording/video-encoding.ts). It imports nothing, so page code
 * can show the limits.
 */
export const videoLimits = {
  maxBytes: 200 * 1024 * 1024,
  maxDurationMs: 90_000,
  /**
   * "At most 4K", as one rule on the picture as shown (rotation applied): the longer side at most 4096 and the shorter
   * at most 2304. Every phone's 4K (3840 x 2160, either way up) and cinema 4K (4096 x 2160) pass; 5K and 8K do not.
   */
  maxLongSide: 4096,
  maxShortSide: 2304,
  /** The clip as served: at most this high, never upscaled. */
  outputMaxHeight: 720,
  /** What one clip's encoding (the clip and its poster) may take before ffmpeg is stopped. */
  encodeTimeoutMs: 15 * 60_000,
  /** The containers taken, by what their bytes say (file-type's MIME names). */
  types: ["video/mp4", "video/quicktime", "video/webm"],
} as const;

export type VideoContentType = (typeof videoLimits.types)[number];

/** Why a file is refused before encoding (inspect.server.ts's VideoRefused). */
export type VideoRefusal = "not-video" | "no-video-stream" | "too-long" | "too-large-frame" | "no-index" | "damaged";

/** Why an accepted clip's encoding failed (encode.server.ts's VideoEncodeFailed). */
export type VideoEncodeFailure = "timeout" | "damaged";
