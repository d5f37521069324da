import { seasonNotice, serviceCard } from "~/wording/home";
import type { PublicPhotos } from "~/wording/photo-types";
import { slugOf, yearsToken } from "~/site-content/fields";
import { orderWindow } from "~/site-content/order-window";
import type { SiteContent } from "~/site-content/schema.server";

/** A service as its home page card shows it, and its offer in the JSON-LD. */
export interface PublicService {
  name: string;
  detail: string;
  /** "From $4,500", or null when the owner gave no price. */
  startingPrice: string | null;
  /** The amount itself, in the business's currency (the JSON-LD offer's minPrice), or null. */
  minPrice: number | null;
  /** "Typical lead time: 8–12 weeks", or null. */
  leadTime: string | null;
  /** The link to the service's Work page ("See 4 builds", then " of {service}" for a screen reader); null without one. */
  work: { path: string; label: string; labelEnd: string } | null;
}

/**
 * What the public pages show of the site's content at a moment: the published (or, in a preview, the draft) content
 * with the order window decided for that moment and the About text in paragraphs. The loaders make it on the server
 * and pass on what their page shows, so the browser receives words, not the content's schema or its rules.
 */
export interface PublicSite {
  business: SiteContent["business"];
  tagline: string;
  ordersNote: string;
  services: PublicService[];
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

/** A calendar day (YYYY-MM-DD) as the pages write it: "September 1, 2027". */
export const formatDay = (date: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" }).format(
    new Date(`${date}T00:00:00Z`),
  );

/**
 * Formatted here, on the server, so the page and its hydration agree. en-US for every currency: the site's words are
 * English, and the symbol follows the code ("From €4,500").
 */
export function formatPrice(amount: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: 0 }).format(amount);
}

function publicService(service: SiteContent["services"][number], content: SiteContent): PublicService {
  const { currency } = content.business;
  // "See 4 builds": the projects of this service that the Work pages show (/work/{service}).
  const builds = content.projects.filter((project) => project.service === service.name).length;
  return {
    name: service.name,
    detail: service.detail,
    startingPrice:
      service.startingPrice === null ? null : serviceCard.startingPrice(formatPrice(service.startingPrice, currency)),
    minPrice: service.startingPrice,
    leadTime: service.leadTime ? serviceCard.leadTime(service.leadTime) : null,
    work:
      builds > 0
        ? {
            path: `/work/${slugOf(service.name)}`,
            label: serviceCard.seeBuilds(builds),
            labelEnd: serviceCard.seeBuildsOf(service.name),
          }
        : null,
  };
}

export function publicSite(content: SiteContent, now: Date, timeZone: string, photos: PublicPhotos): PublicSite {
  const window = orderWindow(content.season, now, timeZone);
  const { year, closesOn, closedLine } = content.season;
  const experienceClaim = seasonNotice.experience(content.about.experienceYears);
  return {
    business: content.business,
    tagline: content.home.tagline,
    ordersNote: content.home.ordersNote,
    services: content.services.map((service) => publicService(service, content)),
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
