/**
 * A page's schema.org description as a `<script type="application/ld+json">` data block: browsers never run it (so
 * the CSP's script-src does not apply; its hash is listed anyway, as for every inline script). `<` is escaped so no
 * text can end the script early. Built by the page's loader (app/site-content/structured-data.server.ts).
 */
export function JsonLd({ data }: { data: Record<string, unknown> }) {
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />;
}
