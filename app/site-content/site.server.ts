import type { AppLoadContext } from "@remix-run/node";
import { data } from "@remix-run/react";
import { asOperator } from "~/owner/gate.server";
import { publicSite, type PublicSite } from "~/site-content/public-site";
import { contentFromJson, type SiteContent } from "~/site-content/schema.server";

/**
 * The one way a page's loader reads the site's content: the published version this request started with
 * (`context.site`, the process's copy, kept current by server/site-content.ts), or for `?preview` the owner's draft —
 * for a logged-in operator only (anyone else gets the login page), never cached, never indexed.
 */

/** What a preview is sent with: no cache keeps it, no search engine lists it. */
export const previewHeaders = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex, nofollow" } as const;

export const isPreview = (request: Request) => new URL(request.url).searchParams.has("preview");

export async function siteContentFor(
  request: Request,
  context: AppLoadContext,
): Promise<{ content: SiteContent; preview: boolean }> {
  if (!isPreview(request)) return { content: context.site.content, preview: false };
  return asOperator({ request, context }, async (_args, { store }) => {
    const draft = await store.siteDraft();
    return { content: draft.content ? contentFromJson(draft.content) : context.site.content, preview: true };
  });
}

/** The site as the public pages show it now (the order window decided for this moment in SITE_TIMEZONE). */
export async function publicSiteFor(
  request: Request,
  context: AppLoadContext,
): Promise<{ site: PublicSite; preview: boolean }> {
  const { content, preview } = await siteContentFor(request, context);
  return { site: publicSite(content, new Date(), context.services.config.timeZone), preview };
}

/** A public page's loader answer: in a preview, private and unindexed. */
export function pageData<T>(value: T, preview: boolean) {
  return data(value, preview ? { headers: previewHeaders } : undefined);
}
