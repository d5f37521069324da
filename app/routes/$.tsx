import type { MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/react";
import { NotFound } from "~/components/NotFound";
import { notFoundPage, pageMeta } from "~/content/site";
import { businessNameOf, rootDataOf } from "~/site-content/root-data";

/** Any path no other route matches: the site layout with a 404 status and a way home. */
export function loader() {
  return data(null, { status: 404 });
}

export const meta: MetaFunction = ({ matches }) => {
  const businessName = businessNameOf(rootDataOf(matches));
  return pageMeta({ ...notFoundPage, title: notFoundPage.title(businessName) }, { businessName });
};

export default function NotFoundRoute() {
  return <NotFound />;
}
