import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { NotFound } from "~/components/NotFound";
import { WorkList } from "~/components/WorkPages";
import { metaFromLoader } from "~/site-content/root-data";
import { workIndexPage } from "~/site-content/work-pages.server";

export const meta: MetaFunction = metaFromLoader;

/** Sent without scripts (ADR 0042): photos, words, links and the browser's own video controls need none. */
export const handle = { hydrate: false };

/** The published projects as cards, featured first, with a filter link per service; the 404 while there are none. */
export const loader = ({ request, context }: LoaderFunctionArgs) => workIndexPage(request, context);

export default function Work() {
  const page = useLoaderData<typeof loader>();
  return page.kind === "list" ? <WorkList {...page.list} /> : <NotFound />;
}
