import type { Channel, StoredEnquiry } from "~/store/records";

/**
 * The outbox's part of the store: claiming due notifications and settling each claim (app/store/notifications.server.ts).
 */

/** A notification this process holds a lease on until `claimUntil`; only the holder can settle it. */
export interface ClaimedNotification {
  id: string;
  channel: Channel;
  /** Attempts so far, this one included. */
  attempts: number;
  /** When this round of delivery began (the enquiry was stored, or `inbox retry` put it back): retries stop a set time after it. */
  windowStart: Date;
  claimUntil: Date;
  /** Identifies this claim: a settle with an expired, taken-over claim changes nothing. */
  claimToken: string;
  enquiry: StoredEnquiry;
  /** The request that stored it (or the owner's resend), for the outbox's log lines; none for older rows. */
  requestId?: string;
}

/** The outbox's side (app/store/notifications.server.ts). */
export interface NotificationStore {
  /** Claims up to `limit` due notifications (pending, due, unclaimed or with an expired lease) for `owner`. */
  claimDue(owner: string, limit: number, now?: Date, only?: readonly Channel[]): Promise<ClaimedNotification[]>;
  markSent(claim: ClaimedNotification, now?: Date): Promise<boolean>;
  markRetry(claim: ClaimedNotification, error: string, nextAttemptAt: Date): Promise<boolean>;
  markFailed(claim: ClaimedNotification, error: string, now?: Date): Promise<boolean>;
  /** When the next pending notification becomes due (or its lease expires); null when none is pending. */
  nextDueAt(): Promise<Date | null>;
  /** Puts failed notifications back to pending, due now. Resolves with how many. */
  retryFailed(now?: Date): Promise<number>;
  /** Per channel with any: notifications pending and failed, and since when the oldest pending one waits (metrics). */
  queueByChannel(): Promise<ChannelQueue[]>;
}

export interface ChannelQueue {
  channel: Channel;
  pending: number;
  failed: number;
  /** When the oldest pending notification's delivery began (stored, or put back by a resend); null: none pending. */
  oldestPendingSince: Date | null;
}
