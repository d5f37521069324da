import type { BuildUpdate } from "~/store/build-pages.types";
import type { PhotoStore } from "~/store/photos.types";
import type { RenditionEntry } from "~/photos/encoder.server";
import type { Photo } from "~/wording/photo-types";

/**
 * A build update's photos as a page shows them: each one's encoded files once its rendition is ready (the sources
 * moved under the build page's own address, `srcPrefix`), or the state it is in (still being encoded, or failed).
 */

export type BuildPhotoView = { state: "ready"; photo: Omit<Photo, "alt"> } | { state: "pending" | "failed" };

export interface BuildUpdateView {
  id: string;
  at: string;
  body: string;
  emailed: boolean;
  photos: BuildPhotoView[];
}

const fileName = (src: string) => src.slice(src.lastIndexOf("/") + 1);

export async function buildUpdateViews(
  store: PhotoStore,
  updates: readonly BuildUpdate[],
  srcPrefix: string,
): Promise<BuildUpdateView[]> {
  const keys = [...new Set(updates.flatMap((update) => update.photos.map((photo) => photo.key)))];
  const renditions = new Map((keys.length ? await store.renditions(keys) : []).map((r) => [r.key, r]));
  const moved = (sources: { width: number; src: string }[]) =>
    sources.map(({ width, src }) => ({ width, src: `${srcPrefix}${fileName(src)}` }));
  return updates.map((update) => ({
    id: update.id,
    at: update.at.toISOString(),
    body: update.body,
    emailed: update.emailed,
    photos: update.photos.map((photo): BuildPhotoView => {
      const rendition = renditions.get(photo.key);
      if (!rendition || rendition.state === "pending" || !rendition.entry)
        return { state: rendition?.state === "failed" ? "failed" : "pending" };
      if (rendition.state === "failed") return { state: "failed" };
      const entry = JSON.parse(rendition.entry) as RenditionEntry;
      return {
        state: "ready",
        photo: {
          width: entry.width,
          height: entry.height,
          avif: moved(entry.avif),
          webp: moved(entry.webp),
          jpeg: moved(entry.jpeg),
          placeholder: entry.placeholder,
        },
      };
    }),
  }));
}
