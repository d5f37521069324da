import { fieldLabels, serviceLabels } from "~/site-content/fields";
import { validateSiteContent, type SiteContent } from "~/site-content/schema.server";
import type { SiteVersionWithContent } from "~/store/site-versions.types";

/**
 * The file `npm run inbox -- site export` writes and `site import` reads: the published content with a format tag, so
 * a backup can be told from any other JSON and a later format from this one. The content is checked by the one schema
 * (schema.server.ts) on the way in, exactly as the Site page's form is.
 */

export const exportFormat = "haunt-site-content";
export const exportFormatVersion = 1;
/** Far more than any content the schema accepts (a few dozen KiB at its limits). */
export const importMaxBytes = 1024 * 1024;

export interface SiteExport {
  format: typeof exportFormat;
  formatVersion: typeof exportFormatVersion;
  /** The published version (0: nothing published yet, the defaults). */
  version: number;
  publishedAt: string | null;
  publishedBy: string | null;
  content: SiteContent;
}

export function siteExport(published: SiteVersionWithContent | null, content: SiteContent): SiteExport {
  return {
    format: exportFormat,
    formatVersion: exportFormatVersion,
    version: published?.number ?? 0,
    publishedAt: published?.publishedAt.toISOString() ?? null,
    publishedBy: published?.publishedBy ?? null,
    content,
  };
}

/** A field's path ("services.1.name", "business.links.0") in the owner's words ("Service 2 name", "Social links 1"). */
export function fieldLabel(path: string): string {
  if (path in fieldLabels) return fieldLabels[path as keyof typeof fieldLabels];
  const service = /^services\.(\d+)\.(name|detail|startingPrice|leadTime)$/.exec(path);
  if (service) return serviceLabels[service[2] as keyof typeof serviceLabels](Number(service[1]) + 1);
  const link = /^business\.links\.(\d+)$/.exec(path);
  if (link) return `${fieldLabels["business.links"]} ${Number(link[1]) + 1}`;
  const parent = Object.keys(fieldLabels).find((known) => path.startsWith(`${known}.`));
  return parent ? fieldLabels[parent as keyof typeof fieldLabels] : path;
}

export type ReadExport =
  | { ok: true; content: SiteContent }
  | { ok: false; problem: "not-json" | "wrong-format" | "no-content" }
  | { ok: false; problem: "other-version"; formatVersion: unknown }
  | { ok: false; problem: "invalid"; fields: { label: string; message: string }[] };

/** A file's text as site content, or what is wrong with it. */
export function readSiteExport(text: string): ReadExport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, problem: "not-json" };
  }
  if (typeof parsed !== "object" || parsed === null || (parsed as { format?: unknown }).format !== exportFormat)
    return { ok: false, problem: "wrong-format" };
  const { formatVersion, content } = parsed as { formatVersion?: unknown; content?: unknown };
  if (formatVersion !== exportFormatVersion) return { ok: false, problem: "other-version", formatVersion };
  if (typeof content !== "object" || content === null || Array.isArray(content))
    return { ok: false, problem: "no-content" };
  const result = validateSiteContent(content);
  if (result.ok) return { ok: true, content: result.content };
  const fields = Object.entries(result.errors).map(([path, message]) => ({ label: fieldLabel(path), message }));
  return { ok: false, problem: "invalid", fields };
}
