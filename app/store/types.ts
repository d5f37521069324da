import type { OwnerStore } from "~/store/owner-types";

/**
 * The embedded inbox's storage contract, the same on SQLite and PostgreSQL. An enquiry and its pending
 * notifications are committed together; the outbox claims due notifications, sends them and settles each claim.
 */

export const channels = ["email", "webhook"] as const;
export type Channel = (typeof channels)[number];
export type NotificationState = "pending" | "sent" | "failed";

/** What a visitor sent, validated and trimmed. */
export interface NewEnquiry {
  name: string;
  email: string;
  message: string;
}

/** new: not opened yet; read: opened in the inbox; handled: answered; spam: held aside by the spam filter. */
export const enquiryStatuses = ["new", "read", "handled", "spam"] as const;
export type EnquiryStatus = (typeof enquiryStatuses)[number];

export interface StoredEnquiry extends NewEnquiry {
  id: string;
  receivedAt: Date;
  status: EnquiryStatus;
  /** Why the spam filter held it (empty unless status is spam). */
  spamReasons: string[];
}

/** `duplicate`: the same address sent the same message within the duplicate window; nothing new was stored. */
export interface SaveResult {
  id: string;
  duplicate: boolean;
}

/** A notification this process holds a lease on until `claimUntil`; only the holder can settle it. */
export interface ClaimedNotification {
  id: string;
  channel: Channel;
  /** Attempts so far, this one included. */
  attempts: number;
  /** When this round of delivery began (the enquiry was stored, or `inbox retry` put it back): retries stop a set time after it. */
  createdAt: Date;
  claimUntil: Date;
  /** Identifies this claim: a settle with an expired, taken-over claim changes nothing. */
  claimToken: string;
  enquiry: StoredEnquiry;
}

export interface NotificationSummary {
  channel: Channel;
  state: NotificationState;
  attempts: number;
  lastError: string | null;
  /** When the next attempt is due (pending only; null once sent or failed). */
  nextAttemptAt: Date | null;
}

export interface ListedEnquiry extends StoredEnquiry {
  notifications: NotificationSummary[];
}

/** A line of the v1 JSON-lines inbox. */
export interface V1Record {
  receivedAt: string;
  name: string;
  email: string;
  message: string;
}

/** What a purge deleted. */
export interface PurgeResult {
  enquiries: number;
  spam: number;
  notifications: number;
  activity: number;
  formTokens: number;
}

/** A v1 file the import read to the end. */
export interface V1FileSeen {
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
}

export interface InboxStore extends OwnerStore {
  /**
   * Stores the enquiry with one pending notification per channel, in one transaction (or finds its duplicate). With
   * spam reasons it is stored as spam, with its reasons and no notification.
   */
  save(
    enquiry: NewEnquiry,
    channels: readonly Channel[],
    now?: Date,
    spamReasons?: readonly string[],
  ): Promise<SaveResult>;
  /** A key of this name, made (32 random bytes) at its first use and shared by every instance on this database. */
  siteKey(name: string): Promise<Buffer>;
  /** Records a form token as used; false when it was used before. */
  useFormToken(id: string, expiresAt: Date): Promise<boolean>;
  /** A spam enquiry becomes new and gets its notifications now (once). "not-spam" when it was not spam. */
  markNotSpam(
    id: string,
    channels: readonly Channel[],
    actor: string,
    now?: Date,
  ): Promise<"done" | "not-spam" | "not-found">;
  /**
   * Deletes enquiries received before the cut-offs, with their notifications and activity, and every activity entry
   * older than the enquiries' cut-off; one purge at a time.
   */
  purge(cutoffs: { enquiriesBefore: Date; spamBefore: Date }, now?: Date): Promise<PurgeResult>;
  /** Whether a v1 file of this size and modification time (or, when given, content hash) was imported whole. */
  v1FileImported(file: { size: number; mtimeMs: number; sha256?: string }): Promise<boolean>;
  /** Remembers a v1 file the import read to the end. */
  rememberV1File(file: V1FileSeen, now?: Date): Promise<void>;
  /**
   * Imports v1 lines; each line is imported once, however often this runs, and never one from an erased address.
   * Resolves with the number newly added.
   */
  importV1(records: readonly V1Record[]): Promise<number>;
  /** Claims up to `limit` due notifications (pending, due, unclaimed or with an expired lease) for `owner`. */
  claimDue(owner: string, limit: number, now?: Date, only?: readonly Channel[]): Promise<ClaimedNotification[]>;
  markSent(claim: ClaimedNotification, now?: Date): Promise<boolean>;
  markRetry(claim: ClaimedNotification, error: string, nextAttemptAt: Date): Promise<boolean>;
  markFailed(claim: ClaimedNotification, error: string, now?: Date): Promise<boolean>;
  /** When the next pending notification becomes due (or its lease expires); null when none is pending. */
  nextDueAt(): Promise<Date | null>;
  /** Newest first, in pages, so a large inbox streams. */
  list(options?: { since?: Date }): AsyncIterable<ListedEnquiry>;
  /** Puts failed notifications back to pending, due now. Resolves with how many. */
  retryFailed(now?: Date): Promise<number>;
  /**
   * Deletes every enquiry from this address (any case) with its notifications and activity, and remembers the
   * address as a keyed hash so no import brings them back; then leaves no copy in the database's files (SqlClient
   * scrub). Resolves with how many enquiries.
   */
  erase(email: string, now?: Date): Promise<number>;
  /** Resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
