import type { Channel, EnquiryStatus, NotificationState, StoredEnquiry } from "~/store/types";

/**
 * What the owner's inbox on the web (issue 16) and the operator commands need from the database, beside the
 * InboxStore's enquiry and notification operations: operators, sessions, the login throttle, the activity log, and
 * the inbox's pages (folders, search, one enquiry with its delivery timeline).
 */

/** New: not handled yet (unread or read); the others are statuses; all: everything. */
export const folders = ["new", "handled", "spam", "all"] as const;
export type Folder = (typeof folders)[number];

export interface Operator {
  id: string;
  email: string;
  createdAt: Date;
}

export interface OperatorWithHash extends Operator {
  passwordHash: string;
}

export interface SessionRecord {
  operator: Operator;
  createdAt: Date;
}

export interface ActivityEntry {
  id: string;
  at: Date;
  actor: string;
  action: string;
  enquiryId: string | null;
  detail: string | null;
}

export interface NewActivity {
  actor: string;
  action: string;
  enquiryId?: string | null;
  detail?: string | null;
}

export interface DeliveryStep {
  channel: Channel;
  state: NotificationState;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
  sentAt: Date | null;
}

export interface EnquiryWithDelivery extends StoredEnquiry {
  notifications: DeliveryStep[];
}

export interface InboxQuery {
  folder: Folder;
  /** Matched (case-insensitively) in the name, the address and the message. */
  search?: string;
}

export interface OwnerStore {
  /** Adds the operator, or gives an existing one (same address, any case) the new password and ends its sessions. */
  putOperator(email: string, passwordHash: string, now?: Date): Promise<{ created: boolean }>;
  findOperator(email: string): Promise<OperatorWithHash | null>;
  listOperators(): Promise<Operator[]>;
  /** Removes the operator and its sessions; false when there was none. */
  removeOperator(email: string): Promise<boolean>;
  /** Ends every session of the operator; resolves with how many (null: no such operator). */
  revokeSessions(email: string): Promise<number | null>;

  createSession(idHash: string, operatorId: string, now?: Date): Promise<void>;
  /**
   * The live session with this id hash, its last use moved to now; null (and the row deleted) when it is unknown,
   * idle for longer than `idleMs` or older than `maxAgeMs`.
   */
  useSession(idHash: string, limits: { idleMs: number; maxAgeMs: number }, now?: Date): Promise<SessionRecord | null>;
  deleteSession(idHash: string): Promise<void>;

  /**
   * Counts one login attempt for this account from this client, atomically (every instance shares the count), and
   * resolves with the window's count so far, this one included, and when the window started. A window older than
   * `windowMs` starts again at 1; windows that old are forgotten.
   */
  countLoginAttempt(
    accountKey: string,
    client: string,
    windowMs: number,
    now?: Date,
  ): Promise<{ attempts: number; windowStart: Date }>;
  /** Gives back one counted attempt (one that was not a wrong guess: the right password, or not checked at all). */
  refundLoginAttempt(accountKey: string, client: string): Promise<void>;

  logActivity(entry: NewActivity, now?: Date): Promise<void>;
  /** Newest first. */
  listActivity(options: { limit: number; offset?: number }): Promise<ActivityEntry[]>;

  /** One page of the inbox, newest first; `hasMore` when a later page exists. */
  inboxPage(
    query: InboxQuery,
    page: { limit: number; offset: number },
  ): Promise<{ items: EnquiryWithDelivery[]; hasMore: boolean }>;
  /** Every enquiry of the query, newest first, in pages (for the CSV export). */
  inboxAll(query: InboxQuery): AsyncIterable<EnquiryWithDelivery>;
  /** How many enquiries each folder holds (with `search` applied when given). */
  folderCounts(search?: string): Promise<Record<Folder, number>>;
  getEnquiry(id: string): Promise<EnquiryWithDelivery | null>;
  /** Every enquiry of this address (any case), newest first: what an erase removes. */
  enquiriesFrom(email: string): Promise<EnquiryWithDelivery[]>;
  /** Sets the status; resolves with the previous one (null: no such enquiry). */
  setStatus(id: string, status: EnquiryStatus): Promise<EnquiryStatus | null>;
  /** new -> read, with its activity entry in the same transaction; anything else stays. True when it changed. */
  markRead(id: string, actor: string, now?: Date): Promise<boolean>;
  /** Sends the channel's notification again from the start (a new one when there was none). False: no such enquiry. */
  resend(id: string, channel: Channel, now?: Date): Promise<boolean>;
}
