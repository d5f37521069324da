import type { RequestHandler } from "express";
import { LRUCache } from "lru-cache";
import { uploadFileNamePattern } from "~/photos/encoder.server";
import { StoreUnavailableError } from "~/store/sql.server";
import type { PhotoFile } from "~/store/photos.types";
import type { PhotoStore } from "~/store/photos.types";
import { log } from "~/log.server";

/**
 * /photos/NAME for the owner's uploaded photos (docs/photos.md): the encoded files from the database (photo_files), so
 * every instance serves what any of them encoded. Each name holds a hash of its bytes, so a file never changes: kept
 * a year by browsers and CDNs (immutable), with its name as ETag. The build's own photos (public/photos) are answered
 * before this, by the static files. A name that cannot be an upload's is a 404 without asking the database; recent
 * files are kept in a small memory cache so a burst of visitors does not become a burst of database reads.
 */

/** The memory cache: at most 4 MiB in all (a slide's 720-px AVIF, WebP and JPEG are about 100-250 KiB together). */
const cacheBytes = 4 * 1024 * 1024;
const largestCachedBytes = 1024 * 1024;

/** `inbox` is undefined with API_HOST (no database, so no uploads). */
export function photoFiles(inbox: (() => PhotoStore) | undefined): RequestHandler {
  const cache = new LRUCache<string, PhotoFile>({
    maxSize: cacheBytes,
    maxEntrySize: largestCachedBytes,
    sizeCalculation: (file) => Math.max(1, file.bytes.byteLength),
  });
  type Response = Parameters<RequestHandler>[1];
  const notFound = (res: Response) =>
    res.status(404).set("Cache-Control", "no-store").type("text/plain").send("Not found");
  const unavailable = (res: Response) =>
    res.status(503).set({ "Retry-After": "5", "Cache-Control": "no-store" }).type("text/plain").send("Try again later");

  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = req.path.slice(1);
    if (!inbox || !uploadFileNamePattern.test(name)) return notFound(res);
    const etag = `"${name}"`;
    const send = (file: PhotoFile) => {
      res.set({
        "Cache-Control": "public, max-age=31536000, immutable",
        "Content-Type": file.contentType,
        ETag: etag,
      });
      const asked = req.get("If-None-Match");
      if (asked && asked.split(",").some((tag) => [etag, `W/${etag}`, "*"].includes(tag.trim())))
        return res.status(304).end();
      res.set("Content-Length", String(file.bytes.byteLength));
      res
        .status(200)
        .end(
          req.method === "HEAD"
            ? undefined
            : Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
        );
    };
    const cached = cache.get(name);
    if (cached) return send(cached);
    let store: PhotoStore;
    try {
      store = inbox();
    } catch (error) {
      if (error instanceof StoreUnavailableError) return unavailable(res);
      throw error;
    }
    store.photoFile(name).then(
      (file) => {
        if (!file) return notFound(res);
        cache.set(name, file);
        send(file);
      },
      (error: unknown) => {
        log.error(`photos: cannot read ${name}: ${(error as Error).message}`);
        unavailable(res);
      },
    );
  };
}
