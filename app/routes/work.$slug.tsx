import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NotFound } from "~/components/NotFound";
import { ProjectView, WorkList } from "~/components/WorkPages";
import { metaFromLoader } from "~/site-content/root-data";
import { workSlugPage } from "~/site-content/work-pages.server";

export const meta: MetaFunction = metaFromLoader;

/** Sent without scripts (ADR 0042): photos, words, links and the browser's own video controls need none. */
export const handle = { hydrate: false };

/**
 * One address for two kinds of page (the schema keeps a project's slug off every service's): a service's projects
 * (/work/{service}), or one project; a project's former address answers 301, anything else the site's 404.
 */
export const loader = ({ params, request, context }: LoaderFunctionArgs) =>
  workSlugPage(params.slug ?? "", request, context);

export default function WorkAddress() {
  const page = useLoaderData<typeof loader>();
  switch (page.kind) {
    case "list":
      return <WorkList {...page.list} />;
    case "project":
      return <ProjectView project={page.project} />;
    default:
      return <NotFound />;
  }
}
