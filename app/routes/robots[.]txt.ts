import type { LoaderFunctionArgs } from "@remix-run/node";

export function loader({ context }: LoaderFunctionArgs) {
  // PUBLIC_URL, never the request's Host: this answer is cached publicly.
  const origin = context.services.config.publicUrl;
  const body = ["User-agent: *", "Allow: /", "Disallow: /api/", "", `Sitemap: ${origin}/sitemap.xml`, ""].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
