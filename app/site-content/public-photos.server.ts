import type { Photo, PublicPhotos } from "~/wording/photo-types";
import { photos as built } from "~/wording/photos.generated";
import { placementKey, placements } from "~/site-content/photo-renditions.server";
import type { PhotoPlacement, SiteContent } from "~/site-content/schema.server";
import type { PhotoRendition } from "~/store/photos.types";
import type { PhotoStore } from "~/store/photos.types";

/**
 * What the public pages show of the content's photos: per place, the owner's photo once its rendition is
 * encoded; else the build's photo (photos/, a deployment's defaults); else null, the drawn art. A placed photo still
 * encoding shows the build's photo or the art until it is ready: nothing unencoded ever reaches a page.
 */

/** A ready rendition's entry: the encoded files (app/photos/encoder.server.ts), with the link-preview image for slides. */
export type RenditionEntry = Omit<Photo, "alt"> & { social?: { src: string; width: number; height: number } };

/** The entry of a ready rendition, or null (pending, failed, or an entry this code cannot read: the fallback shows). */
export function readyEntry(rendition: PhotoRendition | undefined): RenditionEntry | null {
  if (rendition?.state !== "ready" || !rendition.entry) return null;
  try {
    const entry = JSON.parse(rendition.entry) as RenditionEntry;
    const usable = [entry.avif, entry.webp, entry.jpeg].every((sources) => Array.isArray(sources) && sources.length);
    return usable && entry.width > 0 && entry.height > 0 && typeof entry.placeholder === "string" ? entry : null;
  } catch {
    return null;
  }
}

/** The photos to show, given the content and its renditions (those not ready may be left out). */
export function photosFrom(content: SiteContent, renditions: readonly PhotoRendition[]): PublicPhotos {
  const byKey = new Map(renditions.map((rendition) => [rendition.key, rendition]));
  const own = (shape: "slide" | "about", photo: PhotoPlacement | null) => {
    const entry = photo ? readyEntry(byKey.get(placementKey({ shape, photo }))) : null;
    return entry && photo ? { entry, alt: photo.alt } : null;
  };
  const shown = (placed: { entry: RenditionEntry; alt: string } | null, fallback: Photo | null): Photo | null => {
    if (!placed) return fallback;
    const { social: _social, ...photo } = placed.entry;
    return { ...photo, alt: placed.alt };
  };
  const slides = content.photos.slides.map((photo) => own("slide", photo));
  return {
    slides: slides.map((placed, index) => shown(placed, built.slides[index] ?? null)),
    about: shown(own("about", content.photos.about), built.about),
    captions: [...content.photos.captions],
    social: slides[0]?.entry.social ?? built.social,
  };
}

/** The content's photos as the pages show them now: one query for the renditions its placements need. */
export async function resolvePhotos(store: PhotoStore, content: SiteContent): Promise<PublicPhotos> {
  const keys = placements(content).map(placementKey);
  return photosFrom(content, keys.length > 0 ? await store.renditions(keys) : []);
}

/** Without a database (or before it is read): the build's photos and the content's captions. */
export const builtPhotos = (content: SiteContent): PublicPhotos => photosFrom(content, []);
