import type { PhotoPlace } from "~/photos/limits";
import type { PhotoPlacement, SiteContent } from "~/site-content/schema.server";

/**
 * The Photos page's edits to the draft, each a new content: a photo put in a place (whatever was there is
 * no longer shown, its upload stays), moved (swapping with the photo at its new place), taken off (the drawn art comes
 * back), the captions changed. The server validates the result with the one schema before saving it.
 */

export type SitePlace = Exclude<PhotoPlace, "none">;
export const sitePlaces: readonly SitePlace[] = ["slide-1", "slide-2", "slide-3", "about"];

const slideIndex = (place: SitePlace) => (place === "about" ? -1 : Number(place.slice(-1)) - 1);

export function photoAt(content: SiteContent, place: SitePlace): PhotoPlacement | null {
  const index = slideIndex(place);
  return index < 0 ? content.photos.about : (content.photos.slides[index] ?? null);
}

export function withPhotoAt(content: SiteContent, place: SitePlace, photo: PhotoPlacement | null): SiteContent {
  const index = slideIndex(place);
  const slides = [...content.photos.slides] as SiteContent["photos"]["slides"];
  if (index >= 0) slides[index] = photo;
  return {
    ...content,
    photos: { ...content.photos, slides, about: index < 0 ? photo : content.photos.about },
  };
}

/**
 * A photo saved from `from` (a place, or "none" for an upload not shown) to `to`: moved between places it swaps with
 * what is there; "none" takes it off its place.
 */
export function placePhoto(content: SiteContent, from: PhotoPlace, to: PhotoPlace, photo: PhotoPlacement): SiteContent {
  if (to === "none") return from === "none" ? content : withPhotoAt(content, from, null);
  if (from === "none" || from === to) return withPhotoAt(content, to, photo);
  const there = photoAt(content, to);
  return withPhotoAt(withPhotoAt(content, from, there), to, photo);
}

export function withCaptions(content: SiteContent, captions: [string, string, string]): SiteContent {
  return { ...content, photos: { ...content.photos, captions } };
}

/** The ids of the uploads the content places anywhere. */
export function placedUploads(content: SiteContent): Set<string> {
  return new Set(
    sitePlaces.flatMap((place) => {
      const photo = photoAt(content, place);
      return photo ? [photo.upload] : [];
    }),
  );
}

/** A focus percentage as typed ("50", "33.5") to the content's 0..1, or null when it is not one from 0 to 100. */
export function focusFrom(typed: string): number | null {
  const text = typed.trim();
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(text)) return null;
  const value = Number(text);
  return value >= 0 && value <= 100 ? value / 100 : null;
}

/** The content's 0..1 as the page shows it ("50"). */
export const focusShown = (value: number) => String(Math.round(value * 1000) / 10);
