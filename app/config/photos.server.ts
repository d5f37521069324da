import { z } from "zod";
import { emptyAsUnset } from "~/config/env.server";

/** The photo encoder's lease (PHOTO_LEASE_MS). */
export const photosEnv = z.object({
  PHOTO_LEASE_MS: z.preprocess(emptyAsUnset, z.coerce.number().int().min(1_000).max(3_600_000).default(60_000)),
});

export interface PhotosConfig {
  /**
   * How long an instance holds a photo it is encoding without writing a file (renewed with each file): after it, an
   * instance that died while encoding is taken over. Unset (as in tests built by hand) means the default.
   */
  photoLeaseMs?: number;
}

export const photosConfig = (env: z.infer<typeof photosEnv>): PhotosConfig => ({ photoLeaseMs: env.PHOTO_LEASE_MS });
