import { siteEditorCopy } from "~/wording/site-editor";
import { limits } from "~/site-content/fields";
import type { FieldErrors, SiteContent } from "~/site-content/schema.server";

/**
 * The Site page's form as the owner typed it: every field a string (a checkbox a boolean), so a refused post is shown
 * again exactly as typed. `fromForm` reads a post (missing fields are empty, never an error of ours), `toInput` gives
 * the schema what it validates, `fromContent` fills the form from the draft. Field names are the content's paths.
 */

export interface ServiceFields {
  name: string;
  detail: string;
  /** A whole amount as typed ("" for none). */
  startingPrice: string;
  leadTime: string;
}

const serviceParts = ["name", "detail", "startingPrice", "leadTime"] as const;

export interface SiteFormValues {
  year: string;
  closesOn: string;
  ordersOpen: boolean;
  closedLine: string;
  tagline: string;
  ordersNote: string;
  services: ServiceFields[];
  aboutText: string;
  experienceYears: string;
  contactIntro: string;
  businessName: string;
  email: string;
  phone: string;
  region: string;
  links: string;
  currency: string;
  acknowledge: boolean;
  acknowledgementText: string;
  replyDays: string;
}

/** Each single field's name in the form (its path in the content) and its key in the values. */
export const formFields = {
  year: "season.year",
  closesOn: "season.closesOn",
  ordersOpen: "season.ordersOpen",
  closedLine: "season.closedLine",
  tagline: "home.tagline",
  ordersNote: "home.ordersNote",
  aboutText: "about.text",
  experienceYears: "about.experienceYears",
  contactIntro: "contact.intro",
  businessName: "business.name",
  email: "business.email",
  phone: "business.phone",
  region: "business.region",
  links: "business.links",
  currency: "business.currency",
  acknowledge: "acknowledgement.enabled",
  acknowledgementText: "acknowledgement.text",
  replyDays: "acknowledgement.replyDays",
} as const satisfies Record<Exclude<keyof SiteFormValues, "services">, string>;

export const serviceField = (index: number, part: keyof ServiceFields) => `services.${index}.${part}`;

/** A field's id in the page (the error summary links to it). */
export const fieldId = (path: string) => `site-${path.replace(/\./g, "-")}`;

/** More than the schema allows is still shown (with its message), but a post of thousands is not all rendered back. */
const servicesShownMax = limits.servicesMax + 1;

export function fromContent(content: SiteContent): SiteFormValues {
  return {
    year: String(content.season.year),
    closesOn: content.season.closesOn ?? "",
    ordersOpen: content.season.ordersOpen,
    closedLine: content.season.closedLine,
    tagline: content.home.tagline,
    ordersNote: content.home.ordersNote,
    services: content.services.map(({ name, detail, startingPrice, leadTime }) => ({
      name,
      detail,
      startingPrice: startingPrice === null ? "" : String(startingPrice),
      leadTime,
    })),
    aboutText: content.about.text,
    experienceYears: String(content.about.experienceYears),
    contactIntro: content.contact.intro,
    businessName: content.business.name,
    email: content.business.email ?? "",
    phone: content.business.phone ?? "",
    region: content.business.region ?? "",
    links: content.business.links.join("\n"),
    currency: content.business.currency,
    acknowledge: content.acknowledgement.enabled,
    acknowledgementText: content.acknowledgement.text,
    replyDays: String(content.acknowledgement.replyDays),
  };
}

/** A posted form's values; anything missing is empty. Services come in the order of their posted positions. */
export function fromForm(form: FormData): SiteFormValues {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const positions = new Set<number>();
  for (const key of form.keys()) {
    const match = /^services\.(\d{1,4})\.(?:name|detail|startingPrice|leadTime)$/.exec(key);
    if (match) positions.add(Number(match[1]));
  }
  const services = [...positions]
    .sort((a, b) => a - b)
    .slice(0, servicesShownMax)
    .map((index) => ({
      name: text(serviceField(index, "name")),
      detail: text(serviceField(index, "detail")),
      startingPrice: text(serviceField(index, "startingPrice")),
      leadTime: text(serviceField(index, "leadTime")),
    }));
  return {
    year: text(formFields.year),
    closesOn: text(formFields.closesOn),
    ordersOpen: form.get(formFields.ordersOpen) !== null,
    closedLine: text(formFields.closedLine),
    tagline: text(formFields.tagline),
    ordersNote: text(formFields.ordersNote),
    services,
    aboutText: text(formFields.aboutText),
    experienceYears: text(formFields.experienceYears),
    contactIntro: text(formFields.contactIntro),
    businessName: text(formFields.businessName),
    email: text(formFields.email),
    phone: text(formFields.phone),
    region: text(formFields.region),
    links: text(formFields.links),
    currency: text(formFields.currency),
    acknowledge: form.get(formFields.acknowledge) !== null,
    acknowledgementText: text(formFields.acknowledgementText),
    replyDays: text(formFields.replyDays),
  };
}

/** Only whole numbers as typed reach the schema's number checks ("0x7E7" or "2.0e3" is not a year someone typed). */
const whole = (value: string, digits: RegExp) => (digits.test(value.trim()) ? value.trim() : Number.NaN);

/** A price as typed: empty is none; "4,500$", "-1" or "4.5" is not a whole amount, and gets the schema's message. */
const price = (value: string) => (value.trim() === "" ? "" : whole(value, /^\d{1,9}$/));

const linkLines = (links: string) =>
  links
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");

/** What the schema validates (validateSiteContent). */
export function toInput(values: SiteFormValues): unknown {
  return {
    season: {
      year: whole(values.year, /^\d{4}$/),
      ordersOpen: values.ordersOpen,
      closesOn: values.closesOn,
      closedLine: values.closedLine,
    },
    home: { tagline: values.tagline, ordersNote: values.ordersNote },
    services: values.services.map((service) => ({ ...service, startingPrice: price(service.startingPrice) })),
    about: { text: values.aboutText, experienceYears: whole(values.experienceYears, /^\d{1,3}$/) },
    contact: { intro: values.contactIntro },
    business: {
      name: values.businessName,
      email: values.email,
      phone: values.phone,
      region: values.region,
      links: linkLines(values.links),
      currency: values.currency,
    },
    acknowledgement: {
      enabled: values.acknowledge,
      text: values.acknowledgementText,
      replyDays: whole(values.replyDays, /^\d{1,2}$/),
    },
  };
}

/**
 * The schema's errors keyed by the field that shows them: a link's problem goes to the Social links box with its line
 * number, a problem of the whole services list to the services' fieldset (key "services").
 */
export function errorsByField(errors: FieldErrors): FieldErrors {
  const shown: FieldErrors = {};
  for (const [path, message] of Object.entries(errors)) {
    const link = /^business\.links\.(\d+)$/.exec(path);
    const key = link ? formFields.links : path;
    shown[key] ??= link ? siteEditorCopy.errors.lineOf(Number(link[1]) + 1, message) : message;
  }
  return shown;
}

/** The services edits that post the form back without saving: each gives the new list. */
export function editServices(services: ServiceFields[], intent: string): ServiceFields[] | null {
  const [action, at] = intent.split(":") as [string, string | undefined];
  const index = Number(at);
  const list = [...services];
  if (action === "add-service") {
    if (list.length < limits.servicesMax) list.push({ name: "", detail: "", startingPrice: "", leadTime: "" });
    return list;
  }
  if (!Number.isInteger(index) || index < 0 || index >= list.length) return action.endsWith("-service") ? list : null;
  if (action === "remove-service") {
    list.splice(index, 1);
    return list;
  }
  if (action === "up-service" || action === "down-service") {
    const to = action === "up-service" ? index - 1 : index + 1;
    if (to >= 0 && to < list.length) [list[index], list[to]] = [list[to]!, list[index]!];
    return list;
  }
  return null;
}

/** The order of fields in the page, for the error summary. */
export function fieldOrder(values: SiteFormValues): string[] {
  return [
    formFields.year,
    formFields.closesOn,
    formFields.ordersOpen,
    formFields.closedLine,
    formFields.tagline,
    formFields.ordersNote,
    "services",
    ...values.services.flatMap((_, index) => serviceParts.map((part) => serviceField(index, part))),
    formFields.aboutText,
    formFields.experienceYears,
    formFields.contactIntro,
    formFields.businessName,
    formFields.email,
    formFields.phone,
    formFields.region,
    formFields.links,
    formFields.currency,
    formFields.acknowledge,
    formFields.acknowledgementText,
    formFields.replyDays,
  ];
}
