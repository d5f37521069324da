import { data, type MetaFunction } from "@remix-run/node";
import { NotFound } from "~/components/NotFound";
import { pages } from "~/content/site";
import { pageMeta } from "~/seo";

/** Any path no other route matches: the site layout with a 404 status and a way home. */
export function loader() {
  return data(null, { status: 404 });
}

export const meta: MetaFunction = () => pageMeta(pages.notFound);

export default function NotFoundRoute() {
  return <NotFound />;
}
