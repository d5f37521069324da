import type { AppLoadContext, MetaDescriptor } from "@remix-run/node";
import { data, redirect } from "@remix-run/react";
import { notFoundPage, pageMeta } from "~/wording/shared";
import { workMeta } from "~/wording/work";
import { pageHead } from "~/site-content/page-head.server";
import { previewHeaders, publicSiteFor } from "~/site-content/published-or-preview.server";
import { workAt, workList, type WorkListView, type WorkProject } from "~/site-content/public-work.server";
import { projectHead } from "~/site-content/work-head.server";

/**
 * The Work pages' loaders' one way to their data (the routes import only this server module): the published work, or a
 * preview's draft, made into what the page shows: a list of cards, a project, a 301 to a project's current address,
 * or the site's 404 (nothing to show there; no page is kept for it).
 */

export type WorkPageData =
  | { kind: "list"; meta: MetaDescriptor[]; list: WorkListView }
  | { kind: "project"; meta: MetaDescriptor[]; project: WorkProject }
  | { kind: "missing"; meta: MetaDescriptor[] };

type Shown = Awaited<ReturnType<typeof publicSiteFor>>;

const answer = (value: WorkPageData, preview: boolean) =>
  data(value, {
    status: value.kind === "missing" ? 404 : 200,
    ...(preview ? { headers: previewHeaders } : {}),
  });

/** The site's 404, as app/routes/$.tsx answers an unknown path. */
function missing({ site, preview }: Shown) {
  const businessName = site.business.name;
  const meta = pageMeta(
    { ...notFoundPage, title: notFoundPage.title(businessName) },
    { businessName, noindex: preview },
  );
  return answer({ kind: "missing", meta }, preview);
}

function listPage(list: WorkListView, shown: Shown, origin: string) {
  const path = list.service ? `/work/${list.service.slug}` : "/work";
  const meta = pageHead(workMeta(shown.site.business.name, list.service?.name ?? null), path, shown, origin);
  return answer({ kind: "list", meta, list }, shown.preview);
}

/** /work: every project's card, or the 404 of a site with none. */
export async function workIndexPage(request: Request, context: AppLoadContext) {
  const shown = await publicSiteFor(request, context);
  const list = workList(shown.work, null);
  return list ? listPage(list, shown, context.services.config.publicUrl) : missing(shown);
}

/** /work/{slug}: a service's cards, a project, a former address's 301 or the 404. */
export async function workSlugPage(slug: string, request: Request, context: AppLoadContext) {
  const shown = await publicSiteFor(request, context);
  const origin = context.services.config.publicUrl;
  const found = workAt(shown.work, slug);
  switch (found.kind) {
    case "service":
      return listPage(found.list, shown, origin);
    case "project":
      return answer(
        { kind: "project", meta: projectHead(found.project, shown, origin), project: found.project },
        shown.preview,
      );
    case "moved":
      // A preview stays a preview at the new address.
      throw redirect(shown.preview ? `${found.to}?preview` : found.to, {
        status: 301,
        ...(shown.preview ? { headers: previewHeaders } : {}),
      });
    case "missing":
      return missing(shown);
  }
}

export { workPaths } from "~/site-content/public-work.server";
