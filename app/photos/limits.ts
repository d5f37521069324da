/**
 * What an uploaded photo may be (issue 25), for the upload's parser, the encoder and the words that refuse one: real
 * image types only (checked by their bytes), at most 25 MB and 50 megapixels (sharp's input pixel limit: far above
 * any camera's 12-48, far below what a decompression bomb declares).
 */
export const photoLimits = {
  maxBytes: 25 * 1024 * 1024,
  maxPixels: 50_000_000,
  /** The types a browser can show once encoded, by what their bytes say (file-type's MIME names). */
  types: ["image/jpeg", "image/png", "image/webp", "image/avif"],
} as const;

/** The places a photo can go on the site, as the Photos page names them ("Place"). */
export const photoPlaces = ["slide-1", "slide-2", "slide-3", "about", "none"] as const;
export type PhotoPlace = (typeof photoPlaces)[number];
