/** The privacy page (the links to it are in shared.ts). The numbers come from the config. */
import type { SiteNames } from "./shared";

export const privacyPage = {
  title: (businessName: string) => `Privacy | ${businessName}`,
  description: (businessName: string) =>
    `What ${businessName} keeps when you send an enquiry, why, for how long, and how to have it erased.`,
  heading: "Privacy",
  intro:
    "We keep as little as we can, for as short a time as we can. This page says exactly what happens to what you send us.",
  storedHeading: "What we keep",
  stored:
    "When you send the contact form we store your name, your e-mail address, your message and the time it arrived. " +
    "We do not store your IP address with your enquiry (the server only counts recent posts per address, for an hour at " +
    "most, to stop floods), and the site sets no cookies and uses no tracking or analytics.",
  whyHeading: "Why",
  why:
    "Only to read your enquiry and answer it. We never sell it, share it for marketing or add you to a mailing list " +
    "you did not ask for.",
  listHeading: "The list for when orders open",
  /** "Tell me when orders open" (docs/waitlist.md); the 7 days are the store's (app/store/waitlist.server.ts). */
  list: (confirmDays: number) =>
    [
      "When orders are closed you can ask us to e-mail you when they open. For that we keep your e-mail address, when " +
        "you asked, when you confirmed and, if you leave, when you unsubscribed.",
      `We send one e-mail to confirm that the address is yours. If it is not confirmed within ${confirmDays} days, we ` +
        "delete the address and send nothing more.",
      "A confirmed address gets one e-mail when orders open, and is kept until you unsubscribe or ask us to erase it; " +
        "after you unsubscribe we keep only the address and its dates, so that the list never mails you again.",
      "To leave, use the unsubscribe link in any e-mail from the list (one click), or write to us.",
    ].join(" "),
  howLongHeading: "For how long",
  howLong: (days: number) =>
    `Enquiries are deleted automatically ${days} days after they arrive, with every record of their notifications; ` +
    "the inbox's own records of who did what (logins, exports) are deleted after the same time.",
  spamHowLong: (days: number) =>
    `Messages our filter holds back as spam are deleted after ${days} days. If yours was one by mistake, we can still ` +
    "find it and answer within that time.",
  whoHeading: "Who sees it",
  who: (businessName: string, channels: { email: boolean; chat: boolean }) =>
    [
      `The people who run ${businessName}.`,
      channels.email ? "A copy of each enquiry is e-mailed to the business's own mailbox." : "",
      channels.chat ? "A short notice with your enquiry is posted to the team's private chat channel." : "",
      "Nobody else.",
    ]
      .filter(Boolean)
      .join(" "),
  erasureHeading: "Having it erased",
  /**
   * `overwrittenAtOnce`: SQLite overwrites deleted rows at the erase; PostgreSQL reuses their space later.
   * `backupDays`: the longest the site's own backups keep an erased enquiry (BACKUP_KEEP_DAILY); null when the
   * database's backups are made outside the site (PostgreSQL).
   */
  erasure: (overwrittenAtOnce: boolean, backupDays: number | null) =>
    [
      "Send us a message through the contact form, from the e-mail address you used, and ask us to erase your data.",
      "We delete every enquiry from that address, with every record of its notifications.",
      overwrittenAtOnce
        ? "The site's database overwrites what was deleted within seconds."
        : "The site's database never shows what was deleted again, and overwrites it as the space is reused.",
      "The site's logs do not record your words or your address.",
      "We keep only a keyed fingerprint of the address, from which the address cannot be read back, so that an old " +
        "copy of our inbox can never bring your enquiries back.",
      "Our season's figures go on counting your enquiry as a number (the month it arrived, whether it became an " +
        "order and at what price), with nothing that says who sent it or what it said.",
      "The copies e-mailed or posted to our team when your enquiry arrived are not in the site: we delete those by " +
        "hand.",
      backupDays === null
        ? "A backup made before the erase keeps your enquiry until that backup is deleted."
        : `A backup made before the erase keeps your enquiry until that backup is deleted: backups are deleted ` +
          `automatically, the last of them within ${backupDays} ${backupDays === 1 ? "day" : "days"} of the erase.`,
      "We confirm by e-mail.",
    ].join(" "),
  contactLink: "Write to us",
} as const;

export function privacyMeta(site: SiteNames) {
  return { title: privacyPage.title(site.business.name), description: privacyPage.description(site.business.name) };
}
