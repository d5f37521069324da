/** The Contact Us page, its form and the form's status texts. */
import { brand } from "./shared";

export const contactPage = {
  title: `Contact Us | ${brand.name}`,
  description: `Commission a custom haunt prop, animatronic, haunt electronics or a full haunt build from ${brand.name}.`,
  heading: "Contact Us",
  intro: "Tell us about your haunt and the prop or build you have in mind. We read every enquiry and answer by e-mail.",
} as const;

/** The contact form's visible words. Limits and field names are in app/enquiry/fields.ts. */
export const contactForm = {
  nameLabel: "Your Name",
  emailLabel: "Your Email",
  messageLabel: "Your Message",
  /** The fixed captcha question; the server checks the answer. */
  captchaQuestion: "Security question: what is the first name of the villain of A Nightmare on Elm Street?",
  submitLabel: "Send Message",
} as const;

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
