import type { MetaDescriptor } from "@remix-run/node";
import { pageMeta } from "~/wording/shared";
import type { PublicSite } from "~/site-content/public-site";

/**
 * A public page's head, made by its loader on the server: the <title>, description and link-preview tags with its
 * canonical address (PUBLIC_URL and the route's own path, never the Host or the path a request came with), the
 * business's published name, a noindex in a preview, and its schema.org JSON-LD (Remix's Meta writes it escaped). The
 * words and builders stay on the server; the browser gets the finished tags with the page's data.
 */
export function pageHead(
  page: { title: string; description: string },
  path: string,
  { site, preview }: { site: PublicSite; preview: boolean },
  origin: string,
  jsonLd?: Record<string, unknown>,
): MetaDescriptor[] {
  return [
    ...pageMeta(page, {
      url: new URL(path, origin).href,
      social: site.photos.social,
      businessName: site.business.name,
      noindex: preview,
    }),
    ...(jsonLd ? [{ "script:ld+json": jsonLd }] : []),
  ];
}
