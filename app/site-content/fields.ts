/**
 * The site content's fields as the owner sees them: each one's label, its limit and the hint under it. Plain data (no
 * validation library), so the Site page in the browser and the schema on the server (schema.server.ts) read the same
 * limits, and the history names a change with the label the owner typed it under.
 */

export const limits = {
  yearMin: 2000,
  yearMax: 2100,
  closedLine: 160,
  tagline: 200,
  ordersNote: 400,
  servicesMin: 1,
  servicesMax: 12,
  serviceName: 80,
  serviceDetail: 200,
  aboutText: 6000,
  experienceYearsMax: 200,
  contactIntro: 400,
  businessName: 80,
  email: 254,
  phone: 40,
  region: 80,
  linksMax: 5,
  link: 200,
  alt: 200,
  caption: 120,
  leadTime: 40,
  startingPriceMax: 10_000_000,
  projectsMax: 60,
  projectTitle: 80,
  projectClient: 120,
  projectStory: 4000,
  projectPhotosMax: 12,
  projectVideosMax: 3,
  acknowledgementText: 1000,
  replyDaysMin: 1,
  replyDaysMax: 30,
} as const;

/** Where the About text shows the years of experience ("over 15 years of haunt experience"). */
export const yearsToken = "{years}";

/** Where the acknowledgement's text shows the working days to answer ("within 3 working days"). */
export const daysToken = "{days}";

/** Each field's label, keyed by its path in the content (services by position). */
export const fieldLabels = {
  "season.year": "Season year",
  "season.ordersOpen": "Orders are open",
  "season.closesOn": "Orders close on",
  "season.closedLine": "Line shown when orders are closed",
  "home.tagline": "Home tagline",
  "home.ordersNote": "Orders note",
  services: "Services",
  "about.text": "About text",
  "about.experienceYears": "Years of experience",
  "contact.intro": "Contact page intro",
  "business.name": "Business name",
  "business.email": "Public e-mail",
  "business.phone": "Phone",
  "business.region": "Town or region",
  "business.links": "Social links",
  "business.currency": "Currency",
  "acknowledgement.enabled": "Send an acknowledgement",
  "acknowledgement.text": "Acknowledgement text",
  "acknowledgement.replyDays": "Working days to answer",
  "photos.slides.0": "Carousel slide 1 photo",
  "photos.slides.1": "Carousel slide 2 photo",
  "photos.slides.2": "Carousel slide 3 photo",
  "photos.about": "About photo",
  "photos.captions.0": "Slide 1 caption",
  "photos.captions.1": "Slide 2 caption",
  "photos.captions.2": "Slide 3 caption",
} as const;

export type FieldPath = keyof typeof fieldLabels;

export const serviceLabels = {
  name: (position: number) => `Service ${position} name`,
  detail: (position: number) => `Service ${position} detail`,
  startingPrice: (position: number) => `Service ${position} starting price`,
  leadTime: (position: number) => `Service ${position} typical lead time`,
};

export const fieldHints: Partial<Record<FieldPath, string>> = {
  "season.year": `A four-digit year from ${limits.yearMin} to ${limits.yearMax}.`,
  "season.closesOn": "Optional. From this day on (midnight in the business's time zone) orders show as closed.",
  "season.closedLine": "Shown under the closed notice, e.g. “Enquiries for next season are welcome.”",
  "about.text": `Plain text; a blank line starts a new paragraph. ${yearsToken} shows the years of experience.`,
  "business.email": "Optional. Shown in the footer and to search engines.",
  "business.phone": "Optional.",
  "business.region": "Optional, e.g. “Salem, Massachusetts”.",
  "business.links": `Optional. Up to ${limits.linksMax} addresses (https://…), one per line.`,
  "business.currency": "The three-letter code of the currency prices are in (ISO 4217), e.g. USD, EUR, GBP, CAD.",
  "acknowledgement.enabled":
    "Off until you tick it: each real enquiry then gets a short e-mail back (never spam or possible spam; at most one per address a day, 30 an hour for the site). It never repeats anything the visitor typed.",
  "acknowledgement.text": `Plain text. ${daysToken} shows the working days below. The season's line is added under it: when orders close, or that they are closed.`,
  "acknowledgement.replyDays": `A whole number from ${limits.replyDaysMin} to ${limits.replyDaysMax}.`,
};

/**
 * A name as it shows in an address: lower case, letters and digits, words joined by "-" ("Reaper with pneumatic
 * lunge" -> "reaper-with-pneumatic-lunge"). Accents are dropped; a name with no letter or digit gives "".
 */
export function slugOf(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}
