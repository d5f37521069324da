import { data, redirect } from "@remix-run/react";
import type { Config } from "~/config.server";
import type { BodyCap } from "~/http/body-cap";
import { isSingleMailbox } from "~/text/mailbox";
import { privateHeaders } from "~/owner/headers";
import type { SiteServices } from "~/site-services.server";
import type { ReplyPanelData, ReplyRefusal } from "~/owner/replies";
import type { InboxStore } from "~/store/store.types";
import { replyLimits, repliesCopy } from "~/wording/replies";

/**
 * Replying to the customer from the enquiry's page: what the page shows (the form, or a mailto: link when this server
 * sends no e-mail, and the mails sent so far with their delivery) and the post that stores a reply. The reply is
 * stored with its threading, its timeline line and the stage in one transaction (app/store/outgoing-mail.server.ts)
 * and sent by the background sender (server/customer-mail-loop.ts), which is woken here.
 */

/**
 * The enquiry page's body cap: a reply's longest message (10,000 characters) must fit however it is written: 4 bytes
 * of UTF-8 each, each byte 3 characters of a urlencoded form, is 120,000 bytes, past the default 64 KiB.
 */
export const replyBodyCap: BodyCap = { maxBytes: 128 * 1024 };

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function mailtoLink(address: string, subject: string): string {
  return `mailto:${encodeURIComponent(address.trim()).replace(/%40/g, "@")}?subject=${encodeURIComponent(subject)}`;
}

/** The enquiry page's Replies part (its loader adds this as `replies`). */
export async function replyPanel(
  store: Pick<InboxStore, "outgoingMailOf">,
  enquiry: { id: string; email: string },
  config: Pick<Config, "notify">,
  businessName: string,
): Promise<ReplyPanelData> {
  const mails = await store.outgoingMailOf(enquiry.id);
  const previous = [...mails].reverse().find((mail) => mail.kind === "reply")?.subject ?? null;
  const subject = repliesCopy.subjectStart(previous, businessName);
  return {
    canSend: Boolean(config.notify?.email),
    to: enquiry.email,
    subject,
    mailto: mailtoLink(enquiry.email, subject),
    mails: mails.map((mail) => ({
      id: mail.id,
      kind: mail.kind,
      subject: mail.subject,
      body: mail.body,
      state: mail.state,
      attempts: mail.attempts,
      createdAt: mail.createdAt.toISOString(),
      nextAttemptAt: iso(mail.nextAttemptAt),
      sentAt: iso(mail.sentAt),
      lastError: mail.lastError,
    })),
    now: new Date().toISOString(),
  };
}

const characters = (text: string) => [...text].length;

/** The form's fields judged: the reply to store, or what was wrong (with the text as typed). */
export function judgeReply(form: FormData): { subject: string; message: string } | ReplyRefusal {
  const typedSubject = String(form.get("subject") ?? "");
  const message = String(form.get("message") ?? "").replace(/\r\n?/g, "\n");
  const subject = typedSubject.trim();
  const problems: ReplyRefusal["problems"] = [];
  if (subject === "") problems.push({ field: "reply-subject", text: repliesCopy.subjectMissing });
  else if (/[\r\n]/.test(subject)) problems.push({ field: "reply-subject", text: repliesCopy.subjectLines });
  else if (characters(subject) > replyLimits.subject)
    problems.push({ field: "reply-subject", text: repliesCopy.subjectTooLong(characters(subject)) });
  if (message.trim() === "") problems.push({ field: "reply-message", text: repliesCopy.messageMissing });
  else if (characters(message) > replyLimits.message)
    problems.push({ field: "reply-message", text: repliesCopy.messageTooLong(characters(message)) });
  return problems.length > 0 ? { subject: typedSubject, message, problems } : { subject, message };
}

const refused = (refusal: ReplyRefusal, status: 409 | 422) =>
  data({ reply: refusal }, { status, headers: privateHeaders });

/**
 * The enquiry page's `intent=reply`: stores the reply and wakes the sender, then back to the page (post/redirect/get);
 * refused input comes back with what was typed and why (422; 409 when this server sends no e-mail or the customer's
 * address is not one mailbox). 404 when there is no such enquiry.
 */
export async function sendReply(
  form: FormData,
  {
    enquiryId,
    actor,
    store,
    services,
  }: {
    enquiryId: string;
    actor: string;
    store: Pick<InboxStore, "getEnquiry" | "queueReply">;
    services: Pick<SiteServices, "config" | "wakeCustomerMail">;
  },
) {
  const judged = judgeReply(form);
  if ("problems" in judged) return refused(judged, 422);
  const enquiry = await store.getEnquiry(enquiryId);
  if (!enquiry) throw new Response(null, { status: 404, headers: privateHeaders });
  const email = services.config.notify?.email;
  const typed = { subject: judged.subject, message: judged.message };
  if (!email) return refused({ ...typed, problems: [{ field: null, text: repliesCopy.notSetUp }] }, 409);
  if (!isSingleMailbox(enquiry.email.trim()))
    return refused({ ...typed, problems: [{ field: null, text: repliesCopy.noAddress }] }, 409);
  const stored = await store.queueReply({
    enquiryId,
    subject: judged.subject,
    body: judged.message,
    actor,
    fromAddress: email.from,
  });
  if (!stored) throw new Response(null, { status: 404, headers: privateHeaders });
  services.wakeCustomerMail?.();
  return redirect(`/inbox/${encodeURIComponent(enquiryId)}?done=reply`, { status: 303, headers: privateHeaders });
}
