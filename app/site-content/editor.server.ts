import type { AppLoadContext } from "@remix-run/node";
import { siteEditorCopy } from "~/wording/site-editor";
import { absoluteTime } from "~/text/time";
import { pageCacheControl } from "~/pages/headers.server";
import { seasonIsOver } from "~/site-content/order-window";
import type { SiteDraft } from "~/store/site-versions.types";

/** What the owner area says about the site's content, shared by the Enquiries, Site and History pages. */

/** The published season's year when its Halloween has passed (in SITE_TIMEZONE), else null. */
export function staleSeasonYear(context: AppLoadContext, now = new Date()): number | null {
  const { year } = context.site.content.season;
  return seasonIsOver(year, now, context.services.config.timeZone) ? year : null;
}

/** How long a CDN may show a page's previous version: its s-maxage plus stale-while-revalidate, in whole minutes. */
export function cdnDelayMinutes(cacheControl = pageCacheControl): number {
  const seconds = (name: string) => Number(new RegExp(`${name}=(\\d+)`).exec(cacheControl)?.[1] ?? 0);
  return Math.ceil((seconds("s-maxage") + seconds("stale-while-revalidate")) / 60);
}

/** Who saved the draft since this operator's page was opened, and when: why their save was refused. */
export function staleMessage(draft: SiteDraft, what: "save" | "restore" = "save"): string {
  const words = siteEditorCopy.errors;
  if (!draft.savedBy || !draft.savedAt) return words.staleUnknown;
  const at = absoluteTime(draft.savedAt);
  return what === "save" ? words.stale(draft.savedBy, at) : words.staleRestore(draft.savedBy, at);
}
