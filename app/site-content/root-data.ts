import type { MetaDescriptor } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import { brand } from "~/wording/shared";
import type { PublicSite } from "~/site-content/public-site";

/**
 * What the root loader gives every page (app/root.tsx): only what the layout shows around each page, the footer's
 * year, the business's published details (header and footer), whether there is work to link to and whether this is an
 * operator's preview of the draft.
 * Each page's own words come from its own loader, so a page does not carry the others' in its hydration data.
 * Read through these helpers only.
 */
export interface RootData {
  year: number;
  business: PublicSite["business"];
  /** The site has a project to show: the navigation and the footer link to /work. */
  hasWork: boolean;
  preview: boolean;
}

export const useRootData = () => useRouteLoaderData<RootData>("root");

export const businessNameOf = (root: RootData | undefined) => root?.business.name ?? brand.name;

/**
 * A public page's address as a link: in a preview, the same page of the preview (the draft stays on screen while the
 * operator looks around), otherwise the path itself.
 */
export function useSitePath(): (path: string) => string {
  const preview = useRootData()?.preview ?? false;
  return (path) => (preview ? `${path}?preview` : path);
}

/** A page's head tags, as its loader made them (app/site-content/page-head.server.ts). */
export const metaFromLoader = ({ data }: { data: unknown }): MetaDescriptor[] =>
  (data as { meta?: MetaDescriptor[] } | undefined)?.meta ?? [];
