/**
 * The owner's words for replying to a customer from the enquiry's page (app/components/inbox/ReplyForm.tsx) and the
 * list of what was sent (app/components/inbox/RepliesList.tsx).
 */

/** The longest subject and message a reply may have (characters). */
export const replyLimits = { subject: 200, message: 10_000 } as const;

export const repliesCopy = {
  heading: "Reply",
  subjectLabel: "Subject",
  messageLabel: "Message",
  messageHint: "Sent as plain text, with the business's details under it. Their answer comes to your e-mail.",
  send: "Send reply",
  /** The subject the form starts with: the previous reply's, or the enquiry's own. */
  subjectStart: (previous: string | null, businessName: string) => {
    const subject = previous ?? `Your enquiry to ${businessName}`;
    return /^re:/i.test(subject) ? subject : `Re: ${subject}`;
  },
  to: (address: string) => `To ${address}`,
  refused: "The reply was not sent:",
  subjectMissing: "Write a subject.",
  subjectLines: "Write the subject on one line.",
  subjectTooLong: (length: number) =>
    `The subject is ${length} characters long: shorten it to ${replyLimits.subject} or fewer.`,
  messageMissing: "Write a message.",
  messageTooLong: (length: number) =>
    `The message is ${length.toLocaleString("en-US")} characters long: shorten it to ` +
    `${replyLimits.message.toLocaleString("en-US")} or fewer.`,
  noAddress: "This enquiry has no e-mail address that mail can be sent to: contact them another way.",
  /** After the post/redirect/get (?done=reply). */
  done: "Reply stored: it goes out in a moment. Its delivery shows under Replies.",
  /** No SMTP_URL: the site sends no mail itself. */
  notSetUp:
    "E-mail is not set up on this server (SMTP_URL, NOTIFY_EMAIL_TO and NOTIFY_EMAIL_FROM), so the site cannot " +
    "send a reply itself. Write it in your own mail program instead:",
  mailto: "Reply by e-mail",
  /** The mails sent to the customer, with their delivery. */
  list: {
    heading: "Replies",
    reply: "Reply",
    "build-update": "Build update",
    acknowledgement: "Acknowledgement (sent by the site when the enquiry arrived)",
    pending: "Waiting to be sent",
    nextAttempt: "next attempt",
    attempts: (attempts: number) => `${attempts} ${attempts === 1 ? "attempt" : "attempts"} so far`,
    lastError: "Last error:",
    sent: "Sent",
    failed: "Not sent:",
  },
  /** The permanent failure of a mail whose stored address is not one plain mailbox. */
  notOneMailbox:
    "the customer's address is not one plain e-mail address, so the site does not send to it: reply from your own mail program",
} as const;
