/**
 * Every business word and constant of the site, in one place to import from: components, routes, tests and the
 * Tailwind config all read from `~/content/site`, and operators change copy in the files it gathers, nowhere else:
 *
 * - `shared.ts`: brand, navigation, footer, breakpoints, the not-found and error pages (every page shows these)
 * - `home.ts`: the home page, season notice, services and carousel
 * - `about.ts`: the About Us page
 * - `contact.ts`: the Contact Us page, the form's labels and its status messages
 * - `privacy.ts`: the privacy page and the links to it
 * - `notifications.ts`: the e-mail and chat messages the business gets for each enquiry (server only)
 *
 * One file per page because the browser build splits code by file: each page's script then carries its own words
 * and the shared ones, not every page's copy.
 */
export * from "./shared";
export * from "./home";
export * from "./about";
export * from "./contact";
export * from "./privacy";
export * from "./notifications";
