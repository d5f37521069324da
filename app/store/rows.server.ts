import type { ActivityEntry, Operator, SessionStage } from "~/store/owner.types";
import type {
  Channel,
  EnquiryStatus,
  NotificationState,
  NotificationSummary,
  SpamDecision,
  SpamVerdictName,
  StoredEnquiry,
} from "~/store/records";
import type { Row } from "~/store/sql.server";
import {
  eventKinds,
  lostReasons,
  stages,
  type Commission,
  type EnquiryEvent,
  type EventKind,
  type LostReason,
  type Stage,
} from "~/store/pipeline.types";

/**
 * Rows to typed objects, and the one value the store derives from an address. Times are stored as milliseconds since
 * the epoch (BIGINT).
 */

/** How an address is matched (email_key): the same mailbox in any case, spaces around it ignored. */
export const emailKey = (email: string) => email.trim().toLowerCase();

export const time = (value: unknown) => new Date(Number(value));
export const timeOrNull = (value: unknown) => (value === null || value === undefined ? null : time(value));
const textOrNull = (value: unknown) => (value === null || value === undefined ? null : String(value));

export function enquiryFrom(row: Row): StoredEnquiry {
  return {
    id: String(row.id),
    receivedAt: time(row.received_at),
    name: String(row.name),
    email: String(row.email),
    message: String(row.message),
    status: (row.status ?? "new") as EnquiryStatus,
    spamVerdict: (row.spam_verdict ?? "none") as SpamVerdictName,
    spamScore: row.spam_score === null || row.spam_score === undefined ? null : Number(row.spam_score),
    spamReasons: row.spam_reasons ? (JSON.parse(String(row.spam_reasons)) as string[]) : [],
    spamDecision: (row.spam_decision ?? null) as SpamDecision | null,
    // Only when there is one, so an enquiry about no project reads (and lists in --json) as before.
    ...(row.about_project_id === null || row.about_project_id === undefined
      ? {}
      : {
          about: {
            projectId: String(row.about_project_id),
            slug: String(row.about_slug ?? ""),
            title: String(row.about_title ?? ""),
          },
        }),
  };
}

export const notificationFrom = (row: Row): NotificationSummary => ({
  channel: row.channel as Channel,
  state: row.state as NotificationState,
  attempts: Number(row.attempts),
  lastError: textOrNull(row.last_error),
  nextAttemptAt: row.state === "pending" ? timeOrNull(row.next_attempt_at) : null,
  sentAt: timeOrNull(row.sent_at),
});

export const operatorFrom = (row: Row): Operator => ({
  id: String(row.id),
  email: String(row.email),
  createdAt: time(row.created_at),
});

/** A stage read back from the database; anything unknown is the most restricted one. */
export const sessionStage = (value: unknown): SessionStage =>
  value === "full" || value === "setup" ? value : "password";

export const activityFrom = (row: Row): ActivityEntry => ({
  id: String(row.id),
  at: time(row.at),
  actor: String(row.actor),
  action: String(row.action),
  enquiryId: textOrNull(row.enquiry_id),
  detail: textOrNull(row.detail),
});

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** An enquiry row's commission columns (schema v16); a row from before them reads as New, waiting since it arrived. */
export function commissionFrom(row: Row): Commission {
  const stage = stages.includes(row.stage as Stage) ? (row.stage as Stage) : "new";
  return {
    stage,
    stageAt: timeOrNull(row.stage_at),
    lostReason: lostReasons.includes(row.lost_reason as LostReason) ? (row.lost_reason as LostReason) : null,
    quoteAmount: numberOrNull(row.quote_amount),
    quoteValidUntil: textOrNull(row.quote_valid_until),
    depositAmount: numberOrNull(row.deposit_amount),
    neededBy: textOrNull(row.needed_by),
    service: textOrNull(row.service),
    revision: Number(row.revision ?? 0),
    customerAt: time(row.customer_at ?? row.received_at),
    answeredAt: timeOrNull(row.answered_at),
    firstReplyAt: timeOrNull(row.first_reply_at),
    deliveredAt: timeOrNull(row.delivered_at),
  };
}

export const eventFrom = (row: Row): EnquiryEvent => ({
  id: String(row.id),
  enquiryId: String(row.enquiry_id),
  at: time(row.at),
  kind: eventKinds.includes(row.kind as EventKind) ? (row.kind as EventKind) : "note",
  actor: String(row.actor),
  body: textOrNull(row.body),
  detail: row.detail ? (JSON.parse(String(row.detail)) as Record<string, unknown>) : null,
});
