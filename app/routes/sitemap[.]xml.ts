import type { LoaderFunctionArgs } from "@remix-run/node";
import { navigation } from "~/wording";
import { workPaths } from "~/site-content/work-pages.server";

/** The pages in the navigation, and the privacy page (linked from the footer). */
const paths = [...navigation.map((item) => item.to), "/privacy"];

export function loader({ context }: LoaderFunctionArgs) {
  // PUBLIC_URL, never the request's Host: this answer is cached publicly.
  const origin = context.services.config.publicUrl;
  // The Work pages of the published content: /work, each service's with a project, each project's.
  const urls = [...paths, ...workPaths(context.site.work)]
    .map((path) => `  <url><loc>${origin}${path}</loc></url>`)
    .join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
