import { useRouteLoaderData } from "@remix-run/react";

/**
 * A page's schema.org description as a `<script type="application/ld+json">` data block: browsers never run it (so
 * the CSP's script-src does not apply; its hash is listed anyway, as for every inline script). `<` is escaped so no
 * text can end the script early. Built from PUBLIC_URL, which the root loader gives server and browser alike.
 */
export function JsonLd({ data }: { data: (origin: string) => Record<string, unknown> }) {
  const root = useRouteLoaderData<{ publicUrl?: string }>("root");
  if (!root?.publicUrl) return null;
  const json = JSON.stringify(data(root.publicUrl)).replace(/</g, "\\u003c");
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />;
}
