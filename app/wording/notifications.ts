/**
 * The words of the notifications the business receives about a new enquiry (e-mail and chat). The business's name is
 * the published one (the Site page), passed in.
 */

export const notificationCopy = {
  /**
   * Before the subject and the chat message's head line when the spam filter found the enquiry possible spam
   * (announced all the same: a real enquiry is never hidden on content alone).
   */
  possibleSpam: "[Possible spam]",
  /** The e-mail's line about it, with what weighed most. */
  possibleSpamLine: (reasons: string) =>
    `The spam filter thinks this may be spam (${reasons}). If it is real, press "Not spam" in the inbox: the filter learns from it.`,
  /** Subject of the e-mail; the visitor's name follows. */
  subjectPrefix: "New enquiry from",
  /** Display name on the From line (the address is NOTIFY_EMAIL_FROM). */
  fromName: (businessName: string) => `${businessName} website`,
  intro: (businessName: string) =>
    `A new enquiry arrived through the ${businessName} website. Press Reply to answer the visitor.`,
  /** Before the signature of an e-mail (the business's details): the usual "-- " line mail clients recognise. */
  signatureSeparator: "-- ",
  nameLabel: "Name",
  emailLabel: "E-mail",
  receivedLabel: "Received",
  idLabel: "Enquiry",
  messageLabel: "Message",
  /** The enquiry was sent from a project's "Ask for one like this": the project and its page. */
  aboutLine: (title: string, address: string) => `About the build: ${title} — ${address}`,
  /** The title line of a chat card (Microsoft Teams). */
  chatTitle: "New enquiry",
  /** Appended when a chat summary had to be shortened to fit the chat service's limit. */
  truncated: "… (shortened; the full message is in the e-mail and in `npm run inbox`)",
} as const;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The daily digest of what the spam filter kept aside (e-mail and chat), when anything was. */
export const spamDigestCopy = {
  subject: (total: number, day: string) => `Spam digest: ${count(total, "enquiry", "enquiries")} kept aside (${day})`,
  intro: (total: number) =>
    `The spam filter kept ${count(total, "enquiry", "enquiries")} aside since the last digest; ` +
    `${total === 1 ? "it was" : "they were"} not announced. If a real one is among them, open it in the Spam folder ` +
    "and press Not spam: it is then announced as usual.",
  /** The one line a chat message starts with. */
  chatTitle: (total: number) => `Spam digest: ${count(total, "enquiry", "enquiries")} kept aside`,
  folderLabel: "Spam folder",
  more: (left: number) => `… and ${count(left, "more", "more")} in the Spam folder.`,
  noName: "(no name)",
} as const;

/**
 * The site's own e-mail back to a visitor whose enquiry arrived (when the owner turned it on, on the Site page). The
 * owner writes its text; these are the subject and the season's line added under it. Never the visitor's words.
 */
export const acknowledgementCopy = {
  subject: (businessName: string) => `Your enquiry to ${businessName}`,
  closesOn: (year: number, date: string) => `Orders for the ${year} haunt season close on ${date}.`,
  closed: (year: number) => `Orders for the ${year} haunt season are closed.`,
} as const;
