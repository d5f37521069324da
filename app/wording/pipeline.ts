const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** How long someone has waited, in the largest whole unit: "4 days", "5 hours", "less than an hour". */
export function waitedFor(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 1) return "less than an hour";
  if (hours < 24) return plural(hours, "hour", "hours");
  return plural(Math.floor(hours / 24), "day", "days");
}

/** Every word of the commission pipeline in the owner's inbox: the stage form, notes, the timeline, the pipeline page. */
export const pipelineCopy = {
  nav: "Pipeline",
  stages: {
    new: "New",
    replied: "Replied",
    quoted: "Quoted",
    deposit: "Deposit paid",
    building: "Building",
    delivered: "Delivered",
    lost: "Lost",
  },
  lostReasons: {
    price: "Price",
    timing: "Timing",
    "no-answer": "No answer",
    elsewhere: "Went elsewhere",
    other: "Other",
  },
  /** The inbox's first page: nothing when nobody waits. */
  waiting: (count: number, oldestMs: number) =>
    `${count === 1 ? "1 customer is" : `${count} customers are`} waiting for a reply, the oldest for ${waitedFor(oldestMs)}.`,
  waitingLink: "See the pipeline",
  form: {
    heading: "Commission",
    stage: "Stage",
    lostReason: "Reason it was lost",
    lostReasonNone: "Choose a reason",
    quoteAmount: "Quote amount",
    quoteAmountHint: (currency: string) => `In ${currency}, e.g. 1500 or 1,500.00.`,
    quoteValidUntil: "Quote valid until",
    depositAmount: "Deposit amount",
    neededBy: "Needed by",
    service: "Service",
    serviceNone: "No service chosen",
    dateHint: "A date, e.g. 2027-09-30.",
    optional: "(optional)",
    save: "Save stage",
    saved: "Stage saved.",
    unchanged: "Nothing changed.",
    errors: {
      summary: "The stage was not saved:",
      stage: "Choose one of the stages.",
      lostReason: "Choose why it was lost.",
      quoteRequired: "Quoted needs the quote amount.",
      depositRequired: "Deposit paid needs the deposit amount.",
      amount: "Type an amount in numbers, e.g. 1500 or 1,500.00.",
      date: "Type a date as year-month-day, e.g. 2027-09-30.",
      service: "Choose one of the site's services, or none.",
      stale:
        "Someone else changed this enquiry after you opened it: the page now shows their change. Yours is still in " +
        "the form; check it and press Save stage again to replace theirs.",
    },
  },
  note: {
    heading: "Add a note",
    label: "Note",
    hint: "Private: only people who can log in here see it.",
    submit: "Add note",
    added: "Note added.",
    empty: "Type the note first.",
    tooLong: (max: number) => `Please keep a note under ${max.toLocaleString("en-US")} characters.`,
  },
  timeline: {
    heading: "Timeline",
    received: "Enquiry received",
    stage: (from: string, to: string) => (from === to ? `${to}: details changed` : `Stage ${from} → ${to}`),
    note: "Note",
    reply: "Reply",
    replyLine: (state: string) =>
      state === "sent"
        ? "Reply sent"
        : state === "failed"
          ? "Reply not delivered (see Replies below)"
          : "Reply stored, being sent",
    /** The site's own e-mail back to a new enquiry (its delivery under Replies). */
    acknowledgement: "Acknowledgement",
    acknowledgementLine: (state: string) =>
      state === "sent"
        ? "Acknowledgement e-mailed to the customer"
        : state === "failed"
          ? "Acknowledgement not delivered (see Replies below)"
          : "Acknowledgement stored, being sent",
    customer: "The customer answered",
    customerSpam: (reasons: string) =>
      `An answer on the build page, kept aside as spam (nobody was told; what weighed most: ${reasons})`,
    update: "Progress update posted",
    reminder: "Reminder",
    reminderLine: (action: string, dueOn: string) =>
      action === "moved"
        ? `Reminder moved to ${dueOn}`
        : action === "done"
          ? `Reminder for ${dueOn} marked done`
          : action === "sent"
            ? `Reminder for ${dueOn} sent`
            : `Reminder set for ${dueOn}`,
    "build-page": "Build page",
    buildPageLine: (action: string) =>
      action === "revoked" ? "Build page revoked: its address no longer opens" : "Build page shared with the customer",
    by: (actor: string) => `by ${actor}`,
    fields: {
      lostReason: "reason",
      quoteAmount: "quote",
      quoteValidUntil: "quote valid until",
      depositAmount: "deposit",
      neededBy: "needed by",
      service: "service",
    } as Record<string, string>,
    cleared: "cleared",
  },
  pipeline: {
    title: "Pipeline",
    intro: "The open enquiries by stage. Waiting: the customer wrote last and has no answer yet.",
    count: (n: number) => plural(n, "enquiry", "enquiries"),
    quotedTotal: (amount: string) => `quoted ${amount}`,
    waiting: "waiting",
    waitingSince: (waited: string) => `waiting for ${waited}`,
    neededBy: (date: string) => `needed by ${date}`,
    empty: "None.",
    more: (n: number) => `and ${plural(n, "more", "more")} (oldest shown first)`,
  },
  /** The enquiry page's header line. */
  stageLine: "Stage:",
  waitingBadge: "Waiting for your reply",
} as const;
