/**
 * Why an uploaded photo could not be made ready for the site, as the owner's Photos page shows it beside
 * the photo: kept with the rendition that failed (server/photo-encoder-loop.ts).
 */
export const photoEncodingWords = {
  notImage: "This file is not a JPEG, PNG, WebP or AVIF photo. Save it as JPEG and upload it again.",
  tooLarge: (width: number, height: number) =>
    `This photo is ${width} x ${height} pixels (${Math.round((width * height) / 1e6)} megapixels); the site takes at most 50 megapixels. Save a smaller copy (6000 px wide is plenty) and upload it again.`,
  tooCostly: (bytes: number, maxBytes: number) =>
    `This picture can only be opened whole, which would take ${Math.round(bytes / 1048576)} MB of memory; the site allows ${Math.round(maxBytes / 1048576)} MB for one photo. Save it as a standard JPEG, or a smaller picture, and upload it again.`,
  damaged:
    "This photo is cut short or damaged, so it cannot be shown. Copy it again from the phone or camera and upload it again.",
  failed: (detail: string) =>
    `This photo could not be made ready for the site (${detail}), after 3 tries. Save it as JPEG and upload it again.`,
  interrupted:
    "Making this photo ready for the site was interrupted 3 times (the server stopped or ran out of memory). Save a smaller copy and upload it again.",
};
