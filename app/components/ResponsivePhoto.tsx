import type { Photo, PhotoSource } from "~/wording/photo-types";

const srcSet = (sources: PhotoSource[]) => sources.map(({ src, width }) => `${src} ${width}w`).join(", ");

/**
 * One of the owner's photos (scripts/photos.mjs): AVIF, then WebP, then JPEG, each at every encoded width, chosen by
 * the browser from `sizes` (the box's width in the page's layout). Its blurred 16-px placeholder sits underneath as a
 * data: image (the CSP allows img-src data:, no inline style needed) and shows until the photo has loaded, with or
 * without JavaScript. The box keeps the photo's aspect ratio, so nothing moves when it arrives.
 */
export function ResponsivePhoto({
  photo,
  sizes,
  priority = "auto",
  lazy = false,
  className = "",
}: {
  photo: Photo;
  /** The `sizes` attribute: how wide the photo is shown at each viewport width. */
  sizes: string;
  /** "high" for the page's largest image (its LCP): fetched first. */
  priority?: "high" | "low" | "auto";
  lazy?: boolean;
  className?: string;
}) {
  // The JPEG fallback's src: a middle size for the few browsers without srcset.
  const fallback = photo.jpeg.find((source) => source.width >= 720) ?? photo.jpeg.at(-1)!;
  return (
    <div className={`relative overflow-hidden bg-night-900 ${className}`}>
      <img
        src={photo.placeholder}
        alt=""
        width={photo.width}
        height={photo.height}
        className="absolute inset-0 h-full w-full scale-110 object-cover blur-xl"
        data-photo-placeholder=""
      />
      <picture>
        <source type="image/avif" srcSet={srcSet(photo.avif)} sizes={sizes} />
        <source type="image/webp" srcSet={srcSet(photo.webp)} sizes={sizes} />
        <img
          src={fallback.src}
          srcSet={srcSet(photo.jpeg)}
          sizes={sizes}
          alt={photo.alt}
          width={photo.width}
          height={photo.height}
          loading={lazy ? "lazy" : "eager"}
          // React 18 warns on the camelCase prop; the lowercase HTML attribute passes through as it is.
          {...{ fetchpriority: priority }}
          // AVIF takes real work to decode: off the main thread, so the first paint does not wait for it.
          decoding="async"
          draggable={false}
          className="relative block h-full w-full object-cover"
        />
      </picture>
    </div>
  );
}
