/**
 * The Message-IDs the site gives its e-mails, in one place: the enquiry's notification carries the enquiry's own, and
 * every mail to the customer about that enquiry (a reply, a build update) answers it, so the customer's mail program
 * threads the conversation. Each id is fixed when the mail is made and kept for every attempt, so a repeated send
 * shows once in a client that merges by Message-ID.
 */

/** The domain of NOTIFY_EMAIL_FROM's address: the right-hand side of every Message-ID the site makes. */
export const mailDomain = (fromAddress: string): string => fromAddress.slice(fromAddress.lastIndexOf("@") + 1);

/** Only what is safe inside `<…@…>` (ids are UUIDs; a v1 import's may carry anything). */
const idPart = (id: string) => id.replace(/[^A-Za-z0-9.-]/g, "");

/** The Message-ID of an enquiry's notification e-mail: `<enquiry-{id}@{domain of fromAddress}>`. */
export const enquiryMessageId = (enquiryId: string, fromAddress: string): string =>
  `<enquiry-${idPart(enquiryId)}@${mailDomain(fromAddress)}>`;

/** The Message-ID of one mail to a customer: `<{kind}-{mail id}@{domain of fromAddress}>`. */
export const customerMailMessageId = (kind: string, mailId: string, fromAddress: string): string =>
  `<${idPart(kind)}-${idPart(mailId)}@${mailDomain(fromAddress)}>`;
