import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { emptyAsUnset } from "~/config/env.server";

/** The photo and video encoders' lease (PHOTO_LEASE_MS) and where each instance caches the clips it serves. */
export const photosEnv = z.object({
  PHOTO_LEASE_MS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1_000).max(3_600_000).default(60_000)),
  MEDIA_CACHE_DIR: z.preprocess(emptyAsUnset, z.string().trim().min(1).optional()),
});

export interface PhotosConfig {
  /**
   * How long an instance holds a photo it is encoding without writing a file (renewed with each file), or a clip
   * without reporting progress: after it, an instance that died while encoding is taken over. Unset (as in tests
   * built by hand) means the default.
   */
  photoLeaseMs?: number;
  /** The Work pages' clips as this instance serves them (filled from the database; safe to clear). */
  mediaCacheDir?: string;
}

export const photosConfig = (env: z.infer<typeof photosEnv>): PhotosConfig => ({
  photoLeaseMs: env.PHOTO_LEASE_MS,
  mediaCacheDir: env.MEDIA_CACHE_DIR ?? join(tmpdir(), "haunt-media-cache"),
});
