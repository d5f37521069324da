/**
 * The words and constants every page shows: the brand, the navigation, the footer, the error pages and the tags each
 * page describes itself with to search engines and link previews.
 */
import type { MetaDescriptor } from "@remix-run/node";

export const brand = {
  /**
   * The spec does not name the business: this is the default name, the content schema's default
   * (app/site-content/schema.server.ts) and what a page shows when the site's content could not be given to it.
   */
  name: "Grimforge Haunt Props",
  logo: { src: "/logo.svg", alt: "" },
  themeColor: "#0b0a10",
} as const;

/** Layout breakpoints in px (xs is 0). The navigation bar expands at lg. Tailwind's screens use these. */
export const breakpoints = { xs: 0, sm: 576, md: 768, lg: 992, xl: 1200, xxl: 1400 } as const;

export const navigation = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
] as const;

/** The Work pages' link: in the navigation (after Home) and the footer once the site has a published project. */
export const workLink = { to: "/work", label: "Our work" } as const;

/** The navigation's links: with the Work pages' once there is something to show there. */
export const navigationFor = (hasWork: boolean) =>
  hasWork ? [navigation[0], workLink, ...navigation.slice(1)] : [...navigation];

/** The words at the top of every page: the skip link, the main navigation's accessible name, the menu toggle. */
export const header = {
  skipToContent: "Skip to content",
  navigationLabel: "Main",
  menu: "Menu",
} as const;

/** What a page's title and description name from the site's content (app/site-content/public-site.ts gives it). */
export interface SiteNames {
  business: { name: string };
  orders: { notice: string };
  experienceClaim: string;
}

/** Across the top of an operator's preview of the draft (`?preview`). */
export const previewBanner = {
  text: "Preview of your draft: visitors do not see this yet.",
  back: "Back to the Site page",
} as const;

/** The links to the privacy page (under the contact form, in the footer): on every page, so kept apart from its text. */
export const privacyLinks = {
  underForm: "What we do with your message:",
  underFormLink: "our privacy page",
  footer: "Privacy",
} as const;

export const footer = {
  rights: "All rights reserved.",
} as const;

export const notFoundPage = {
  title: (businessName: string) => `Page not found | ${businessName}`,
  description: "The page you were looking for is not here.",
  heading: "This page has vanished",
  message: "The page you were looking for does not exist, or it crept away into the fog.",
  homeLink: "Back to the home page",
} as const;

export const errorPage = {
  title: (businessName: string) => `Something went wrong | ${businessName}`,
  heading: "Something went wrong",
  message: "An unexpected error stopped this page from loading. Please try again in a moment.",
} as const;

/** The page of a post refused before its page could handle it: the reason (`refusals`) comes from the server. */
export const refusalPage = {
  title: (businessName: string) => `Not sent | ${businessName}`,
  heading: "That could not be sent",
  back: "Back to the page",
} as const;

/**
 * Why a post was refused before its page could handle it (app/http/admit.server.ts), spelled out on `refusalPage`.
 * Only the server reads these: the browser gets the one sentence in the answer, not all of them in every page's script.
 */
export const refusals = {
  crossSite:
    "Refused: this form was sent from another site, not from this site's own pages. Open the page on this site and " +
    "send it again from there.",
  tooLarge: (maxBytes: number) =>
    `Refused: what was sent is larger than the ${Math.round(maxBytes / 1024)} KiB this form takes. Nothing was ` +
    "kept. Shorten it and send it again.",
  /** A body that is not a form (or, for the passkeys' exchange, not JSON): a script or tool, never this site's page. */
  unsupportedMediaType: (expected: string) =>
    `Refused: this takes ${expected}, and what was sent is something else. Nothing was changed. Send it again from ` +
    "the page on this site.",
  /** A post to an address that takes none (a page, a file such as the CSV export or robots.txt). */
  methodNotAllowed:
    "Refused: this address is opened, not posted to. Nothing was changed. Open it in the browser instead.",
  unreadableForm:
    "Refused: the form that was sent could not be read (it is cut short or malformed). Nothing was changed. Send it " +
    "again from the page on this site.",
} as const;

/** What the link-preview image shows (the first slide's photo, or its drawn art). */
export const socialImageAlt = (businessName: string) => `${businessName}: a custom Halloween haunt prop`;

/**
 * The <title>, description, Open Graph and Twitter card tags every page carries; with the page's canonical address
 * (from PUBLIC_URL) and its 1200 x 630 preview image (the site's photos, resolved on the server), also its canonical
 * link, og:url and the image's tags (absolute URLs only).
 */
export function pageMeta(
  { title, description }: { title: string; description: string },
  {
    url,
    social,
    businessName = brand.name,
    noindex = false,
  }: {
    url?: string;
    social?: { src: string; width: number; height: number };
    businessName?: string;
    noindex?: boolean;
  } = {},
): MetaDescriptor[] {
  const image = url && social ? new URL(social.src, url).href : undefined;
  const address: MetaDescriptor[] = url
    ? [
        { tagName: "link", rel: "canonical", href: url },
        { property: "og:url", content: url },
      ]
    : [];
  const preview: MetaDescriptor[] =
    image && social
      ? [
          { property: "og:image", content: image },
          { property: "og:image:width", content: String(social.width) },
          { property: "og:image:height", content: String(social.height) },
          { property: "og:image:alt", content: socialImageAlt(businessName) },
          { name: "twitter:image", content: image },
          { name: "twitter:image:alt", content: socialImageAlt(businessName) },
        ]
      : [];
  return [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: businessName },
    { property: "og:locale", content: "en_US" },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    ...address,
    ...preview,
    // A preview of the owner's draft is never indexed (it is also sent no-store, for operators only).
    ...(noindex ? [{ name: "robots", content: "noindex, nofollow" }] : []),
  ];
}
