import { defaultSiteContent, type SiteContent } from "~/site-content/schema.server";

/**
 * The published site content as a process holds it (server/site-content.ts keeps it current; each request takes the
 * one it started with as `context.site`). Apart from the loaders' helpers so that `npm run inbox`, which shares the
 * server's modules, loads nothing of Remix.
 */
/** The site's content as the process holds it. `known`: read from the database (or there is none to read). */
export interface SiteSnapshot {
  /** The published version's number (0: the defaults). */
  version: number;
  content: SiteContent;
  known: boolean;
}

export const defaultSnapshot: SiteSnapshot = { version: 0, content: defaultSiteContent, known: false };
