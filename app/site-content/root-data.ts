import type { MetaDescriptor } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import { brand } from "~/content/shared";
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

export const useRootData = () => useRouteLoaderData<RootData>("root");

/** The site's content on a page under the root (its loader always gives it; only the error page goes without). */
export function useSite(): PublicSite {
  const root = useRootData();
  if (!root) throw new Error("the root loader's data is missing");
  return root.site;
}

export const businessNameOf = (root: RootData | undefined) => root?.site.business.name ?? brand.name;

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
