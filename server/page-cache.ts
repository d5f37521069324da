import type { IncomingMessage, ServerResponse } from "node:http";
import { pageKey, type PageCache } from "~/pages/page-cache.server";
import { sendPage } from "~/pages/page.server";

/** The page cache's Express side, before Remix's handler: answers from the cache, or passes the request on. */
export function pageCacheMiddleware(cache: PageCache) {
  return (request: IncomingMessage, response: ServerResponse, next: () => void) => {
    if (request.method !== "GET" && request.method !== "HEAD") return next();
    const key = pageKey(request.url ?? "/");
    const page = key === undefined ? undefined : cache.get(key);
    if (!page) return next();
    sendPage(page, request, response);
  };
}
