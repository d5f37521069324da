/**
 * The one cross-site rule of the site, for every post (server/request-guard.ts and server/actions.ts use it): believe
 * what the browser says about the request itself, never PUBLIC_URL (the owner may open the site at 127.0.0.1 while
 * PUBLIC_URL says localhost, or the reverse).
 *
 * - `Sec-Fetch-Site` present: `same-origin` and `none` (the user's own action, e.g. a bookmark) pass; `same-site` and
 *   `cross-site` are refused.
 * - `Origin` present: its host must be the request's own host (the Host header, as Remix's own check demands);
 *   `null` (a sandboxed or privacy-sensitive context) is refused.
 * - Both present: both must pass. Neither: the post did not come from a browser (every current browser sends Origin
 *   with a post, and Sec-Fetch-Site too), so it is no cross-site request forgery; it passes. Scripts post to the JSON
 *   API that way, and the owner's session cookie is SameSite=Strict, so no browser attaches it to another site's post.
 */
export function isCrossSite({
  fetchSite,
  origin,
  host,
}: {
  fetchSite: string | null | undefined;
  origin: string | null | undefined;
  host: string | null | undefined;
}): boolean {
  if (fetchSite != null && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  if (origin == null) return false;
  if (origin === "null" || !host) return true;
  try {
    return new URL(origin).host !== host.toLowerCase();
  } catch {
    return true;
  }
}

/** The rule applied to a Fetch API request: its own host is the one its URL was built from (the Host header). */
export const isCrossSiteRequest = (request: Request): boolean =>
  isCrossSite({
    fetchSite: request.headers.get("Sec-Fetch-Site"),
    origin: request.headers.get("Origin"),
    host: new URL(request.url).host,
  });
