/** The About Us page's own words (its text and the years of experience are the owner's content: app/site-content/). */
import type { SiteNames } from "./shared";

export const aboutPage = {
  title: (businessName: string) => `About Us | ${businessName}`,
  description: (businessName: string, experienceClaim: string) =>
    `Meet the makers behind ${businessName}: ${experienceClaim} building props, electronics and scenes for haunted attractions.`,
  heading: "About Us",
  contactPrompt: "Have a project in mind?",
  contactLink: "Send us an enquiry",
} as const;

/** The page's title and description, from the published content (its meta and its JSON-LD say the same). */
export function aboutMeta(site: SiteNames) {
  return {
    title: aboutPage.title(site.business.name),
    description: aboutPage.description(site.business.name, site.experienceClaim),
  };
}
