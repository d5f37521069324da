/**
 * The commission pipeline's part of the store (app/store/pipeline.server.ts and its neighbours): an enquiry's stage and
 * what it carries, its timeline, and who is waiting for an answer. ADR 0043 says why the stage sits beside the status.
 */

/** New → Replied → Quoted → Deposit paid → Building → Delivered, or Lost with a reason. */
export const stages = ["new", "replied", "quoted", "deposit", "building", "delivered", "lost"] as const;
export type Stage = (typeof stages)[number];

/** The stages from Deposit paid on: a won commission, and the build page may be shared. */
export const wonStages: readonly Stage[] = ["deposit", "building", "delivered"];
/** The stages an enquiry is still open in (the pipeline page lists these). */
export const openStages: readonly Stage[] = ["new", "replied", "quoted", "deposit", "building"];

export const lostReasons = ["price", "timing", "no-answer", "elsewhere", "other"] as const;
export type LostReason = (typeof lostReasons)[number];

/**
 * What an enquiry's stage carries. Amounts are in the business's currency's minor unit (cents); dates are calendar
 * days (YYYY-MM-DD) in the site's time zone.
 */
export interface Commission {
  stage: Stage;
  /** When the stage was last set (null: New since it arrived). */
  stageAt: Date | null;
  lostReason: LostReason | null;
  quoteAmount: number | null;
  quoteValidUntil: string | null;
  depositAmount: number | null;
  neededBy: string | null;
  /** One of the site's services by name (an enquiry from a project page starts with that project's). */
  service: string | null;
  /** Bumped by every change the owner saves: a form sent with an older one is refused (two operators at once). */
  revision: number;
  /** The customer's newest message (the enquiry itself until they answer through the build page). */
  customerAt: Date;
  /** The owner's newest answer (a reply sent, "Mark handled", the stage set to Replied by hand); null: none yet. */
  answeredAt: Date | null;
  firstReplyAt: Date | null;
  deliveredAt: Date | null;
}

/** An enquiry is waiting when its newest message is the customer's and the owner has not answered since. */
export const isWaiting = (commission: Pick<Commission, "customerAt" | "answeredAt">): boolean =>
  commission.answeredAt === null || commission.answeredAt.getTime() < commission.customerAt.getTime();

/** What kind of entry a timeline line is. */
export const eventKinds = [
  "stage",
  "note",
  "reply",
  "customer",
  "update",
  "reminder",
  "build-page",
  "acknowledgement",
] as const;
export type EventKind = (typeof eventKinds)[number];

/** One line of an enquiry's timeline, oldest first on the page. */
export interface EnquiryEvent {
  id: string;
  enquiryId: string;
  at: Date;
  kind: EventKind;
  /** The operator's address, or "customer". */
  actor: string;
  /** A note's, a reply's, an answer's or an update's text; null for the others. */
  body: string | null;
  /** What the kind records besides (a stage change's from/to and amounts, a reply's mail id), as JSON. */
  detail: Record<string, unknown> | null;
}

/** What the owner's "Save stage" sets: the stage and everything it carries (null clears a field). */
export interface StageChange {
  stage: Stage;
  lostReason: LostReason | null;
  quoteAmount: number | null;
  quoteValidUntil: string | null;
  depositAmount: number | null;
  neededBy: string | null;
  service: string | null;
}

/**
 * A change saved (`saved`), refused because the enquiry changed since the form was loaded (`stale`: the other change
 * stays, the caller shows it beside what was typed), or no such enquiry (`missing`).
 */
export type StageSaved = { outcome: "saved"; changed: boolean } | { outcome: "stale" } | { outcome: "missing" };

/** Who is waiting for an answer: how many, and since when the one waiting longest. */
export interface WaitingSummary {
  count: number;
  oldestSince: Date | null;
}

/** An open enquiry as the pipeline page lists it. */
export interface PipelineItem {
  id: string;
  name: string;
  receivedAt: Date;
  stage: Stage;
  waiting: boolean;
  /** The customer's newest message (when waiting: since when). */
  customerAt: Date;
  quoteAmount: number | null;
  neededBy: string | null;
  service: string | null;
}

/** One stage of the pipeline page: how many are in it, their quoted total, and the enquiries (waiting first, oldest first). */
export interface PipelineStage {
  stage: Stage;
  count: number;
  quotedTotal: number;
  items: PipelineItem[];
}

/** The pipeline's part of the store (app/store/pipeline.server.ts). */
export interface PipelineStore {
  /**
   * Sets the stage and what it carries when the enquiry is still at `revision` (the form's), bumping it, with a timeline
   * line and an activity entry, in one transaction. Leaving New counts as the owner's first answer (figures); Replied
   * set by hand is an answer (the owner wrote from elsewhere).
   */
  saveStage(id: string, change: StageChange, revision: number, actor: string, now?: Date): Promise<StageSaved>;
  /** A private note in the timeline (its text never in the activity log). False: no such enquiry. */
  addNote(id: string, text: string, actor: string, now?: Date): Promise<boolean>;
  /** The enquiry's timeline, oldest first. */
  timeline(id: string): Promise<EnquiryEvent[]>;
  waiting(): Promise<WaitingSummary>;
  /** The open stages with their enquiries (at most `perStage` each; `count` is all of them). */
  pipeline(perStage: number): Promise<PipelineStage[]>;
}
