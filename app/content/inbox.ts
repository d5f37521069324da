import { brand } from "./shared";

/** Every word of the owner's inbox (/inbox): operators edit copy here. */
export const inboxCopy = {
  title: "Inbox",
  /** A 503 on any inbox page while the database does not answer. */
  unavailable: "The inbox database is not reachable right now. Try again in a minute.",
  login: {
    title: "Log in to the inbox",
    heading: "Owner's inbox",
    intro: "Log in to read and answer the enquiries sent through the contact form.",
    email: "E-mail",
    password: "Password",
    submit: "Log in",
    wrong: "That e-mail address and password do not match. Check both and try again.",
    throttled: (minutes: number) =>
      `Too many failed tries for this account from your network. For your safety, wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`,
    busy: (seconds: number) =>
      `Too many logins on this site in the last minute. Wait ${seconds} ${seconds === 1 ? "second" : "seconds"} and try again.`,
    overloaded: "The inbox is busy checking other logins right now. Wait a few seconds and try again.",
    loggedOut: "You are logged out.",
  },
  nav: { inbox: "Enquiries", activity: "Activity", logout: "Log out" },
  folders: { new: "New", handled: "Handled", spam: "Spam", all: "All" },
  search: { label: "Search name, address or message", submit: "Search", clear: "Clear" },
  list: {
    empty: "No enquiries here.",
    previous: "Previous",
    next: "Next",
    download: "Download CSV",
  },
  enquiry: {
    back: "Back to the inbox",
    reply: "Reply by e-mail",
    replySubject: `Your enquiry to ${brand.name}`,
    delivery: "Notifications",
    noDelivery: "No notification was set up for this enquiry.",
    markHandled: "Mark handled",
    markNew: "Mark as new",
    markSpam: "Mark as spam",
    notSpam: "Not spam",
    resend: "Resend",
    erase: "Erase",
  },
  erase: {
    title: "Erase this person's enquiries",
    intro:
      "This deletes every enquiry sent from this address, with their notifications. It cannot be undone. Copies " +
      "already e-mailed or posted to chat are not touched: delete them there too.",
    confirm: "Erase them all",
    cancel: "Keep them",
    /** After the erase, when the v1 import file (INBOX_FILE) still names the address: the site never rewrites it. */
    stillInV1File: (file: string) =>
      `The old v1 inbox file ${file} on the server still holds this person's address. The site will not import ` +
      "it again, but the file is a copy: delete the file, or remove their lines from it.",
  },
  activity: { title: "Activity", empty: "Nothing yet." },
} as const;
