import type { AppLoadContext, MetaDescriptor } from "@remix-run/node";
import { aboutMeta, contactMeta, homeMeta, privacyMeta } from "~/wording";
import { pageHead } from "~/site-content/page-head.server";
import type { RootData } from "~/site-content/root-data";
import type { PublicSite } from "~/site-content/public-site";
import { pageData, publicSiteFor } from "~/site-content/published-or-preview.server";
import { aboutPageData, contactPageData, localBusiness } from "~/site-content/structured-data.server";

/**
 * The public pages' loaders' one way to the site's content (the route modules import only this server module, so the
 * browser build carries one empty stand-in for it): the root's data, and each page's head with its JSON-LD and the
 * site as shown, from which its loader picks what the page renders.
 */

export async function rootData(request: Request, context: AppLoadContext) {
  // The footer's year is decided once, on the server, so the hydrated page shows the same year. The business's
  // details: the published version, or an operator's draft. Nothing else: every page's hydration data carries this.
  // Of the projects, only whether there are any: the navigation's "Our work" link.
  const { site, work, preview } = await publicSiteFor(request, context);
  const root: RootData = {
    year: new Date().getFullYear(),
    business: site.business,
    hasWork: work.projects.length > 0,
    preview,
  };
  return pageData(root, preview);
}

/** A page's head (title, description, link previews, JSON-LD), the site as it shows it and whether it is a preview. */
export async function pageHeadFor(
  page: "home" | "about" | "contact" | "privacy",
  request: Request,
  context: AppLoadContext,
): Promise<{ meta: MetaDescriptor[]; site: PublicSite; preview: boolean }> {
  const shown = await publicSiteFor(request, context);
  const origin = context.services.config.publicUrl;
  const { site } = shown;
  const meta =
    page === "home"
      ? pageHead(homeMeta(site), "/", shown, origin, localBusiness(site, origin))
      : page === "about"
        ? pageHead(aboutMeta(site), "/about", shown, origin, aboutPageData(site, origin))
        : page === "contact"
          ? pageHead(contactMeta(site), "/contact", shown, origin, contactPageData(site, origin))
          : pageHead(privacyMeta(site), "/privacy", shown, origin);
  return { meta, site, preview: shown.preview };
}

export { pageData, previewHeaders } from "~/site-content/published-or-preview.server";
// "Tell me when orders open" on the home and contact pages while orders are closed (docs/waitlist.md).
export { waitlistFormFor } from "~/enquiry/waitlist-offer.server";
