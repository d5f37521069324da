import { seasonNotice } from "~/wording/home";
import type { PublicPhotos } from "~/wording/photo-types";
import { yearsToken } from "~/site-content/fields";
import { orderWindow } from "~/site-content/order-window";
import type { SiteContent } from "~/site-content/schema.server";

/**
 * What the public pages show of the site's content at a moment: the published (or, in a preview, the draft) content
 * with the order window decided for that moment and the About text in paragraphs. The loaders make it on the server
 * and pass on what their page shows, so the browser receives words, not the content's schema or its rules.
 */
export interface PublicSite {
  business: SiteContent["business"];
  tagline: string;
  ordersNote: string;
  services: SiteContent["services"];
  seasonYear: number;
  experienceYears: number;
  /** "over 15 years of haunt experience" */
  experienceClaim: string;
  aboutParagraphs: string[];
  contactIntro: string;
  /** The season notice: whether orders are open, its line and the line under it (the date, or the owner's words). */
  orders: { open: boolean; notice: string; detail: string | null };
  /** The order window's next change by itself (ms since the epoch), for the page cache. */
  changesAt: number | null;
  /** The carousel's and About's photos, the captions and the link-preview image (resolved on the server). */
  photos: PublicPhotos;
}

const formatDay = (date: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" }).format(
    new Date(`${date}T00:00:00Z`),
  );

export function publicSite(content: SiteContent, now: Date, timeZone: string, photos: PublicPhotos): PublicSite {
  const window = orderWindow(content.season, now, timeZone);
  const { year, closesOn, closedLine } = content.season;
  const experienceClaim = seasonNotice.experience(content.about.experienceYears);
  return {
    business: content.business,
    tagline: content.home.tagline,
    ordersNote: content.home.ordersNote,
    services: content.services,
    seasonYear: year,
    experienceYears: content.about.experienceYears,
    experienceClaim,
    aboutParagraphs: content.about.text
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.replaceAll(yearsToken, String(content.about.experienceYears)).trim())
      .filter(Boolean),
    contactIntro: content.contact.intro,
    orders: window.open
      ? {
          open: true,
          notice: seasonNotice.open(year),
          detail: closesOn ? seasonNotice.closesOn(formatDay(closesOn)) : null,
        }
      : { open: false, notice: seasonNotice.closed(year), detail: closedLine || null },
    changesAt: window.changesAt,
    photos,
  };
}
