import { waitlistOwnerCopy } from "~/wording/waitlist-owner";

/**
 * The announcement's text as each address gets it: the owner's words, the business's signature, then why it came and
 * the address's own unsubscribe link. The Waitlist page's preview shows it with a placeholder for the link; the list's
 * sender writes the mail with it (one text for both, so the preview is the mail).
 */
export function announcementText(body: string, unsubscribeUrl: string, signature: readonly string[]): string {
  const { why, unsubscribe } = waitlistOwnerCopy.mail;
  return [body.replace(/\r\n?/g, "\n").trimEnd(), "", ...signature, "", why, unsubscribe(unsubscribeUrl), ""].join(
    "\n",
  );
}
