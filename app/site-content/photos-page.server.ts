import { photosEditorCopy } from "~/wording/photos-editor";
import { absoluteTime } from "~/text/time";
import { photoAt, placedUploads, sitePlaces, type SitePlace } from "~/site-content/photo-edits";
import { placementKey } from "~/site-content/photo-renditions.server";
import type { SiteContent } from "~/site-content/schema.server";
import type { PhotoRendition, PhotoUpload } from "~/store/photos.types";
import type { PhotoStore } from "~/store/photos.types";

/**
 * What the Photos page shows: each place with the photo the draft puts there and how far its encoding got
 * (a thumbnail once ready), the uploads no place shows, and whether anything is still encoding (the page then
 * refreshes itself).
 */

export interface PhotoStatus {
  /** "ready" with a thumbnail, "encoding" (waiting or under way), or "failed" with the reason. */
  state: "ready" | "encoding" | "failed";
  line: string;
  thumbnail: string | null;
}

export interface ShownUpload {
  id: string;
  alt: string;
  /** "IMG_2041.jpg, uploaded 24 Nov 2026, 14:02 by ann@example.com" */
  about: string;
  size: string;
}

export interface ShownPlace {
  place: SitePlace;
  label: string;
  photo: (ShownUpload & { alt: string; focus: { x: number; y: number }; status: PhotoStatus }) | null;
}

/** The smallest JPEG of a ready rendition's entry (the encoder's Photo), for the page's thumbnail. */
function thumbnailOf(entry: string | null): string | null {
  try {
    const parsed = JSON.parse(entry ?? "null") as { jpeg?: { width: number; src: string }[] } | null;
    const smallest = [...(parsed?.jpeg ?? [])].sort((a, b) => a.width - b.width)[0];
    return typeof smallest?.src === "string" && smallest.src.startsWith("/") ? smallest.src : null;
  } catch {
    return null;
  }
}

export function statusOf(rendition: PhotoRendition | undefined): PhotoStatus {
  const words = photosEditorCopy.state;
  if (rendition?.state === "ready")
    return { state: "ready", line: words.ready, thumbnail: thumbnailOf(rendition.entry) };
  if (rendition?.state === "failed")
    return { state: "failed", line: words.failed(rendition.error ?? ""), thumbnail: null };
  if (rendition && rendition.total > 0)
    return { state: "encoding", line: words.encoding(rendition.done, rendition.total), thumbnail: null };
  return { state: "encoding", line: words.waiting, thumbnail: null };
}

const sizeOf = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

const shownUpload = (upload: PhotoUpload): ShownUpload => ({
  id: upload.id,
  alt: upload.alt,
  about: photosEditorCopy.placed.uploaded(upload.fileName, absoluteTime(upload.uploadedAt), upload.uploadedBy),
  size: `${upload.width} × ${upload.height}, ${sizeOf(upload.byteSize)}`,
});

export async function photosPage(store: PhotoStore, content: SiteContent) {
  const uploads = new Map((await store.listUploads()).map((upload) => [upload.id, upload]));
  const placed = sitePlaces.flatMap((place) => {
    const photo = photoAt(content, place);
    return photo ? [{ place, photo, key: placementKey({ shape: place === "about" ? "about" : "slide", photo }) }] : [];
  });
  const renditions = new Map((await store.renditions(placed.map((p) => p.key))).map((r) => [r.key, r]));
  const places: ShownPlace[] = sitePlaces.map((place) => {
    const label = photosEditorCopy.places[place];
    const found = placed.find((p) => p.place === place);
    if (!found) return { place, label, photo: null };
    const upload = uploads.get(found.photo.upload);
    const shown: ShownUpload = upload
      ? shownUpload(upload)
      : { id: found.photo.upload, alt: found.photo.alt, about: photosEditorCopy.placed.missing, size: "" };
    return {
      place,
      label,
      photo: {
        ...shown,
        alt: found.photo.alt,
        focus: found.photo.focus,
        status: statusOf(renditions.get(found.key)),
      },
    };
  });
  const inPlaces = placedUploads(content);
  const unplaced = [...uploads.values()].filter((upload) => !inPlaces.has(upload.id)).map(shownUpload);
  const encoding = places.some((place) => place.photo?.status.state === "encoding");
  return { places, unplaced, encoding };
}
