/**
 * The waitlist's part of the store (app/store/waitlist.server.ts, schema v18): "Tell me when orders open" with double
 * opt-in, one-click unsubscribe, the season's announcement and the list's durable outbox (issue 35, docs/waitlist.md).
 * Addresses are kept lower-cased; the links' tokens are kept hashed (to find the row) and sealed (to write the link
 * into a mail again).
 */

export type WaitlistState = "pending" | "confirmed" | "unsubscribed";

/** One address on the list, as the owner's Waitlist page shows it. */
export interface WaitlistEntry {
  id: string;
  email: string;
  state: WaitlistState;
  /** When it was asked for (the latest ask of a pending address). */
  createdAt: Date;
  confirmedAt: Date | null;
  unsubscribedAt: Date | null;
}

export interface WaitlistCounts {
  pending: number;
  confirmed: number;
  unsubscribed: number;
}

/**
 * What a join did: `queued`, a confirmation mail was stored (a new address, or a pending one asking again); `unchanged`,
 * nothing was stored or sent (the address is confirmed, or was unsubscribed: it must not be mailed again unasked by the
 * owner's list; the visitor sees the same words either way).
 */
export type JoinOutcome = "queued" | "unchanged";

/** What the Confirm button's POST did. */
export type ConfirmOutcome = "confirmed" | "already" | "expired" | "unknown";

/** One announcement: the season's, once. */
export interface Announcement {
  id: string;
  /** The season year it opened ("2027"): one announcement per season. */
  season: string;
  subject: string;
  body: string;
  createdAt: Date;
  createdBy: string;
  /** The confirmed addresses it was stored for. */
  total: number;
}

/** How far an announcement has gone: "120 of 340 sent". */
export interface AnnouncementProgress extends Announcement {
  sent: number;
  /** Refused for good (recorded, never retried). */
  failed: number;
  /** Not sent yet (waiting for their turn, or being retried). */
  pending: number;
}

export type ListMailKind = "confirm" | "announcement";

/** A list mail claimed by one sender (only the holder settles it), with what its words are made from. */
export interface ClaimedListMail {
  id: string;
  kind: ListMailKind;
  waitlistId: string;
  to: string;
  /**
   * As stored, the same for every attempt: `<…@…>`, or an id part (`list-confirm-{id}`) that the sender completes with
   * NOTIFY_EMAIL_FROM's domain as `<{id part}@{domain}>`.
   */
  messageId: string;
  /** The confirmation link's token in clear (confirm mails only, while it is valid). */
  confirmToken: string | null;
  confirmUntil: Date | null;
  /** The unsubscribe link's token in clear. */
  unsubscribeToken: string;
  /** The announcement's words (announcement mails only). */
  announcement: { season: string; subject: string; body: string } | null;
  attempts: number;
  /** When it was stored: retries stop a day after (the outbox's window). */
  createdAt: Date;
  claimToken: string;
  claimUntil: Date;
}

export interface WaitlistStore {
  /**
   * Joins `email` (already validated) in one transaction: a new address, or a pending one, gets a fresh confirmation
   * token (valid 7 days) and a confirmation mail in the outbox; a confirmed or unsubscribed one changes nothing.
   */
  joinWaitlist(email: string, now?: Date): Promise<JoinOutcome>;
  /** The pending entry whose confirmation token this is and still valid; null otherwise (nothing changes). */
  waitlistByConfirmToken(token: string, now?: Date): Promise<WaitlistEntry | null>;
  /** The Confirm button's POST: pending → confirmed when the token is valid. */
  confirmWaitlist(token: string, now?: Date): Promise<ConfirmOutcome>;
  /** The entry an unsubscribe token belongs to (any state); null when none. */
  waitlistByUnsubscribeToken(token: string): Promise<WaitlistEntry | null>;
  /** The one-click POST: → unsubscribed, its unsent list mail dropped. False when the token is unknown. */
  unsubscribeWaitlist(token: string, now?: Date): Promise<boolean>;
  /** Deletes the addresses never confirmed whose link ended (7 days). Resolves with how many. */
  purgeUnconfirmedWaitlist(now?: Date): Promise<number>;

  /**
   * Claims due list mail, at most `limit` of each kind. Announcements are paced for all instances together through the
   * shared pace: the turns of those claimed (`intervalMs` apart, oldest first, from `now`) are this claim's, so that
   * at most one goes per interval whatever the number of instances; confirmations are not paced.
   */
  claimListMail(limit: number, intervalMs: number, now?: Date): Promise<ClaimedListMail[]>;
  markListMailSent(claim: ClaimedListMail, now?: Date): Promise<boolean>;
  markListMailRetry(claim: ClaimedListMail, error: string, nextAttemptAt: Date): Promise<boolean>;
  markListMailFailed(claim: ClaimedListMail, error: string): Promise<boolean>;
  /** When the next list mail is due (or a lease expires); null when none is pending. */
  nextListMailAt(): Promise<Date | null>;
}

/** The owner's side of the list (app/store/waitlist-owner.server.ts): the Waitlist page and the announcement. */
export interface WaitlistOwnerStore {
  waitlistCounts(): Promise<WaitlistCounts>;
  /** The whole list, newest first (the CSV export). */
  waitlistEntries(): Promise<WaitlistEntry[]>;
  /**
   * One page of the list (the Waitlist page), newest first, of one state or all: at most `limit` entries after
   * `offset`, and whether more follow.
   */
  waitlistPage(
    query: { state: WaitlistState | "all" },
    page: { limit: number; offset: number },
  ): Promise<{ entries: WaitlistEntry[]; hasMore: boolean }>;
  /** One address on the list by its id (the erase's confirmation page); null when it is not there. */
  waitlistEntry(id: string): Promise<WaitlistEntry | null>;
  /**
   * Erases an address and its mail from the list, remembers it as an enquiry's erase does (a keyed hash) and scrubs
   * the database's files. False when it is not there.
   */
  eraseWaitlistAddress(email: string, now?: Date): Promise<boolean>;
  /**
   * Stores the season's announcement and one list mail per confirmed address, in one transaction. Null when the season
   * already has one (nothing stored).
   */
  createAnnouncement(
    /** `messageDomain`: the Message-IDs' domain (the sender's address's); "localhost" when not given. */
    words: { season: string; subject: string; body: string; actor: string; messageDomain?: string },
    now?: Date,
  ): Promise<Announcement | null>;
  /** The season's announcement and how far it has gone; null when none. */
  announcementProgress(season: string): Promise<AnnouncementProgress | null>;
}
