/**
 * The customer's build page's words: the owner's section on the enquiry page, the page the customer reads at
 * /build/{token}, the customer's e-mail about an update, and the owner's announcement of an answer.
 */

const stageNames = {
  new: "Enquiry received",
  replied: "Replied",
  quoted: "Quoted",
  deposit: "Deposit paid",
  building: "Building",
  delivered: "Delivered",
  lost: "Closed",
} as const;

export const buildPageCopy = {
  stageNames,
  owner: {
    heading: "Build page",
    backToEnquiry: "Back to the enquiry",
    intro:
      "A private page for the customer: the build's stages and your progress updates. Only someone with the link can open it.",
    notYet: "The build page can be shared from Deposit paid on.",
    share: "Share build page",
    shareAgain: "Share a new build page",
    linkLabel: "The customer's link",
    linkHint: "Copy it into your e-mail to the customer. It ends 90 days after Delivered.",
    revoked: "Revoked: the old link shows “not found”. Sharing again makes a new link.",
    endsOn: (date: string) => `The link ends on ${date}.`,
    ended: "The link has ended (90 days after Delivered).",
    revoke: "Revoke",
    updateHeading: "Post update",
    updateText: "What's new",
    updatePhotos: (max: number) => `Photos (up to ${max})`,
    updateHint: "JPEG, PNG, WebP or AVIF. Location and camera details are removed.",
    emailCustomer: "E-mail the customer",
    noEmail: "E-mail is not set up on this server: send the customer the link above yourself when you post.",
    post: "Post update",
    updates: "Updates",
    noUpdates: "No updates yet.",
    emailed: "E-mailed to the customer",
    photoCount: (count: number) => (count === 1 ? "1 photo" : `${count} photos`),
    done: {
      shared: "The build page is shared. Copy the link below.",
      revoked: "The build page's link is revoked.",
      posted: "The update is posted.",
    } as Record<string, string>,
    errors: {
      stage: "The build page can be shared from Deposit paid on: set the stage first.",
      emptyUpdate: "Write something about the update, or add a photo.",
      tooLong: (max: number) => `An update is at most ${max} characters.`,
      tooManyPhotos: (max: number) => `At most ${max} photos per update.`,
      notShared: "Share the build page first: the update is shown there.",
      noEmail:
        "E-mail is not set up on this server (SMTP_URL, NOTIFY_EMAIL_FROM), so the site cannot e-mail the customer: " +
        "untick E-mail the customer and send them the link yourself.",
    },
  },
  page: {
    title: (business: string) => `Your build | ${business}`,
    fallbackTitle: "Your build",
    intro: (business: string) => `Progress on your build from ${business}. This page is private to you.`,
    stages: "Stages",
    ahead: "Still to come",
    updates: "Updates",
    noUpdates: "No updates yet: photos will appear here as your build comes together.",
    preparing: "Photo being prepared: look again in a minute.",
    photoAlt: (index: number, count: number) => `Build photo ${index} of ${count}`,
    answerHeading: "Send a message",
    answerLabel: "Your message",
    send: "Send",
    sent: "Thank you: your message was sent.",
    answerEmpty: "Write a message first.",
    answerTooLong: (max: number) => `A message is at most ${max} characters.`,
    notStored: "Your message could not be sent just now. Please try again in a minute.",
    tooMany: "Too many tries. Please wait a while and try again.",
  },
  /** The e-mail to the customer about an update (queued by the customer-mail outbox). */
  mail: {
    subject: "New photos of your build",
    greeting: (name: string) => `Hello ${name},`,
    intro: (business: string) => `${business} posted an update on your build:`,
    link: "See it on your build page:",
    closing: "You can answer from the page.",
  },
  /** The owner's announcement of an answer (sent by the login alerts' sender). */
  answerAlert: {
    head: "Your customer answered on the build page",
    intro: (name: string) => `${name} wrote:`,
    open: "Open the enquiry:",
    button: "Open the enquiry",
  },
} as const;
