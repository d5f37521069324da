/**
 * One mailbox and nothing else: no display name, comment, group, list, quote, or whitespace that an address parser
 * could turn into a second address. The form's validation already demands an e-mail shape; this is the last gate
 * before an address becomes a recipient or a Reply-To (app/notify/channels/email.server.ts and the customer mail).
 */
const singleMailbox = /^[^\s@,;:<>()[\]\\"]+@[^\s@,;:<>()[\]\\"]+$/;

export function isSingleMailbox(address: string): boolean {
  return address.length <= 254 && singleMailbox.test(address);
}
