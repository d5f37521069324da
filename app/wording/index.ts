/**
 * Every business word and constant of the site, in one place to import from: components, routes, tests and the
 * Tailwind config all read from `~/wording`, and operators change copy in the files it gathers, nowhere else:
 *
 * - `shared.ts`: brand, navigation, header, footer, breakpoints, the not-found and error pages (every page shows these)
 * - `home.ts`: the home page, season notice, services and carousel
 * - `about.ts`: the About Us page
 * - `contact.ts`: the Contact Us page, the form's labels, its status messages and why an enquiry is refused
 * - `privacy.ts`: the privacy page and the links to it
 * - `work.ts`: the Work pages (the projects, a service's projects, one project)
 * - `notifications.ts`: the e-mail and chat messages the business gets for each enquiry (server only)
 *
 * One file per page because the browser build splits code by file: each page's script then carries its own words
 * and the shared ones, not every page's copy (server-only words it does not use are left out of it). The owner's
 * words are imported from their own files: `inbox.ts` (the inbox), `spam-reasons.ts` (the spam filter's reasons),
 * `operators.ts` (`npm run inbox`).
 */
export * from "./shared";
export * from "./home";
export * from "./about";
export * from "./contact";
export * from "./privacy";
export * from "./work";
export * from "./notifications";
