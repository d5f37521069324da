import { notificationCopy } from "~/wording/notifications";
import type { EnquiryAbout } from "~/store/records";
import { oneLine } from "~/text/safety";

/**
 * "Ask for one like this": a project's page links to /contact?about={slug}; the form then starts with the project's
 * title and posts its id, and the enquiry keeps the project's id, address and title as they were then.
 */

/**
 * What the contact form needs of a published project (the site content's own type stands a floor above the contact
 * form, which takes the projects from its route).
 */
export interface Project {
  id: string;
  slug: string;
  formerSlugs: readonly string[];
  title: string;
  /** The site's service the project belongs to: an enquiry about it starts the pipeline with it. */
  service?: string | null;
}

/** A slug as the site content's schema makes them; anything else in ?about= is ignored without a look-up. */
const slugShape = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const maxSlugLength = 200;
const idShape = /^[0-9a-f]{12}$/;

/** The published project this address names, now or before a rename; undefined for anything else. */
export function projectForSlug(projects: readonly Project[], slug: string | null): Project | undefined {
  if (!slug || slug.length > maxSlugLength || !slugShape.test(slug)) return undefined;
  return projects.find((project) => project.slug === slug) ?? projects.find((p) => p.formerSlugs.includes(slug));
}

/** The published project of this id (the form's hidden field); undefined for anything else. */
export function projectForId(projects: readonly Project[], id: unknown): Project | undefined {
  if (typeof id !== "string" || !idShape.test(id)) return undefined;
  return projects.find((project) => project.id === id);
}

/** What an enquiry keeps of the project: its id, and its address and title at this moment. */
export const enquiryAbout = (project: Project): EnquiryAbout => ({
  projectId: project.id,
  slug: project.slug,
  title: project.title,
});

/** The project's public page: `/work/{slug}` on the site (relative when the site's address is not known). */
export const projectAddress = (siteUrl: string | null, slug: string) =>
  `${(siteUrl ?? "").replace(/\/+$/, "")}/work/${encodeURIComponent(slug)}`;

/** "About the build: Reaper with pneumatic lunge — https://site/work/reaper-with-pneumatic-lunge", one line. */
export const aboutLine = (about: EnquiryAbout, siteUrl: string | null) =>
  oneLine(notificationCopy.aboutLine(about.title, projectAddress(siteUrl, about.slug)), 2_000);
