import { isCrossSiteRequest } from "~/http/cross-site";
import { discardBody, readBodyCapped } from "~/http/body.server";
import { tooLarge } from "~/http/form.server";
import { refusals } from "~/content/site";

/**
 * What every post passes before its action runs (server/actions.ts wraps each route's action with it): refused when
 * another site started it (403), and read under the route's cap (413 past it) so that no action can read a large body
 * whole. Both refusals are thrown Responses whose body is the reason in words: the error boundary shows it, on a
 * document request and on Remix's data request alike. The action gets the request back with the bytes already read.
 */
export async function admitPost(request: Request, maxBytes: number, { readsOwnBody = false } = {}): Promise<Request> {
  if (isCrossSiteRequest(request)) {
    discardBody(request);
    throw refusal(403, refusals.crossSite);
  }
  // A route that reads its body under the cap itself (app/http/body-caps.ts) answers a large one in its own form.
  if (readsOwnBody) return request;
  const body = await readBodyCapped(request, maxBytes);
  if (!body.ok) throw tooLarge(maxBytes);
  const headers = new Headers(request.headers);
  headers.delete("Transfer-Encoding");
  headers.set("Content-Length", String(body.bytes.byteLength));
  return new Request(request.url, { method: request.method, headers, body: body.bytes, signal: request.signal });
}

const refusal = (status: number, words: string) =>
  new Response(words, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
