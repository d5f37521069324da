import type { AppLoadContext } from "@remix-run/node";
import { data } from "@remix-run/react";
import type { PublicPhotos } from "~/wording/photo-types";
import { asOperator } from "~/owner/gate.server";
import { resolvePhotos } from "~/site-content/public-photos.server";
import { resolveWork, type PublicWork } from "~/site-content/public-work.server";
import { publicSite, type PublicSite } from "~/site-content/public-site";
import { contentFromJson, type SiteContent } from "~/site-content/schema.server";

/**
 * The one way a page's loader reads the site's content: the published version this request started with
 * (`context.site`, the process's copy, kept current by server/site-content-poll.ts), or for `?preview` the owner's draft —
 * for a logged-in operator only (anyone else gets the login page), never cached, never indexed.
 */

/** What a preview is sent with: no cache keeps it, no search engine lists it. */
export const previewHeaders = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow" } as const;

export const isPreview = (request: Request) => new URL(request.url).searchParams.has("preview");

export async function siteContentFor(
  request: Request,
  context: AppLoadContext,
): Promise<{ content: SiteContent; photos: PublicPhotos; work: PublicWork; preview: boolean }> {
  const { site } = context;
  if (!isPreview(request)) return { content: site.content, photos: site.photos, work: site.work, preview: false };
  return asOperator({ request, context }, async (_args, { store }) => {
    const draft = await store.siteDraft();
    if (!draft.content) return { content: site.content, photos: site.photos, work: site.work, preview: true };
    // The draft's photos and work as they would show if published now (one still encoding: left out, as it would be).
    const content = contentFromJson(draft.content);
    const [photos, work] = await Promise.all([resolvePhotos(store, content), resolveWork(store, content)]);
    return { content, photos, work, preview: true };
  });
}

/** The site as the public pages show it now (the order window decided for this moment in SITE_TIMEZONE). */
export async function publicSiteFor(
  request: Request,
  context: AppLoadContext,
): Promise<{ site: PublicSite; work: PublicWork; preview: boolean }> {
  const { content, photos, work, preview } = await siteContentFor(request, context);
  return { site: publicSite(content, new Date(), context.services.config.timeZone, photos), work, preview };
}

/** A public page's loader answer: in a preview, private and unindexed. */
export function pageData<T>(value: T, preview: boolean) {
  return data(value, preview ? { headers: previewHeaders } : undefined);
}
