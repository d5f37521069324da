/** Every word of the owner's Site section (/inbox/site and its history): what the owner reads while editing the site. */

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const siteEditorCopy = {
  nav: "Site",
  title: "Site",
  intro:
    "What the public pages say: the season, the words and the business's details. Edits are kept as a draft until you publish them.",
  /** The stale-season warning on /inbox and /inbox/site. */
  staleSeason: (year: number) => `The site still offers the ${year} season; Halloween ${year} is over.`,
  fixSeason: "Update the season",
  published: {
    none: "Visitors see the standard words: nothing has been published yet.",
    version: (version: number, at: string, by: string) => `Visitors see version ${version}, published ${at} by ${by}.`,
  },
  draft: {
    saved: (at: string, by: string) => `Draft last saved ${at} by ${by}.`,
    pending: (count: number) => `Your draft differs from what visitors see in ${plural(count, "field", "fields")}:`,
    same: "Your draft is the same as what visitors see.",
  },
  previewLinks: "Preview the draft:",
  previewPages: [
    { to: "/?preview", label: "Home" },
    { to: "/about?preview", label: "About" },
    { to: "/contact?preview", label: "Contact" },
  ],
  historyLink: "History",
  sections: {
    season: "Season and orders",
    home: "Home page",
    services: "Services",
    about: "About page",
    contact: "Contact page",
    business: "The business",
    acknowledgement: "Acknowledgement e-mail",
  },
  /** Under the acknowledgement's fields when this server sends no e-mail. */
  acknowledgementNoMail:
    "E-mail is not set up on this server (SMTP_URL, NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM), so no acknowledgement is sent even when this is ticked.",
  closesOnWhen: (timeZone: string, minutes: number) =>
    `The business's time zone is ${timeZone} (SITE_TIMEZONE). Behind a CDN, visitors may see the change up to ${minutes} minutes later.`,
  servicesHint:
    "A name and a one-line detail each, and if you like a starting price and a typical lead time, shown in this order on the home page.",
  /** The code as typed when it looks like one, so the hint follows the Currency field after a refused post. */
  startingPriceHint: (currency: string | null) =>
    `Optional. In ${currency ? `${currency} (the business's currency)` : "the business's currency"}, without symbols, e.g. 4500.`,
  leadTimeHint: "Optional, e.g. 8–12 weeks.",
  service: (position: number) => `Service ${position}`,
  addService: "Add a service",
  /** Read before each service's buttons by a screen reader ("Service 2: Move up"); hidden on screen. */
  servicePrefix: (position: number) => `Service ${position}: `,
  remove: "Remove",
  up: "Move up",
  down: "Move down",
  buttons: { save: "Save draft", preview: "Preview", publish: "Publish" },
  buttonsHint: "Save draft keeps your edits without changing the public site. Preview shows the draft on the pages.",
  /** After a post/redirect/get (?done=...). */
  done: {
    saved: "Draft saved. Nothing public has changed: use Preview to see it, Publish to show it to visitors.",
    unchanged: "Nothing new to publish: the draft is what visitors already see.",
    published: (version: number, cdnMinutes: number) =>
      `Published version ${version}: visitors see it now. A CDN in front of the site may keep showing the previous version for up to ${cdnMinutes} minutes.`,
    restored: (from: number, version: number, cdnMinutes: number) =>
      `Version ${from} restored as version ${version}: visitors see it now. A CDN in front of the site may keep showing the previous version for up to ${cdnMinutes} minutes.`,
    restoredUnchanged: (from: number) => `Version ${from} is what visitors already see: nothing new to publish.`,
  },
  serviceEdited: "Services changed below. Nothing is saved yet: Save draft or Publish when you are ready.",
  errors: {
    summary: (count: number) =>
      `${plural(count, "field needs", "fields need")} attention. Nothing was saved; everything you typed is below.`,
    stale: (by: string, at: string) =>
      `${by} saved the site at ${at}, after you opened this page. Your changes are below, not saved: check them and save again.`,
    staleRestore: (by: string, at: string) =>
      `${by} saved the site at ${at}, after you opened this page. Nothing was restored: check the history and restore again.`,
    staleUnknown:
      "The site's draft changed after you opened this page. Your changes are below, not saved: check them and save again.",
    noVersion: (version: string) => `There is no version ${version} to restore.`,
    unknownAction: "Unknown action.",
    lineOf: (line: number, message: string) => `Line ${line}: ${message}`,
  },
  history: {
    title: "Site history",
    back: "Back to the Site page",
    intro:
      "Every published version, newest first, with what it changed. Restore publishes an older version again as a new version (it also becomes your draft).",
    empty: "Nothing has been published yet: visitors see the standard words.",
    version: (version: number) => `Version ${version}`,
    current: "what visitors see now",
    by: (at: string, by: string) => `${at} by ${by}`,
    restoredFrom: (version: number) => `restored from version ${version}`,
    noChanges: "No changes recorded.",
    restore: "Restore",
    restoreLabel: (version: number) => `Restore version ${version}`,
    pagesLabel: "Pages",
    newer: "Newer",
    older: "Older",
  },
} as const;
