/**
 * The Work pages' own words: /work (the projects as cards), /work/{service} (one service's projects) and
 * /work/{project} (one build). The projects' titles, stories and photos are the owner's content (app/site-content/).
 */

export const workPage = {
  title: (businessName: string) => `Our work | ${businessName}`,
  description: (businessName: string) =>
    `Animatronics, haunt electronics and scenic builds by ${businessName}: photos and clips of props we have built for haunted attractions.`,
  heading: "Our work",
  intro:
    "A few of the props, effects and scenes that have left our workshop. Every one started as a conversation about a scare, and every one has run a season in front of real crowds.",
  /** The filter links' accessible name. */
  filtersLabel: "Show the work of one service",
  all: "All",
  /** A service's page: its name is the page's heading. */
  serviceTitle: (serviceName: string, businessName: string) => `${serviceName} | Our work | ${businessName}`,
  serviceDescription: (serviceName: string, businessName: string) =>
    `${serviceName} by ${businessName}: photos and clips of past builds for haunted attractions.`,
  serviceIntro: (serviceName: string) => `Past builds of our ${serviceName.toLowerCase()} service.`,
  /** Shown on a card whose photos are still being prepared. */
  noPhoto: "Photos coming soon",
  featured: "Featured",
} as const;

export const projectPage = {
  title: (projectTitle: string, businessName: string) => `${projectTitle} | ${businessName}`,
  /** When the story is empty: the description search engines and link previews show. */
  description: (projectTitle: string, businessName: string) =>
    `${projectTitle}: a custom build by ${businessName} for a haunted attraction.`,
  backLink: "All our work",
  serviceLabel: "Service",
  yearLabel: "Year",
  clientLabel: "Client or place",
  photosHeading: "Photos",
  clipsHeading: "Video clips",
  /** A clip's name (its accessible name and its VideoObject's name): numbered when the project has several. */
  clipName: (projectTitle: string, position: number, count: number) =>
    count > 1 ? `${projectTitle}: clip ${position} of ${count}` : `${projectTitle}: video clip`,
  /** Inside the <video>, for a browser that plays none. */
  clipFallback: "Your browser cannot play this clip here:",
  clipDownload: "download it",
  askPrompt: "Want something like this for your haunt?",
  askLink: "Ask for one like this",
} as const;

/** The page's title and description (its meta and its JSON-LD say the same). */
export function workMeta(businessName: string, serviceName: string | null) {
  return serviceName === null
    ? { title: workPage.title(businessName), description: workPage.description(businessName) }
    : {
        title: workPage.serviceTitle(serviceName, businessName),
        description: workPage.serviceDescription(serviceName, businessName),
      };
}
