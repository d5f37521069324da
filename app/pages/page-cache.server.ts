import { LRUCache } from "lru-cache";
import { isSafeMethod, pageCacheControl } from "~/pages/headers.server";
import type { Page } from "~/pages/page.server";

/**
 * Finished pages kept in memory, so a repeated request is answered without Remix, React or compression.
 *
 * Pages change with a deploy (a new process), a publish of the site's content, the order window closing by itself
 * and the footer's year. What is kept: answers to GET or HEAD with status 200 and the shareable Cache-Control, for a
 * path without a query string. So nothing that carries a visitor's data is kept (posts, the thank-you page, failed
 * posts are no-store or not GET), and a query string (a preview) or an unknown path (404) cannot fill the cache.
 * Bounded in entries and bytes, least recently used goes first. An entry is stamped with the generation of the site
 * content it shows and is not given out once the process holds another (`siteGeneration`: a publish, or a published
 * photo encoded since); it lapses when the order window changes by itself (`until`) and at the next 1 January, when
 * the footer shows a new year.
 */
export class PageCache {
  private readonly entries: LRUCache<string, { page: Page; expires: number; generation: number }>;

  constructor(
    limits = { maxEntries: 100, maxBytes: 4 * 1024 * 1024 },
    private readonly now = () => Date.now(),
    /** The generation of the site content the process serves now (server/site-content-poll.ts). */
    private readonly siteGeneration = () => 0,
  ) {
    this.entries = new LRUCache({
      max: limits.maxEntries,
      maxSize: limits.maxBytes,
      maxEntrySize: limits.maxBytes / 8,
      // Every encoding it holds (encodeForKeeping runs before set).
      sizeCalculation: ({ page }) => Math.max(1, page.byteLength),
    });
  }

  get size() {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  get(key: string): Page | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() >= entry.expires || entry.generation !== this.siteGeneration()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.page;
  }

  /** Keeps the page, encoded in every form; one too large to keep is left out. */
  set(
    key: string,
    page: Page,
    { generation = 0, until = Infinity }: { generation?: number; until?: number | null } = {},
  ): void {
    if (generation !== this.siteGeneration()) return; // rendered from content the process no longer serves
    page.encodeForKeeping();
    const year = new Date(this.now()).getFullYear();
    const expires = Math.min(new Date(year + 1, 0, 1).getTime(), until ?? Infinity);
    this.entries.set(key, { page, expires, generation });
  }
}

/** The key for a request target (`/about`, `/contact?sent=1`): its path, or undefined when it has a query string. */
export function pageKey(target: string): string | undefined {
  if (!target.startsWith("/")) return undefined;
  // Parsed as Remix parses it (origin + target), so both sides agree on the path.
  const url = URL.parse(`http://site${target}`);
  return url && url.search === "" ? url.pathname : undefined;
}

/** The owner's inbox (/inbox and below): never kept, whatever headers a page there might carry. */
export const isPrivatePath = (pathname: string) => /^\/inbox(?:\/|$)/i.test(pathname);

/** Whether a finished page may be kept and given to anyone who asks for the same path. */
export function isKeepable(request: { method: string; url: string }, page: Page): boolean {
  return (
    isSafeMethod(request.method) &&
    !isPrivatePath(new URL(request.url, "http://site").pathname) &&
    page.status === 200 &&
    page.headers["cache-control"] === pageCacheControl &&
    !("set-cookie" in page.headers)
  );
}

/** Which content a page shows: its generation, whether it was read from the database, when the order window changes. */
export interface PageContent {
  generation: number;
  known: boolean;
  changesAt: number | null;
}

/** Keeps a page Remix just rendered, if it may be kept (never one of content not read from the database yet). */
export function keepPage(
  cache: PageCache,
  request: Request,
  page: Page,
  content: PageContent = { generation: 0, known: true, changesAt: null },
): void {
  if (!isKeepable(request, page) || !content.known) return;
  const url = new URL(request.url);
  const key = pageKey(url.pathname + url.search);
  if (key !== undefined) cache.set(key, page, { generation: content.generation, until: content.changesAt });
}
