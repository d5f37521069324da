import { randomBytes } from "node:crypto";
import { finished } from "node:stream";
import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { getConfig } from "~/config.server";
import { CoalesceChunks } from "~/http/coalesce.server";
import { deferHydration } from "~/http/defer-hydration.server";
import { applyDocumentHeaders, applyHardeningHeaders, isSafeMethod, noStore } from "~/http/headers.server";
import { NonceProvider } from "~/nonce";

// Check the environment as soon as the server loads the build: a bad value stops the start with a clear message.
getConfig();

const dev = process.env.NODE_ENV === "development";
// Remix reads this export: single fetch stops streaming loader data after it.
export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = randomBytes(16).toString("base64");

  // Everyone, browser or crawler, gets the whole document at once (onAllReady). No route defers data, so sending
  // the shell first only split the page: the loader data followed a few ticks later in separate chunks, each
  // compressed and flushed on its own, behind a Suspense placeholder and a script to swap it in. A route that starts
  // deferring slow data should send browsers the shell first again (onShellReady, as the Remix template does).
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // The render is abandoned if it has not finished streaming by then. The timer is cleared as soon as the stream
    // ends: left pending, it kept every finished render (React's request, the Remix context) reachable for six more
    // seconds, about 17 KiB each (2.6 KiB with the timer cleared, measured in-process over 1,500 renders).
    const abortTimer = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          // One chunk per burst of React output rather than one per 2 KB (see CoalesceChunks); the first burst is the
          // whole document, in which the scripts are set to start after the page has loaded (see deferHydration).
          // Not under `npm run dev`: the HMR runtime must load before the app's modules, as Remix orders it.
          const body = new CoalesceChunks({ rewriteFirstBurst: dev ? undefined : deferHydration });
          applyDocumentHeaders(responseHeaders, { nonce, method: request.method, status: responseStatusCode, dev });
          resolve(
            new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
          );
          finished(body, () => clearTimeout(abortTimer));
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors after the shell are logged here; before it, they reach handleError through the rejection.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}

/** Data requests (client navigations and form posts with JavaScript): hardened, and never cached after a post. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  applyHardeningHeaders(response.headers);
  if (!isSafeMethod(request.method)) response.headers.set("Cache-Control", noStore);
  return response;
};

export function handleError(error: unknown, { request }: { request: Request }) {
  if (!request.signal.aborted) console.error(error);
}

// The server process (server.mjs) reaches these through the build: build.entry.module.
export { startServices, stopBackground, stopServices } from "~/server/services.server";
export { runInboxCommand } from "~/inbox/cli.server";
export { getConfig } from "~/config.server";
export { guardRequest } from "~/http/request-guard.server";
export { loadContext } from "~/server/load-context.server";
export { gracefulShutdown, serverTimeouts } from "~/server/shutdown.server";
