import { createHash } from "node:crypto";
import type { PhotoPlacement, SiteContent } from "~/site-content/schema.server";
import type { PhotoShape } from "~/store/photos.types";
import type { PhotoStore } from "~/store/photos.types";

/**
 * Which encoded files a placement needs: one rendition per upload, shape and focal point, found by a key made of
 * those (and the encoder's version, so a new encoder makes new files). Asked for whenever content that places a
 * photo is saved or published; the background encoder (server/photo-encoder-loop.ts) makes each once, on any instance.
 */

/** Bump when the encoder's output changes: every placed photo is encoded again under new names. */
export const encoderVersion = 3;

export function renditionKey(uploadId: string, shape: PhotoShape, focus: { x: number; y: number }): string {
  const text = `${uploadId}:${shape}:${focus.x.toFixed(3)}:${focus.y.toFixed(3)}:${encoderVersion}`;
  return createHash("sha256").update(text).digest("hex").slice(0, 24);
}

/**
 * Every photo the content places, with the shape its place crops to (slides first, in order, then About, then each
 * project's photos in the projects' order).
 */
export function placements(content: SiteContent): { place: string; shape: PhotoShape; photo: PhotoPlacement }[] {
  const slides = content.photos.slides.flatMap((photo, index) =>
    photo ? [{ place: `slide-${index + 1}`, shape: "slide" as const, photo }] : [],
  );
  const about = content.photos.about ? [{ place: "about", shape: "about" as const, photo: content.photos.about }] : [];
  const work = content.projects.flatMap((project) =>
    project.photos.map((photo, index) => ({
      place: `project-${project.id}-${index + 1}`,
      shape: "work" as const,
      photo,
    })),
  );
  return [...slides, ...about, ...work];
}

/** A video's poster frame (a photo upload the video encoder made): its rendition's key, around the frame's centre. */
export const posterKey = (posterUpload: string) => renditionKey(posterUpload, "poster", { x: 0.5, y: 0.5 });

export const placementKey = ({ shape, photo }: { shape: PhotoShape; photo: PhotoPlacement }) =>
  renditionKey(photo.upload, shape, photo.focus);

/** Asks for the rendition of every photo the content places (pending until encoded; nothing for those that exist). */
export async function ensureRenditions(store: PhotoStore, content: SiteContent): Promise<void> {
  for (const placed of placements(content)) {
    if (await store.getUpload(placed.photo.upload)) {
      await store.requestRendition(placementKey(placed), placed.photo.upload, placed.shape, placed.photo.focus);
    }
  }
}
