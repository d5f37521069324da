import { aboutPage } from "~/content/about";
import { contactPage } from "~/content/contact";
import { homePage } from "~/content/home";
import { privacyPage } from "~/content/privacy";
import type { PublicSite } from "~/site-content/public-site";

/** Each page's title and description, from the content (the pages' meta and their JSON-LD say the same). */
export function homeMeta(site: PublicSite) {
  return { title: homePage.title(site.business.name), description: homePage.description(site.orders.notice) };
}
export function aboutMeta(site: PublicSite) {
  return {
    title: aboutPage.title(site.business.name),
    description: aboutPage.description(site.business.name, site.experienceClaim),
  };
}
export function contactMeta(site: PublicSite) {
  return { title: contactPage.title(site.business.name), description: contactPage.description(site.business.name) };
}
export function privacyMeta(site: PublicSite) {
  return { title: privacyPage.title(site.business.name), description: privacyPage.description(site.business.name) };
}
