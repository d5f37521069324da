/** The shape of app/wording/photos.generated.ts, which scripts/photos.mjs writes from the owner's photos/ folder. */

/** One encoded size of a photo; `src` is under /build/ (content-hashed, cached for a year). */
export interface PhotoSource {
  width: number;
  src: string;
}

export interface Photo {
  alt: string;
  /** Size of the largest encoded width: with `height`, the aspect ratio that reserves the photo's box. */
  width: number;
  height: number;
  avif: PhotoSource[];
  webp: PhotoSource[];
  jpeg: PhotoSource[];
  /** A 16-px wide WebP as a data: URI, shown blurred until the photo has loaded. */
  placeholder: string;
}

export interface PhotoManifest {
  /** One entry per carousel slide, in the slides' order; null where the slide shows its drawn art. */
  slides: (Photo | null)[];
  about: Photo | null;
  /** The 1200 x 630 link-preview image (Open Graph, Twitter), from the first photo or the first slide's art. */
  social: { src: string; width: number; height: number };
}

/**
 * The photos the public pages show: per place, the owner's published photo once encoded, else the build's
 * (photos/), else null (the drawn art); the captions are the owner's; the link-preview image from the first slide.
 */
export interface PublicPhotos extends PhotoManifest {
  captions: string[];
}
