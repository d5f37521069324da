import type { MetaDescriptor } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import { brand, pageMeta } from "~/content/shared";
import type { PublicSite } from "~/site-content/public-site";

/**
 * What the root loader gives every page (app/root.tsx): the footer's year, PUBLIC_URL, the site's content as the
 * public pages show it, and whether this is an operator's preview of the draft. Read through these helpers only.
 */
export interface RootData {
  year: number;
  publicUrl: string;
  site: PublicSite;
  preview: boolean;
}

type Matches = ReadonlyArray<{ id: string; data?: unknown } | undefined>;

export const useRootData = () => useRouteLoaderData<RootData>("root");

/** The site's content on a page under the root (its loader always gives it; only the error page goes without). */
export function useSite(): PublicSite {
  const root = useRootData();
  if (!root) throw new Error("the root loader's data is missing");
  return root.site;
}

export const businessNameOf = (root: RootData | undefined) => root?.site.business.name ?? brand.name;

export function rootDataOf(matches: Matches): RootData | undefined {
  return matches.find((match) => match?.id === "root")?.data as RootData | undefined;
}

/**
 * A public page's address as a link: in a preview, the same page of the preview (the draft stays on screen while the
 * operator looks around), otherwise the path itself.
 */
export function useSitePath(): (path: string) => string {
  const preview = useRootData()?.preview ?? false;
  return (path) => (preview ? `${path}?preview` : path);
}

/**
 * A page's <title>, description and link-preview tags, with its canonical address (PUBLIC_URL and the route's own
 * path, never the Host or the path spelling a request came with) and the business's published name; a preview is
 * never indexed.
 */
export function siteMeta(
  { matches }: { matches: Matches },
  path: string,
  page: (site: PublicSite) => { title: string; description: string },
): MetaDescriptor[] {
  const root = rootDataOf(matches);
  // Without the root's data (its loader failed) the error page sets its own title.
  if (!root) return [];
  return pageMeta(page(root.site), {
    url: new URL(path, root.publicUrl).href,
    businessName: root.site.business.name,
    noindex: root.preview,
  });
}
