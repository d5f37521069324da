const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Every word of the owner's inbox (/inbox): operators edit copy here. */
export const inboxCopy = {
  title: "Inbox",
  /** A 503 on any inbox page while the database does not answer. */
  unavailable: "The inbox database is not reachable right now. Try again in a minute.",
  /** A server still running with the key from before `secrets rotate` (docs/operating.md#secrets-key). */
  secretsKey:
    "One-time codes cannot be checked right now: this server does not hold the key they are sealed with. Restart it with the current SECRETS_KEY.",
  /** A post to the CSV export (only a GET downloads it). */
  exportMethod: "The enquiries' CSV is downloaded, not posted: press Download CSV on the enquiries page.",
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
    /** Setting up a first factor more than ten minutes after the password (app/owner/gate.server.ts). */
    again:
      "To set up a second factor, type your password again: it was typed more than ten minutes ago, and there is " +
      "no other way yet to confirm it is you.",
  },
  nav: { label: "Inbox", inbox: "Enquiries", activity: "Activity", logout: "Log out", loggedInAs: "Logged in as" },
  folders: { new: "New", handled: "Handled", spam: "Spam", all: "All" },
  search: { label: "Search name, address or message", submit: "Search", clear: "Clear" },
  list: {
    empty: "No enquiries here.",
    previous: "Previous",
    next: "Next",
    download: "Download CSV",
    foldersLabel: "Folders",
    pagesLabel: "Pages",
    unread: "unread",
    possibleSpam: "possible spam",
    counts: (counts: { new: number; handled: number; spam: number }, searching: boolean) =>
      `${counts.new} new, ${counts.handled} handled, ${counts.spam} spam${searching ? " matching the search" : ""}`,
    erased: (erased: number, fromWaitlist: boolean) =>
      `Erased ${count(erased, "enquiry", "enquiries")}${fromWaitlist ? ", and the address from the waitlist" : ""}.`,
  },
  enquiry: {
    title: "Enquiry",
    back: "Back to the inbox",
    reply: "Reply",
    delivery: "Notifications",
    noDelivery: "No notification was set up for this enquiry.",
    markHandled: "Mark handled",
    markNew: "Mark as new",
    markSpam: "Mark as spam",
    notSpam: "Not spam",
    resend: "Resend",
    erase: "Erase",
    status: "status:",
    /** Before the project's title, linked to its page, when the enquiry came from "Ask for one like this". */
    about: "About the build:",
    /** What the spam filter said (ADR 0029): its verdict and score, why, and the owner's own decision. */
    spam: {
      verdict: (verdict: "possible" | "spam", score: number | null) =>
        `${verdict === "spam" ? "Kept aside as spam" : "Possible spam (announced with a marker)"}` +
        `${score === null ? "" : `, score ${Math.round(score * 100)} %`}.`,
      because: (reasons: string) => `What weighed most: ${reasons}.`,
      decided: (decision: string) =>
        decision === "spam"
          ? "You marked it as spam: the filter learned from it."
          : "You marked it as not spam: the filter learned from it.",
    },
    /** After each button's post/redirect/get (?done=...). */
    done: {
      handled: "Marked handled.",
      spam: "Marked as spam: the spam filter learned from it.",
      "not-spam": "Marked as not spam: the spam filter learned from it, and a held enquiry's notifications go out now.",
      resend: "The notification is being sent again.",
      stage: "Stage saved.",
      "stage-unchanged": "Nothing changed: the stage was already so.",
      note: "Note added.",
    } as Readonly<Record<string, string>>,
    unknownChannel: "Unknown channel.",
    unknownAction: "Unknown action.",
  },
  erase: {
    title: "Erase this person's enquiries",
    intro:
      "This deletes every enquiry sent from this address, with their notifications. It cannot be undone. Copies " +
      "already e-mailed or posted to chat are not touched: delete them there too. The Figures page goes on counting " +
      "them, as numbers only (when they arrived, their stage and amounts), never who sent them or what they said. " +
      "If the address is on the waitlist, it is erased from it too, with its list mail.",
    confirm: "Erase them all",
    cancel: "Keep them",
    from: "From",
    whatGoes: (enquiries: number, notifications: number) =>
      `${count(enquiries, "enquiry", "enquiries")} and ${count(notifications, "notification", "notifications")} will be deleted:`,
    /** After the erase, when the v1 import file (INBOX_FILE) still names the address: the site never rewrites it. */
    stillInV1File: (file: string) =>
      `The old v1 inbox file ${file} on the server still holds this person's address. The site will not import ` +
      "it again, but the file is a copy: delete the file, or remove their lines from it.",
  },
  activity: { title: "Activity", empty: "Nothing yet.", enquiry: "enquiry" },
  /** Times in the inbox: "3 hours ago", "in 5 minutes" (app/owner/format.ts). */
  time: {
    justNow: "just now",
    inAMoment: "in a moment",
    units: {
      minute: ["minute", "minutes"],
      hour: ["hour", "hours"],
      day: ["day", "days"],
      month: ["month", "months"],
      year: ["year", "years"],
    },
    ago: (amount: string) => `${amount} ago`,
    in: (amount: string) => `in ${amount}`,
  },
  /** Where an enquiry's notifications stand (app/owner/delivery.ts): the list, the enquiry's page, the CSV export. */
  delivery: {
    channels: { email: "E-mail", webhook: "Webhook" } as Readonly<Record<string, string>>,
    states: { pending: "waiting to be sent", sent: "sent", failed: "failed (gave up)" } as Readonly<
      Record<string, string>
    >,
    none: "No notifications",
    notSetUp: "not set up",
    labels: {
      state: "State",
      attempts: "Attempts",
      sent: "Sent",
      lastError: "Last error",
      nextAttempt: "Next attempt",
    },
    /** A sender's error (as the outbox recorded it) in terms an owner can act on; the raw text is shown beside it. */
    errors: {
      refused: "The server refused the connection: it is down or the address is wrong.",
      timeout: "The server did not answer in time.",
      unreachable: "The server could not be reached at that address.",
      unknownHost: "The server's name could not be found.",
      cut: "The connection was cut before the send finished.",
      login: "The mail server refused the login: check SMTP_URL's user and password.",
      tls: "The secure connection failed (certificate or TLS).",
      serverError: "The receiving server answered with an error.",
      refusedMessage: "The receiving server refused the message.",
      other: "The send failed.",
    },
    /** `npm run inbox`: channels and states named as its --json names them, with each one's tries. */
    terminal: {
      none: "not notified",
      tries: (attempts: number) => ` after ${count(attempts, "attempt", "attempts")}`,
      nextTry: (at: string) => `, next try ${at}`,
    },
  },
} as const;
