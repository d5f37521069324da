import { z } from "zod";
import { carouselArt } from "~/wording/home";
import { daysToken, limits, slugOf, yearsToken } from "~/site-content/fields";

/**
 * The one shape of the site's content: what the owner edits on the Site page and what every public page,
 * the JSON-LD, the link previews and the notification e-mails read. Validation and defaults are here and nowhere
 * else; the defaults are the spec's words, so a new site says what the spec says until the owner changes it. Stored as
 * JSON (a draft and published versions, app/store/site-versions.server.ts) and parsed again on the way out, so an older version
 * gains a field's default when one is added.
 */

/** Text only: a tag is refused rather than escaped, so what the owner sees in the form is what the page shows. */
const htmlTag = /<\/?[a-z!][^>]*>/i;
// Control characters and the bidi overrides that could make a line read differently from what it holds.
// eslint-disable-next-line no-control-regex -- what the owner types may not carry these
const hiddenCharacters = /[\u0000-\u0009\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

const messages = {
  required: "Please fill this in.",
  tooLong: (max: number) => `Please keep it to ${max} characters or fewer.`,
  html: "Text only: please remove the HTML tag (the page shows text as written).",
  hidden: "Please remove the control characters (copy the text as plain text).",
  oneLine: "Please keep this to one line.",
  year: `Please enter a four-digit year from ${limits.yearMin} to ${limits.yearMax}.`,
  date: "Please enter a date as YYYY-MM-DD, e.g. 2026-09-01.",
  email: "Please enter an e-mail address like name@example.com, or leave it empty.",
  phone: "Please use digits, spaces and + ( ) - . only.",
  link: "Please enter a full web address starting with https:// or http://.",
  links: `Please give at most ${limits.linksMax} addresses.`,
  servicesMin: "Please keep at least one service.",
  servicesMax: `Please keep it to ${limits.servicesMax} services.`,
  experience: `Please enter a whole number of years from 0 to ${limits.experienceYearsMax}.`,
  price: `Please enter a whole amount without symbols, e.g. 4500, or leave it empty.`,
  currency: "Please enter a three-letter currency code such as USD, EUR or GBP.",
  projectYear: `Please enter a four-digit year from ${limits.yearMin} to ${limits.yearMax}, or leave it empty.`,
  projectService: "Please choose one of the site's services, or none.",
  projectsMax: `Please keep it to ${limits.projectsMax} projects.`,
  projectPhotos: `A project can have at most ${limits.projectPhotosMax} photos.`,
  projectVideos: `A project can have at most ${limits.projectVideosMax} video clips.`,
  projectTitleTaken: "Another project or a service already has this title's address; please choose another title.",
  projectTitleLetters: "Please use at least one letter or digit in the title.",
  replyDays: `Please enter a whole number of working days from ${limits.replyDaysMin} to ${limits.replyDaysMax}.`,
};

/** Trimmed text up to `max` characters, plain, one line unless `multiline`; `required` refuses an empty one. */
function text(max: number, { required = true, multiline = false } = {}) {
  return z
    .string()
    .transform((value) => value.replace(/\r\n?/g, "\n").trim())
    .superRefine((value, context) => {
      const problem =
        required && value === ""
          ? messages.required
          : value.length > max
            ? messages.tooLong(max)
            : htmlTag.test(value)
              ? messages.html
              : hiddenCharacters.test(value)
                ? messages.hidden
                : !multiline && value.includes("\n")
                  ? messages.oneLine
                  : undefined;
      if (problem) context.addIssue({ code: "custom", message: problem });
    });
}

/** A calendar date (YYYY-MM-DD) that exists, or null. */
const isoDate = z
  .string()
  .trim()
  .refine((value) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (!match) return false;
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, messages.date);

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? null : value), schema.nullable());

const defaultAboutText = [
  `We are a small workshop of haunters who build the things that make guests scream. Between us we have over ${yearsToken} years of haunt experience: years spent running our own attractions, repairing props at two in the morning before opening night, and learning what survives a season of crowds, fog and rain.`,
  "That is why our props are built to work, not just to look good on a bench. Every animatronic is designed around its scare: the timing, the reach, the sound and the light. Electric figures get motors and linkages sized for thousands of cycles; pneumatic props get valves, cylinders and regulators that hit hard and stay reliable.",
  "We also build the parts guests never see: program boards, relay circuits and lighting control that trigger scares at the right moment, and scenic walls and facades that set the mood before the first actor appears. For owners who want the whole experience, we design and build complete haunts from the floor plan up.",
  "Every commission starts with a conversation about your space, your story and your budget. Tell us what you are dreaming up, and we will tell you how we would build it.",
].join("\n\n");

const defaultServices = [
  {
    name: "Custom electric animatronics",
    detail: "Motor-driven figures with smooth, repeatable movement for scares that run all night.",
    startingPrice: null,
    leadTime: "",
  },
  {
    name: "Custom pneumatic animatronics",
    detail: "Air-powered pop-ups, lunges and drops with the speed that makes guests jump.",
    startingPrice: null,
    leadTime: "",
  },
  {
    name: "Custom haunt electronics",
    detail: "Program boards, relay circuits and lighting that trigger, time and light every scare.",
    startingPrice: null,
    leadTime: "",
  },
  {
    name: "Scenic design and building",
    detail: "Walls, facades and set pieces that turn an empty room into somewhere nobody wants to be.",
    startingPrice: null,
    leadTime: "",
  },
  {
    name: "Full haunt design and building",
    detail: "From the first floor plan to the final scare, a complete haunted attraction built to run.",
    startingPrice: null,
    leadTime: "",
  },
];

/** A whole amount in the business's currency, or null (the starting price is optional). */
const wholeAmount = optional(
  z.coerce
    .number({ error: messages.price })
    .int(messages.price)
    .min(0, messages.price)
    .max(limits.startingPriceMax, messages.price),
);

const service = z.object({
  name: text(limits.serviceName),
  detail: text(limits.serviceDetail),
  /** "From $4,500" on the home page's card, and the JSON-LD offer's minPrice. */
  startingPrice: wholeAmount.default(null),
  /** "Typical lead time: 8–12 weeks". */
  leadTime: text(limits.leadTime, { required: false }).default(""),
});

/** The ISO 4217 codes this Node knows (Intl), so a price is always formatted with the right symbol. */
const currencies = new Set(Intl.supportedValuesOf("currency"));
const currency = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((value) => currencies.has(value), messages.currency);

/**
 * A photo in a place on the site: which upload (its id, the hash of its bytes), its alt text and the point
 * the crop keeps (0..1 from the left and the top). The encoded files are found by these (app/photos/).
 */
const placement = z.object({
  upload: z.string().regex(/^[0-9a-f]{24}$/, "Please choose an uploaded photo."),
  alt: text(limits.alt),
  focus: z.object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) }).default({ x: 0.5, y: 0.5 }),
});
export type PhotoPlacement = z.output<typeof placement>;

/** What is wrong with a photo's alt text, with a plain message, or null (the Photos page's upload checks it before saving). */
export function altProblem(alt: string): string | null {
  const result = placement.shape.alt.safeParse(alt);
  return result.success ? null : (result.error.issues[0]?.message ?? messages.required);
}

const caption = text(limits.caption);

/** A clip on a project: which uploaded video (the hash of its original's bytes); its files are found by it. */
const projectVideo = z.object({ video: z.string().regex(/^[0-9a-f]{24}$/, "Please choose an uploaded video.") });
export type ProjectVideo = z.output<typeof projectVideo>;

/**
 * A past build on the Work pages. `id` never changes; `slug` is the address (/work/{slug}) made from the title, and
 * `formerSlugs` the addresses it had before a rename, each answered with a 301 to the current one. The list's order
 * is the owner's order; featured projects show first on /work. The first photo is the cover.
 */
const project = z.object({
  id: z.string().regex(/^[0-9a-f]{12}$/),
  slug: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, messages.projectTitleLetters),
  formerSlugs: z
    .array(z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/))
    .max(20)
    .default([]),
  title: text(limits.projectTitle),
  /** One of the site's services by name, or null. */
  service: z.string().nullable().default(null),
  year: optional(
    z.coerce
      .number({ error: messages.projectYear })
      .int(messages.projectYear)
      .min(limits.yearMin, messages.projectYear)
      .max(limits.yearMax, messages.projectYear),
  ).default(null),
  client: text(limits.projectClient, { required: false }).default(""),
  story: text(limits.projectStory, { required: false, multiline: true }).default(""),
  photos: z.array(placement).max(limits.projectPhotosMax, messages.projectPhotos).default([]),
  videos: z.array(projectVideo).max(limits.projectVideosMax, messages.projectVideos).default([]),
  featured: z.boolean().default(false),
});
export type Project = z.output<typeof project>;

export const siteContentSchema = z
  .object({
    season: z
      .object({
        year: z.coerce
          .number({ error: messages.year })
          .int(messages.year)
          .min(limits.yearMin, messages.year)
          .max(limits.yearMax, messages.year),
        ordersOpen: z.boolean(),
        /** Orders show as closed from midnight of this day in SITE_TIMEZONE; null: no date. */
        closesOn: optional(isoDate),
        closedLine: text(limits.closedLine, { required: false }),
      })
      .default({ year: 2025, ordersOpen: true, closesOn: null, closedLine: "Enquiries for next season are welcome." }),
    home: z
      .object({
        tagline: text(limits.tagline),
        ordersNote: text(limits.ordersNote, { required: false }),
      })
      .default({
        tagline: "Custom animatronics, haunt electronics and scenic builds for haunted attractions.",
        ordersNote:
          "Orders close a couple of months before Halloween so every build can be finished, tested and delivered in time for opening night.",
      }),
    services: z
      .array(service)
      .min(limits.servicesMin, messages.servicesMin)
      .max(limits.servicesMax, messages.servicesMax)
      .default(defaultServices),
    about: z
      .object({
        text: text(limits.aboutText, { multiline: true }),
        experienceYears: z.coerce
          .number({ error: messages.experience })
          .int(messages.experience)
          .min(0, messages.experience)
          .max(limits.experienceYearsMax, messages.experience),
      })
      .default({ text: defaultAboutText, experienceYears: 15 }),
    contact: z.object({ intro: text(limits.contactIntro) }).default({
      intro:
        "Tell us about your haunt and the prop or build you have in mind. We read every enquiry and answer by e-mail.",
    }),
    business: z
      .object({
        name: text(limits.businessName),
        email: optional(z.email(messages.email).max(limits.email, messages.email)),
        phone: optional(
          z
            .string()
            .trim()
            .max(limits.phone, messages.tooLong(limits.phone))
            .regex(/^[0-9+()\-. ]+$/, messages.phone),
        ),
        region: optional(text(limits.region)),
        links: z
          .array(
            z
              .string()
              .trim()
              .max(limits.link, messages.tooLong(limits.link))
              .refine((value) => /^https?:\/\/[^\s/]+\.[^\s]*$/i.test(value) && URL.canParse(value), messages.link),
          )
          .max(limits.linksMax, messages.links),
        /** What prices are in: an ISO 4217 code. */
        currency: currency.default("USD"),
      })
      .default({ name: "Grimforge Haunt Props", email: null, phone: null, region: null, links: [], currency: "USD" }),
    /** The owner's photos: one per carousel slide and the About photo (null: the drawn art, or a build's photos/). */
    photos: z
      .object({
        slides: z.tuple([placement.nullable(), placement.nullable(), placement.nullable()]),
        about: placement.nullable(),
        captions: z.tuple([caption, caption, caption]),
      })
      .default({
        slides: [null, null, null],
        about: null,
        captions: [carouselArt[0].caption, carouselArt[1].caption, carouselArt[2].caption],
      }),
    /**
     * The e-mail back to each real enquiry (app/notify/acknowledgement.ts): off until the owner turns it on, since it
     * mails an address nobody confirmed. The owner's words only; the season's line is added when it is sent.
     */
    acknowledgement: z
      .object({
        enabled: z.boolean(),
        text: text(limits.acknowledgementText, { multiline: true }),
        replyDays: z.coerce
          .number({ error: messages.replyDays })
          .int(messages.replyDays)
          .min(limits.replyDaysMin, messages.replyDays)
          .max(limits.replyDaysMax, messages.replyDays),
      })
      .default({
        enabled: false,
        text: `Thank you for getting in touch. We have your message and answer within ${daysToken} working days.`,
        replyDays: 3,
      }),
    /** The Work pages' projects, in the owner's order (none: the site has no Work pages, as the spec's site). */
    projects: z.array(project).max(limits.projectsMax, messages.projectsMax).default([]),
  })
  .superRefine((content, context) => {
    // A project's address must be its own: not a service's (/work/{service}), not another project's, current or former.
    const serviceSlugs = new Set(content.services.map((service) => slugOf(service.name)));
    const serviceNames = new Set(content.services.map((service) => service.name));
    const taken = new Map<string, number>();
    content.projects.forEach((project, index) => {
      for (const slug of [project.slug, ...project.formerSlugs]) {
        const owner = taken.get(slug);
        if (serviceSlugs.has(slug) || (owner !== undefined && owner !== index))
          context.addIssue({ code: "custom", path: ["projects", index, "title"], message: messages.projectTitleTaken });
        taken.set(slug, index);
      }
      if (project.service !== null && !serviceNames.has(project.service))
        context.addIssue({ code: "custom", path: ["projects", index, "service"], message: messages.projectService });
    });
  });

export type SiteContent = z.output<typeof siteContentSchema>;

/** The spec's words: what a site says before the owner publishes anything. */
export const defaultSiteContent: SiteContent = siteContentSchema.parse({});

/** One problem per field, keyed by its path ("season.year", "services.2.name"): what the Site page shows beside it. */
export type FieldErrors = Record<string, string>;

export function validateSiteContent(
  input: unknown,
): { ok: true; content: SiteContent } | { ok: false; errors: FieldErrors } {
  const result = siteContentSchema.safeParse(input);
  if (result.success) return { ok: true, content: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join(".") || "content";
    errors[path] ??= issue.message;
  }
  return { ok: false, errors };
}

/** Stored JSON back to content (an older version gains the fields added since with their defaults). */
export function contentFromJson(json: string): SiteContent {
  return siteContentSchema.parse(JSON.parse(json));
}
