import type { PublicPhotos } from "~/wording/photo-types";
import { builtPhotos } from "~/site-content/public-photos.server";
import { noWork, type PublicWork } from "~/site-content/public-work.server";
import { defaultSiteContent, type SiteContent } from "~/site-content/schema.server";

/**
 * The published site content as a process holds it (server/site-content-poll.ts keeps it current; each request takes the
 * one it started with as `context.site`). Apart from the loaders' helpers so that `npm run inbox`, which shares the
 * server's modules, loads nothing of Remix.
 */
/** The site's content as the process holds it. `known`: read from the database (or there is none to read). */
export interface SiteSnapshot {
  /** The published version's number (0: the defaults). */
  version: number;
  content: SiteContent;
  /** Its photos as the pages show them: the owner's once encoded, else the build's, else the drawn art. */
  photos: PublicPhotos;
  /** Its projects as the Work pages show them: the encoded photos and clips only. */
  work: PublicWork;
  known: boolean;
  /**
   * Changes whenever anything the pages show does (a publish, a photo encoded after it): the page cache's stamp. Only
   * this process's count, never compared across instances.
   */
  generation: number;
}

export const defaultSnapshot: SiteSnapshot = {
  version: 0,
  content: defaultSiteContent,
  photos: builtPhotos(defaultSiteContent),
  work: noWork,
  known: false,
  generation: 0,
};
