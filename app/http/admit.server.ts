import { isCrossSiteRequest } from "~/http/cross-site";
import { discardBody, mediaType, readBodyCapped } from "~/http/body.server";
import { formOf, tooLarge, unsupportedMediaType } from "~/http/form.server";
import { refusals } from "~/wording";

/**
 * What every post passes before its action runs (server/actions.ts wraps each route's action with it): refused when
 * another site started it (403), and read under the route's cap (413 past it) so that no action can read a large body
 * whole, and of a type it can read (415 or 400 past that). The refusals are thrown Responses whose body is the reason spelled out: the error boundary shows it, on a
 * document request and on Remix's data request alike. The action gets the request back with the bytes already read.
 */
export async function admitPost(
  request: Request,
  maxBytes: number,
  {
    readsOwnBody = false,
    json = false,
    fromAnySite = null,
  }: { readsOwnBody?: boolean; json?: boolean; fromAnySite?: RegExp | null } = {},
): Promise<Request> {
  // The one exception, declared beside its action (app/http/body-cap.ts): the one-click unsubscribe.
  if (isCrossSiteRequest(request) && !fromAnySite?.test(new URL(request.url).pathname)) {
    discardBody(request);
    throw refusal(403, refusals.crossSite);
  }
  // A route that reads its body under the cap itself (its `bodyCap` says so: app/http/body-cap.ts) answers a large
  // one in its own form.
  if (readsOwnBody) return request;
  const body = await readBodyCapped(request, maxBytes);
  if (!body.ok) throw tooLarge(maxBytes);
  // The body's type is checked here once for every action, as its size is: a form (or JSON, for the one route that
  // takes it) that the action can read, else a 415 or 400 with a plain message. An action's own formData() on text/plain or a
  // broken multipart body threw a TypeError: a 500.
  if (json) {
    if (mediaType(request) !== "application/json") throw unsupportedMediaType("JSON (application/json)");
  } else {
    const form = await formOf(request, body.bytes);
    if (form instanceof Response) throw form;
  }
  const headers = new Headers(request.headers);
  // Nothing sent and no type: an empty form, as formOf read it (the action's formData() needs a type).
  if (!json && !headers.get("Content-Type")) headers.set("Content-Type", "application/x-www-form-urlencoded");
  headers.delete("Transfer-Encoding");
  headers.set("Content-Length", String(body.bytes.byteLength));
  return new Request(request.url, { method: request.method, headers, body: body.bytes, signal: request.signal });
}

const refusal = (status: number, words: string) =>
  new Response(words, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
