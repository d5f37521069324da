import type { AppLoadContext } from "@remix-run/node";
import { data, redirect } from "@remix-run/react";
import { announcementText } from "~/wording/announcement";
import { requireRecentFactor, type OperatorSession } from "~/owner/gate.server";
import { privateHeaders } from "~/owner/headers";
import { stepUpReturn } from "~/owner/step-up";
import { orderWindow } from "~/site-content/order-window";
import type { SiteContent } from "~/site-content/schema.server";
import type { InboxStore } from "~/store/store.types";
import { announcementLimits, waitlistOwnerCopy } from "~/wording/waitlist-owner";

/**
 * The Waitlist page's announcement (issue 35): whether the season has one to offer, its words prefilled from the
 * season, judged, previewed, and stored (one list mail per confirmed address, sent by the list's outbox sender).
 */

const copy = waitlistOwnerCopy.announce;

export interface AnnouncementWords {
  subject: string;
  message: string;
}

export interface AnnouncementRefusal extends AnnouncementWords {
  problems: { field: "announce-subject" | "announce-message" | null; text: string }[];
}

/** What the page's action gives back: a preview of the words, or a refusal with the words as typed. */
export type AnnounceAnswer =
  | { announce: { preview: { subject: string; text: string; people: number } } & AnnouncementWords }
  | { announce: AnnouncementRefusal };

const formatDay = (date: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" }).format(
    new Date(`${date}T00:00:00Z`),
  );

/** The words the season prefills: "Orders for the 2027 haunt season are open", the close date when set. */
export function seasonWords(content: SiteContent, publicUrl: string): AnnouncementWords {
  const { year, closesOn } = content.season;
  return {
    subject: waitlistOwnerCopy.season.subject(year),
    message: waitlistOwnerCopy.season.message(
      year,
      content.business.name,
      new URL("/contact", publicUrl).href,
      closesOn ? formatDay(closesOn) : null,
    ),
  };
}

/**
 * Where the season's announcement stands: `offer` when the published site has orders open for its season year, that
 * season has no announcement yet, at least one address is confirmed and this server sends e-mail (so a publish that
 * opened orders, closed → open or a new season year, offers it once); `progress` once it is stored.
 */
export async function announcementState(
  store: Pick<InboxStore, "announcementProgress" | "waitlistCounts">,
  context: AppLoadContext,
  now = new Date(),
) {
  const content = context.site.content;
  const season = String(content.season.year);
  const open = orderWindow(content.season, now, context.services.config.timeZone).open;
  const [progress, counts] = await Promise.all([store.announcementProgress(season), store.waitlistCounts()]);
  const canSend = Boolean(context.services.config.notify?.email);
  const offer = open && !progress && counts.confirmed > 0 && canSend;
  return { season, year: content.season.year, open, progress, counts, canSend, offer };
}

const characters = (text: string) => [...text].length;

/** The form's words judged: the words to send, or what was wrong (with the words as typed). */
export function judgeAnnouncement(form: FormData): AnnouncementWords | AnnouncementRefusal {
  const typedSubject = String(form.get("subject") ?? "");
  const message = String(form.get("message") ?? "").replace(/\r\n?/g, "\n");
  const subject = typedSubject.trim();
  const problems: AnnouncementRefusal["problems"] = [];
  if (subject === "") problems.push({ field: "announce-subject", text: copy.subjectMissing });
  else if (/[\r\n]/.test(subject)) problems.push({ field: "announce-subject", text: copy.subjectLines });
  else if (characters(subject) > announcementLimits.subject)
    problems.push({ field: "announce-subject", text: copy.subjectTooLong(characters(subject)) });
  if (message.trim() === "") problems.push({ field: "announce-message", text: copy.messageMissing });
  else if (characters(message) > announcementLimits.message)
    problems.push({ field: "announce-message", text: copy.messageTooLong(characters(message)) });
  return problems.length > 0 ? { subject: typedSubject, message, problems } : { subject, message };
}

const refused = (refusal: AnnouncementRefusal, status: 409 | 422) =>
  data({ announce: refusal } satisfies AnnounceAnswer, { status, headers: privateHeaders });

/**
 * The Waitlist page's `intent=preview` and `intent=send`. Preview: the mail as it will go (with the unsubscribe line).
 * Send (step-up, like the export): stored once per season, then back to the page with its progress; a second send,
 * or one when orders are not open or nobody is confirmed, is refused in words with the words kept.
 */
export async function announceAction(
  intent: "preview" | "send",
  form: FormData,
  session: OperatorSession,
  context: AppLoadContext,
  /** The signature the mails carry now (the route has it from the notifications' sender). */
  signatureLines: readonly string[],
) {
  const { store, operator } = session;
  const judged = judgeAnnouncement(form);
  if ("problems" in judged) return refused(judged, 422);
  const state = await announcementState(store, context);
  const words = { subject: judged.subject, message: judged.message };
  if (intent === "preview") {
    const text = announcementText(judged.message, waitlistOwnerCopy.mail.previewLink, signatureLines);
    return data(
      { announce: { ...words, preview: { subject: judged.subject, text, people: state.counts.confirmed } } },
      { headers: privateHeaders },
    );
  }
  // Every confirmed address at once: an operator with a second factor proves it again when the last one is old. The
  // code page comes back to the announcement's form (prefilled again: nothing was sent).
  await requireRecentFactor(session, stepUpReturn.announce);
  if (state.progress) return refused({ ...words, problems: [{ field: null, text: copy.already(state.season) }] }, 409);
  const email = context.services.config.notify?.email;
  if (!state.canSend || !email) return refused({ ...words, problems: [{ field: null, text: copy.notSetUp }] }, 409);
  if (!state.open) return refused({ ...words, problems: [{ field: null, text: copy.notOpen }] }, 409);
  if (state.counts.confirmed === 0)
    return refused({ ...words, problems: [{ field: null, text: copy.noneConfirmed }] }, 409);
  const stored = await store.createAnnouncement({
    season: state.season,
    subject: judged.subject,
    body: judged.message,
    actor: operator.email,
    messageDomain: email.from.slice(email.from.lastIndexOf("@") + 1),
  });
  // Another operator's send got there first (exactly one is stored).
  if (!stored) return refused({ ...words, problems: [{ field: null, text: copy.already(state.season) }] }, 409);
  await store.logActivity({
    actor: operator.email,
    action: "announced",
    detail: waitlistOwnerCopy.activity.announced(stored.season, stored.total),
  });
  // The first mail goes now rather than at the sender's next look (the other instances find the rest as they poll).
  context.services.wakeListMail?.();
  return redirect("/inbox/waitlist?done=announced", { status: 303, headers: privateHeaders });
}
