import type { Channel, EnquiryStatus, ListedEnquiry, NewEnquiry, SpamJudgementRecord } from "~/store/records";

/**
 * The enquiries' part of the store: an enquiry's way in and what the owner does with it (app/store/enquiries.server.ts).
 */

/** `duplicate`: the same address sent the same message within the duplicate window; nothing new was stored. */
export interface SaveResult {
  id: string;
  duplicate: boolean;
}

/** New: not handled yet (unread or read); the others are statuses; all: everything. */
export const folders = ["new", "handled", "spam", "all"] as const;
export type Folder = (typeof folders)[number];

export interface InboxQuery {
  folder: Folder;
  /** Matched (case-insensitively) in the name, the address and the message. */
  search?: string;
}

/** An enquiry's way in and what the owner does with it (app/store/enquiries.server.ts). */
export interface EnquiryStore {
  /**
   * Stores the enquiry with one pending notification per channel, in one transaction (or finds its duplicate), with
   * the spam filter's judgement. A verdict of spam is stored with the status spam and no notification.
   */
  /** `requestId`: the request storing it; the outbox's lines about its notifications carry it. */
  save(
    enquiry: NewEnquiry,
    channels: readonly Channel[],
    now?: Date,
    spam?: SpamJudgementRecord,
    requestId?: string,
  ): Promise<SaveResult>;
  /** A key of this name, made (32 random bytes) at its first use and shared by every instance on this database. */
  siteKey(name: string): Promise<Buffer>;
  /** Records a form token as used; false when it was used before. */
  useFormToken(id: string, expiresAt: Date): Promise<boolean>;
  /** Newest first, in pages, so a large inbox streams. */
  list(options?: { since?: Date }): AsyncIterable<ListedEnquiry>;
  /** One page of the inbox, newest first; `hasMore` when a later page exists. */
  inboxPage(
    query: InboxQuery,
    page: { limit: number; offset: number },
  ): Promise<{ items: ListedEnquiry[]; hasMore: boolean }>;
  /** Every enquiry of the query, newest first, in pages (for the CSV export). */
  inboxAll(query: InboxQuery): AsyncIterable<ListedEnquiry>;
  /** How many enquiries each folder holds (with `search` applied when given). */
  folderCounts(search?: string): Promise<Record<Folder, number>>;
  getEnquiry(id: string): Promise<ListedEnquiry | null>;
  /** Every enquiry of this address (any case), newest first: what an erase removes. */
  enquiriesFrom(email: string): Promise<ListedEnquiry[]>;
  /**
   * Sets the status and logs it as `actor`'s (`status OLD -> NEW`), in one transaction; resolves with the previous
   * status (null: no such enquiry).
   */
  setStatus(id: string, status: EnquiryStatus, actor: string, now?: Date): Promise<EnquiryStatus | null>;
  /** new -> read, logged as `actor`'s, in one transaction; anything else stays. True when it changed. */
  markRead(id: string, actor: string, now?: Date): Promise<boolean>;
  /** Sends the channel's notification again from the start (a new one when there was none). False: no such enquiry. */
  resend(id: string, channel: Channel, now?: Date, requestId?: string): Promise<boolean>;
}
