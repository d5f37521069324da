/** The Contact Us page, its form, the form's status texts and why an enquiry is refused. */
import type { SiteNames } from "./shared";

/** The page's own words; its intro is the owner's content (app/site-content/). */
export const contactPage = {
  title: (businessName: string) => `Contact Us | ${businessName}`,
  description: (businessName: string) =>
    `Commission a custom haunt prop, animatronic, haunt electronics or a full haunt build from ${businessName}.`,
  heading: "Contact Us",
} as const;

/** The contact form's visible words. Limits and field names are in app/enquiry/fields.ts. */
export const contactForm = {
  nameLabel: "Your Name",
  emailLabel: "Your Email",
  messageLabel: "Your Message",
  /** The fixed captcha question; the server checks the answer. */
  captchaQuestion: "Security question: what is the first name of the villain of A Nightmare on Elm Street?",
  submitLabel: "Send Message",
  /** The bot trap's label: hidden from people and assistive technology; only a bot that fills every field reads it. */
  honeypotLabel: "Leave this field empty",
  /** Each field's name in the errors list ("Error: Email: ..."), as the upstream API names them. */
  fieldTitles: { name: "Name", email: "Email", message: "Message", security: "Security" },
  /** How the message starts when the visitor came from a project's "Ask for one like this" (they may change it). */
  aboutPrefill: (title: string) => `About your build “${title}”: `,
} as const;

/** The answer to `contactForm.captchaQuestion`, in any case (server only: the embedded inbox checks it). */
export const captchaAnswer = "Freddy";

/** The status texts of the contact form: the spec's words where it gives them, plain words where it does not. */
export const enquiryMessages = {
  sending: "Sending...",
  success: "Thank you! We will contact you soon.",
  errorPrefix: "Error:",
  genericFailure: "Failed to send message.",
  unreachable:
    "We could not reach our enquiry service, so your message was not sent. Please try again in a few minutes.",
  // The service may have taken the enquiry and only the answer was late: say so, so nobody is told it was lost.
  timeout:
    "Our enquiry service did not answer in time, so we cannot tell whether your message arrived. It may have: if you " +
    "do not hear from us in a few days, please send it again.",
  rateLimitedTitle: "Too many enquiries",
  rateLimitedSite:
    "We are receiving more enquiries than usual right now, so yours was not sent. Please try again later.",
  rateLimitedClient:
    "You have sent several enquiries in the last hour, so this one was not sent. Please try again later.",
  /** The browser could not reach our site (offline, connection refused or dropped): it may or may not have arrived. */
  browserConnectionFailed:
    "The connection to our site failed, so your message may not have been sent. Please check your internet connection and try again.",
  /** Something answered, but not our site's answer (a proxy's error page, a cut-off reply). */
  browserUnreadableAnswer:
    "Our site could not complete your request, so your message may not have been sent. Please try again in a few minutes.",
} as const;

/**
 * Why an enquiry was refused, as entries of the errors list (`title: detail`, shown after "Error:" on the contact
 * page); server only. The API's entries are for programs posting JSON to /api/site/save-contact. Plain literals (no
 * reference to `contactForm`), so the browser build can leave the whole object out.
 */
export const enquiryErrors = {
  required: {
    name: "Please enter your name.",
    email: "Please enter your e-mail address.",
    message: "Please enter a message.",
    security: "Please answer the security question.",
  },
  tooLong: (maxLength: number) => `Please keep it to ${maxLength} characters or fewer.`,
  invalidEmail: "Please enter a valid e-mail address.",
  /** Fields that are there but not text (a JSON post). */
  unreadableFields: { title: "Enquiry", detail: "The form could not be read. Please try again." },
  wrongAnswer: {
    title: "Security",
    detail: "That is not the right answer to the security question.",
  },
  // After a timeout the database may still finish the save: say so. Sending again is safe (the duplicate check).
  notStored: {
    title: "Server",
    detail:
      "We could not confirm that your enquiry was saved. Please send it again in a few minutes: it will not be stored twice.",
  },
  form: {
    unsupportedMediaType: { title: "Request", detail: "Please send your enquiry with the contact form." },
    tooLarge: { title: "Message", detail: "Your enquiry is too long to send. Please shorten it." },
    unreadable: { title: "Request", detail: "The form could not be read. Please try again." },
  },
  api: {
    unsupportedMediaType: { title: "Request", detail: "Send the enquiry as application/json." },
    tooLarge: { title: "Request", detail: "The enquiry is too large." },
    unreadable: { title: "Request", detail: "The enquiry is not valid JSON." },
    /** The title before the status line when the upstream API did not take the enquiry. */
    notForwardedTitle: "Server",
  },
} as const;

/** The page's title and description, from the published content (its meta and its JSON-LD say the same). */
export function contactMeta(site: SiteNames) {
  return { title: contactPage.title(site.business.name), description: contactPage.description(site.business.name) };
}
