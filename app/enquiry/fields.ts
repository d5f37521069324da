import { defaultBodyCap } from "~/http/body-cap";
import { contactForm } from "~/wording";

/**
 * The enquiry's four fields: names sent upstream, labels, titles in errors and length limits. The form's HTML
 * attributes and the server's schema are both built from this one definition, so the browser and the server never
 * disagree.
 */
export const enquiryFields = {
  name: { label: contactForm.nameLabel, title: contactForm.fieldTitles.name, maxLength: 100, autoComplete: "name" },
  email: { label: contactForm.emailLabel, title: contactForm.fieldTitles.email, maxLength: 254, autoComplete: "email" },
  message: {
    label: contactForm.messageLabel,
    title: contactForm.fieldTitles.message,
    maxLength: 5000,
    autoComplete: "off",
  },
  security: {
    label: contactForm.captchaQuestion,
    title: contactForm.fieldTitles.security,
    maxLength: 40,
    autoComplete: "off",
  },
} as const;

export type EnquiryFieldName = keyof typeof enquiryFields;
export const enquiryFieldNames = Object.keys(enquiryFields) as EnquiryFieldName[];

/** The payload of the one upstream call. */
export type Enquiry = Record<EnquiryFieldName, string>;

/** What the visitor typed, kept as typed so a failed send can show it again. */
export type EnquiryValues = Partial<Record<EnquiryFieldName, string>>;

/** A bot trap: hidden from people and assistive technology; anything typed in it marks the post as spam. */
export const honeypotField = "company_website";

/** The contact form's signed token (app/enquiry/form-token.server.ts). */
export const formTokenField = "form_token";

/**
 * The id of the portfolio project the visitor came from ("Ask for one like this", /contact?about={slug}): kept with
 * the enquiry, never sent upstream as a field of its own (app/enquiry/about.server.ts).
 */
export const aboutField = "about";

/** Request bodies above this are refused before they are read whole. Four full fields fit easily. */
export const maxBodyBytes = defaultBodyCap;
