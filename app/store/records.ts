import type { Commission } from "~/store/pipeline.types";

/**
 * The rows several parts of the store share: an enquiry as stored and listed, its notifications' channels and states,
 * the spam filter's verdicts.
 */

export const channels = ["email", "webhook"] as const;
export type Channel = (typeof channels)[number];
export type NotificationState = "pending" | "sent" | "failed";

/**
 * The portfolio project an enquiry was sent about ("Ask for one like this"): its id, and its address and title as they
 * were then (the project may be renamed or removed later).
 */
export interface EnquiryAbout {
  projectId: string;
  slug: string;
  title: string;
}

/** What a visitor sent, validated and trimmed. */
export interface NewEnquiry {
  name: string;
  email: string;
  message: string;
  /** Absent (or null) for an enquiry about no project in particular. */
  about?: EnquiryAbout | null;
  /** The site's service it starts with in the pipeline (the project's, when it was sent about one). */
  service?: string | null;
}

/** new: not opened yet; read: opened in the inbox; handled: answered; spam: held aside by the spam filter. */
export const enquiryStatuses = ["new", "read", "handled", "spam"] as const;
export type EnquiryStatus = (typeof enquiryStatuses)[number];

/** The spam filter's three outcomes: announced as usual, announced marked "possible spam", kept aside as spam. */
export const spamVerdicts = ["none", "possible", "spam"] as const;
export type SpamVerdictName = (typeof spamVerdicts)[number];

/** What the spam filter said of an enquiry when it arrived. */
export interface SpamJudgementRecord {
  verdict: SpamVerdictName;
  /** 0..1; null for enquiries stored before the filter kept scores. */
  score: number | null;
  /** What weighed most for spam, in the owner's words. */
  reasons: string[];
}

/** The owner's decision about an enquiry ("Mark as spam", "Not spam"): what trains the spam model. */
export type SpamDecision = "spam" | "not-spam";

export interface StoredEnquiry extends NewEnquiry {
  id: string;
  receivedAt: Date;
  status: EnquiryStatus;
  /** The filter's verdict when it arrived; a possible-spam enquiry keeps the status new until the owner decides. */
  spamVerdict: SpamVerdictName;
  spamScore: number | null;
  /** What weighed most (for every verdict; empty when nothing pointed at spam). */
  spamReasons: string[];
  /** The owner's last decision, null when there was none. */
  spamDecision: SpamDecision | null;
}

/** One channel's notification of an enquiry, as far as it went. */
export interface NotificationSummary {
  channel: Channel;
  state: NotificationState;
  attempts: number;
  lastError: string | null;
  /** When the next attempt is due (pending only; null once sent or failed). */
  nextAttemptAt: Date | null;
  sentAt: Date | null;
}

/** An enquiry with its notifications and where it is in the pipeline, as the inbox lists it. */
export interface ListedEnquiry extends StoredEnquiry {
  notifications: NotificationSummary[];
  commission: Commission;
}
