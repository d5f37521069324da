const number = new Intl.NumberFormat("en-US");
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The most the announcement's words may hold (characters): a subject line, and a short letter. */
export const announcementLimits = { subject: 150, message: 4000 } as const;

/** The owner's Waitlist page (/inbox/waitlist), its erase page and the season's announcement (issue 35). */
export const waitlistOwnerCopy = {
  nav: "Waitlist",
  title: "Waitlist",
  intro:
    "People who asked to be told when orders open. An address counts once its owner pressed Confirm in the e-mail " +
    "we sent; only confirmed addresses get the announcement.",
  counts: {
    label: "On the list",
    pending: "Pending",
    confirmed: "Confirmed",
    unsubscribed: "Unsubscribed",
    /** "2,450": a season's list runs into thousands. */
    number: (n: number) => number.format(n),
  },
  list: {
    heading: "Addresses",
    empty: "Nobody is on the list yet.",
    address: "Address",
    state: "State",
    asked: "Asked",
    confirmed: "Confirmed",
    unsubscribed: "Unsubscribed",
    states: { pending: "Pending", confirmed: "Confirmed", unsubscribed: "Unsubscribed" },
    erase: "Erase",
    eraseLabel: (email: string) => `Erase ${email}`,
    download: "Download CSV",
    /** The list is paged like the inbox (Previous / Next, the inbox's words); these say where the owner is. */
    showLabel: "Show",
    all: "All",
    showing: (first: number, last: number, total: number) =>
      `${number.format(first)}–${number.format(last)} of ${number.format(total)}`,
    emptyState: (state: "pending" | "confirmed" | "unsubscribed") => `No ${state} address.`,
    pastEnd: (page: number, pages: number) =>
      `There is no page ${page}: these addresses fill ${count(pages, "page", "pages")}.`,
    lastPage: (pages: number) => (pages === 1 ? "Back to the list" : `Go to page ${pages}`),
  },
  /** After an erase (the page's ?erased=). */
  erased: "The address was erased from the list.",
  notErased: "That address was not on the list (any more).",
  announce: {
    heading: "Announcement",
    /** The offer: orders are open for the season, no announcement yet, confirmed addresses. */
    offer: (people: number) => `Announce to ${count(people, "person", "people")}`,
    offerIntro: (year: number) =>
      `Orders for the ${year} season are open. Tell the confirmed addresses, once: each gets one e-mail.`,
    closed: "When a publish opens orders, you can announce it to the confirmed addresses here.",
    /** Orders open and addresses confirmed, but this server sends no e-mail. */
    cannotSend: (year: number) =>
      `Orders for the ${year} season are open, but this server sends no e-mail (SMTP_URL and NOTIFY_EMAIL_* are not ` +
      "set), so the confirmed addresses cannot be told. Set them up to announce.",
    nobody: (year: number) => `Orders for the ${year} season are open, but no address is confirmed yet.`,
    formIntro:
      "Edit the words if you like. Each e-mail ends with a line to unsubscribe. Nothing is sent until you press " +
      "Send announcement; it goes out evenly over time, not all at once.",
    subject: "Subject",
    message: "Message",
    preview: "Preview",
    send: "Send announcement",
    cancel: "Not now",
    previewHeading: "Preview",
    previewIntro: (people: number) =>
      `This is the e-mail ${count(people, "person gets", "people get")}, each to their own address:`,
    previewSubject: "Subject:",
    progressHeading: (season: string) => `Announcement for the ${season} season`,
    sentBy: (who: string, when: string) => `Sent by ${who}, ${when}.`,
    progress: (sent: number, total: number) => `${sent} of ${total} sent`,
    failed: (failed: number) => `${failed} could not be delivered`,
    /** Addresses unsubscribed or erased before their turn: their mail was dropped, not sent. */
    dropped: (dropped: number) => `${count(dropped, "address", "addresses")} left the list before it reached them`,
    done: "The announcement is stored and is being sent.",
    waiting: "The rest go out one by one; this page updates by itself.",
    /** Refusals, in words (the form comes back with what was typed). */
    subjectMissing: "Write a subject.",
    subjectLines: "The subject must be one line.",
    subjectTooLong: (length: number) =>
      `The subject is ${length} characters; at most ${announcementLimits.subject} fit.`,
    messageMissing: "Write a message.",
    messageTooLong: (length: number) =>
      `The message is ${length} characters; at most ${announcementLimits.message} fit.`,
    already: (season: string) =>
      `The announcement for the ${season} season was already sent (each address gets it once per season). Nothing more was sent.`,
    notOpen: "Orders are not open on the published site, so there is nothing to announce. Nothing was sent.",
    noneConfirmed: "No address is confirmed, so there is nobody to announce to. Nothing was sent.",
    notSetUp:
      "This server sends no e-mail (NOTIFY_EMAIL_* is not set), so the announcement cannot go out. Nothing was sent.",
    unknownAction: "Unknown action.",
  },
  /** The announcement's words as the season prefills them. */
  season: {
    subject: (year: number) => `Orders for the ${year} haunt season are open`,
    message: (year: number, business: string, contactUrl: string, closesOn: string | null) =>
      [
        `Hello,`,
        "",
        `You asked us to tell you when orders open: orders for the ${year} haunt season at ${business} are open now.`,
        closesOn ? `We take orders until ${closesOn}.` : null,
        "",
        `Tell us what you have in mind: ${contactUrl}`,
        "",
        business,
      ]
        .filter((line) => line !== null)
        .join("\n"),
  },
  /** The list mail's last lines (the announcement): why it came, and how to leave the list. */
  mail: {
    why: "You get this e-mail because you asked to be told when orders open, and confirmed it.",
    unsubscribe: (url: string) => `Unsubscribe (one click, no e-mail needed): ${url}`,
    /** What the preview shows for the link, which is each address's own. */
    previewLink: "[your own unsubscribe link]",
  },
  erase: {
    title: "Erase an address from the waitlist",
    intro:
      "This deletes the address from the list with every e-mail stored for it, and leaves no copy in the inbox's " +
      "database files. It cannot be undone: it gets no announcement, and has to join again to be on the list.",
    address: "Address",
    confirm: "Erase it",
    cancel: "Keep it",
  },
  /** The activity log's detail: never the address. */
  activity: {
    announced: (season: string, total: number) => `season ${season}, to ${count(total, "address", "addresses")}`,
    erased: "one address of the waitlist",
    exported: "the waitlist",
  },
  csvMethod: "The waitlist's CSV is downloaded, not posted: press Download CSV on the Waitlist page.",
} as const;
