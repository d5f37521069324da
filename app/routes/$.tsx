import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/react";
import { NotFound } from "~/components/NotFound";
import { notFoundPage, pageMeta } from "~/wording";
import { metaFromLoader } from "~/site-content/root-data";

/** Any path no other route matches: the site layout with a 404 status and a way home. */
export function loader({ context }: LoaderFunctionArgs) {
  const businessName = context.site.content.business.name;
  const meta = pageMeta({ ...notFoundPage, title: notFoundPage.title(businessName) }, { businessName });
  return data({ meta }, { status: 404 });
}

export const meta: MetaFunction = metaFromLoader;

export default function NotFoundRoute() {
  return <NotFound />;
}
