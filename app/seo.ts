import type { MetaDescriptor } from "@remix-run/node";
import { brand } from "~/content/site";

/** The <title>, description and Open Graph tags every page carries. */
export function pageMeta({ title, description }: { title: string; description: string }): MetaDescriptor[] {
  return [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: brand.name },
    { property: "og:locale", content: "en_US" },
    { name: "twitter:card", content: "summary" },
  ];
}
