import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import type { ReactElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { finishDocument } from "~/pages/document.server";
import { applyHardeningHeaders, isSafeMethod, noStore } from "~/pages/headers.server";
import { keepPage } from "~/pages/page-cache.server";
import { pageResponse } from "~/pages/page.server";
import { orderWindow } from "~/site-content/order-window";
import { log } from "~/log.server";

const dev = process.env.NODE_ENV === "development";
// Remix reads this export: single fetch stops streaming loader data after it.
export const streamTimeout = 5_000;

/**
 * Every document is rendered whole to one string, then finished in one place (finishDocument: valid HTML, deferred
 * hydration, CSP hashes of the final bytes, compressed bodies and ETags) and kept when anyone may share it.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const { html, status } = await renderDocument(
    <RemixServer context={remixContext} url={request.url} />,
    responseStatusCode,
  );
  const page = finishDocument(html, { status, headers: responseHeaders, method: request.method, dev });
  const cache = loadContext.pageCache;
  if (cache) {
    const { site, services } = loadContext;
    const { changesAt } = orderWindow(site.content.season, new Date(), services.config.timeZone);
    keepPage(cache, request, page, { generation: site.generation, known: site.known, changesAt });
  }
  return pageResponse(page, request);
}

/**
 * Renders the whole document (onAllReady) into one string. No route defers data, so streaming the shell first would
 * only split the page; a route that starts deferring slow data should stream again (as the Remix template does).
 */
function renderDocument(element: ReactElement, initialStatus: number): Promise<{ html: string; status: number }> {
  return new Promise((resolve, reject) => {
    let status = initialStatus;
    let shellRendered = false;
    const chunks: Uint8Array[] = [];
    const sink = new Writable({
      write(chunk: Uint8Array, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(abortTimer);
        resolve({ html: Buffer.concat(chunks).toString("utf8"), status });
        callback();
      },
    });
    // The render is abandoned if it has not finished by then. Cleared when it ends: left pending, the timer kept every
    // finished render (React's request, the Remix context) reachable for six more seconds.
    const abortTimer = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(element, {
      onShellReady() {
        shellRendered = true;
      },
      onAllReady() {
        pipe(sink);
      },
      onShellError(error: unknown) {
        clearTimeout(abortTimer);
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        // Errors after the shell are logged here; before it, they reach handleError through the rejection.
        if (shellRendered) log.error("[render] failed after the shell was sent", { error });
      },
    });
  });
}

/** Data requests (client navigations and form posts with JavaScript): hardened, and never cached after a post. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  applyHardeningHeaders(response.headers);
  if (!isSafeMethod(request.method)) response.headers.set("Cache-Control", noStore);
  return response;
};

export function handleError(error: unknown, { request }: { request: Request }) {
  if (!request.signal.aborted) log.error("[render] a request failed", { error });
}
