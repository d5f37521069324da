/**
 * "Tell me when orders open" (issue 35, docs/waitlist.md): the form on the home and contact pages while orders are
 * closed, its pages (/waitlist, the links to confirm and to unsubscribe) and the list's e-mails. The form is rendered on
 * the server into markup (app/enquiry/waitlist-form.server.tsx), so these words reach the browser as HTML, not as script.
 */

/** How long a confirmation link works and an unconfirmed address is kept (the store holds to it). */
export const waitlistConfirmDays = 7;

export const waitlistForm = {
  heading: "Hear when orders open",
  lead: "Orders are closed for now. Leave your address and we will e-mail you the day they open.",
  emailLabel: "Email address",
  /** The consent line; the link's words end it. */
  consent: "We will send you one e-mail to confirm your address and one when orders open. Unsubscribe any time.",
  privacyLink: "How we keep your address",
  submitLabel: "Tell me when orders open",
  honeypotLabel: "Leave this field empty",
} as const;

/** What /waitlist and the links' pages say. */
export const waitlistPage = {
  title: (businessName: string) => `Tell me when orders open | ${businessName}`,
  description: (businessName: string) => `Ask ${businessName} to e-mail you once, when orders open.`,
  heading: "Tell me when orders open",
  /** The same words whether the address was new, waiting, on the list or unsubscribed, and for a bot. */
  asked:
    "Check your inbox: we sent a link to confirm your address. Open it within 7 days and press Confirm. If nothing " +
    "arrives in a few minutes, look in your spam folder.",
  emailMissing: "Enter your e-mail address.",
  emailInvalid: "Enter an e-mail address like name@example.com.",
  emailTooLong: "That address is too long: enter one of at most 254 characters.",
  ordersOpen: "Orders are open now: tell us what you would like on the contact page.",
  contactLink: "Go to the contact page",
  notOffered: "We cannot take addresses for the list just now. Please write to us on the contact page instead.",
  rateLimited:
    "We are receiving many requests from here right now, so your address was not saved. Please try again later.",
  unavailable: "We could not save your address just now. Please try again in a few minutes.",
  homeLink: "Back to the home page",

  confirmHeading: "Confirm your address",
  confirmText: (email: string) => `Press Confirm and we will e-mail ${email} once, when orders open.`,
  confirmButton: "Confirm",
  confirmedHeading: "You are on the list",
  confirmedText: (email: string | null) =>
    `We will e-mail ${email ?? "you"} when orders open. Every e-mail from the list has a link to unsubscribe.`,
  endedHeading: "This link has ended",
  endedText:
    "A link to confirm works once, for 7 days. If you have not confirmed yet, ask again below and we will send a new one.",

  unsubscribeHeading: "Unsubscribe",
  unsubscribeText: (email: string) => `Press Unsubscribe and ${email} gets no more e-mails from our list.`,
  unsubscribeButton: "Unsubscribe",
  unsubscribedHeading: "You are unsubscribed",
  unsubscribedText: (email: string | null) => `${email ?? "This address"} gets no more e-mails from our list.`,
  unknownLinkHeading: "This link is not valid",
  unknownLinkText:
    "It may have been copied incompletely. If you want to leave our list, write to us on the contact page.",
} as const;

/** The list's e-mails (server only). */
export const waitlistMail = {
  confirmSubject: (businessName: string) => `Confirm: tell me when orders open (${businessName})`,
  confirmBody: (businessName: string, link: string, until: string) =>
    [
      `Someone, we hope you, asked ${businessName} to e-mail this address when orders open.`,
      "",
      "To confirm, open this link and press Confirm:",
      link,
      "",
      `The link works until ${until}. If you did not ask, ignore this e-mail: without a confirmation we delete the ` +
        "address after 7 days and send nothing more.",
    ].join("\n"),
  /** Why a stored address was not mailed (recorded on the mail; the owner's page shows failures). */
  notOneMailbox: "the address is not one mailbox",
} as const;
