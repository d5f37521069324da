import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { RequestHandler } from "express";
import { StoreUnavailableError } from "~/store/sql.server";
import type { VideoStore } from "~/store/videos.types";
import { log } from "~/log.server";

/**
 * /media/NAME.mp4 for the Work pages' clips (docs/work.md, ADR 0040): each instance keeps a file cache on its own disk
 * (MEDIA_CACHE_DIR, default the system's temporary directory), filled from the database the first time a clip is
 * asked for, then served from the file by Express (byte ranges with 206 and Accept-Ranges, so a browser seeks and a
 * phone plays at once). The name is the hash of the clip's bytes: immutable for a year, its name as ETag. A name that
 * cannot be a clip is a 404 without asking the database; two requests for a clip not yet cached fill it once.
 */

const clipNamePattern = /^[0-9a-f]{24}\.mp4$/;

/** `inbox` is undefined with API_HOST (no database, so no clips). */
export function mediaFiles(inbox: (() => VideoStore) | undefined, cacheDir: string): RequestHandler {
  const filling = new Map<string, Promise<boolean>>();
  type Response = Parameters<RequestHandler>[1];
  const notFound = (res: Response) =>
    res.status(404).set("Cache-Control", "no-store").type("text/plain").send("Not found");
  const unavailable = (res: Response) =>
    res.status(503).set({ "Retry-After": "5", "Cache-Control": "no-store" }).type("text/plain").send("Try again later");

  /** The clip in the cache: copied from the database into a temporary name, then renamed (never half a file). */
  async function fill(store: VideoStore, name: string, path: string): Promise<boolean> {
    await mkdir(cacheDir, { recursive: true });
    const partial = `${path}.${randomUUID()}.part`;
    try {
      if (!(await store.copyClipToFile(name, partial))) return false;
      await rename(partial, path);
      return true;
    } finally {
      await rm(partial, { force: true }).catch(() => {});
    }
  }

  const cached = (path: string) =>
    stat(path).then(
      (found) => found.isFile(),
      () => false,
    );

  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = req.path.slice(1);
    if (!inbox || !clipNamePattern.test(name)) return notFound(res);
    const path = join(cacheDir, name);
    const etag = `"${name}"`;
    const asked = req.get("If-None-Match");
    // The name is the content's hash: a browser that has it has these bytes, cached or not on this instance.
    if (asked && asked.split(",").some((tag) => [etag, `W/${etag}`, "*"].includes(tag.trim())))
      return res.status(304).set({ "Cache-Control": "public, max-age=31536000, immutable", ETag: etag }).end();
    const send = () =>
      res.sendFile(
        path,
        {
          headers: { "Cache-Control": "public, max-age=31536000, immutable", ETag: etag },
          // Express's own ETag (size and time) would differ between instances; the name is the same everywhere.
          etag: false,
          lastModified: false,
          acceptRanges: true,
        },
        (error) => {
          if (error && !res.headersSent) unavailable(res);
        },
      );
    void (async () => {
      if (await cached(path)) return send();
      let store: VideoStore;
      try {
        store = inbox();
      } catch (error) {
        if (error instanceof StoreUnavailableError) return unavailable(res);
        throw error;
      }
      let filled = filling.get(name);
      if (!filled) {
        filled = fill(store, name, path).finally(() => filling.delete(name));
        filling.set(name, filled);
      }
      if (await filled) return send();
      return notFound(res);
    })().catch((error: unknown) => {
      log.error(`media: cannot serve ${name}: ${(error as Error).message}`);
      if (!res.headersSent) unavailable(res);
    });
  };
}
