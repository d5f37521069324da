/**
 * The mail the site sends a customer (app/store/outgoing-mail.server.ts): a reply from the inbox, "New photos of your
 * build", and the acknowledgement of a new enquiry (`queueAcknowledgement`, with its limits). Stored first, with its
 * threading fixed, then sent by a background sender under a lease (server/customer-mail-loop.ts).
 */

export const customerMailKinds = ["reply", "build-update", "acknowledgement"] as const;
export type CustomerMailKind = (typeof customerMailKinds)[number];

export type OutgoingMailState = "pending" | "sent" | "failed";

/** One mail to a customer, as stored. */
export interface OutgoingMail {
  id: string;
  enquiryId: string;
  /** The timeline line it belongs to (a reply's line), if any. */
  eventId: string | null;
  kind: CustomerMailKind;
  /** The enquiry's address when the mail was stored. */
  to: string;
  subject: string;
  /** What the owner wrote (the sender adds the signature). */
  body: string;
  /** `<…@…>`, the same for every attempt. */
  messageId: string;
  /** The previous mail of this enquiry to the customer, or the enquiry's own notification. */
  inReplyTo: string | null;
  /** The conversation's ids, oldest first (the enquiry's own first). */
  references: string[];
  createdAt: Date;
  state: OutgoingMailState;
  attempts: number;
  /** When the next attempt is due (pending only). */
  nextAttemptAt: Date | null;
  lastError: string | null;
  sentAt: Date | null;
}

/** A mail claimed by one sender: only the holder of the claim settles it. */
export interface ClaimedOutgoingMail extends OutgoingMail {
  /** Who wrote it (the timeline line's actor), for the Reply-To when the business has no public address. */
  author: string | null;
  /** Retries stop a day after this. */
  windowStart: Date;
  claimToken: string;
  claimUntil: Date;
}

/** A reply from the enquiry's page. */
export interface NewReply {
  enquiryId: string;
  subject: string;
  body: string;
  /** The operator's address. */
  actor: string;
  /** NOTIFY_EMAIL_FROM's address: the Message-IDs' domain. */
  fromAddress: string;
}

/** The acknowledgement of a new enquiry: the owner's words, already put together (app/notify/acknowledgement.ts). */
export interface NewAcknowledgement {
  enquiryId: string;
  subject: string;
  body: string;
  /** NOTIFY_EMAIL_FROM's address: the Message-ID's domain. */
  fromAddress: string;
}

/**
 * The acknowledgements' limits, for the whole site (every instance on the database): one per address per day, a few
 * an hour, and none while mail to customers is failing (see `queueAcknowledgement`).
 */
export const acknowledgementLimits = {
  perAddressMs: 24 * 60 * 60_000,
  perHour: 30,
  /** A failed attempt on a mail stored this recently, waiting for its retry, means the channel is failing. */
  failingWindowMs: 60 * 60_000,
} as const;

/** Why an acknowledgement was not stored, in the log's words. */
export type AcknowledgementSkipped =
  /** No such enquiry, or it is spam or possible spam. */
  | "not-clean"
  /** This address had one in the last 24 hours. */
  | "address-limit"
  /** The site sent its hourly number. */
  | "site-limit"
  /** E-mail is failing (see `queueAcknowledgement`). */
  | "failing";

export type AcknowledgementQueued =
  { queued: true; mail: OutgoingMail } | { queued: false; reason: AcknowledgementSkipped };

export interface OutgoingMailStore {
  /**
   * Stores a reply in one transaction: the mail (to the enquiry's address, answering the previous mail or the
   * enquiry), its timeline line, New → Replied, and the enquiry answered. Null when there is no such enquiry.
   */
  queueReply(reply: NewReply, now?: Date): Promise<OutgoingMail | null>;
  /**
   * Stores the acknowledgement of a clean enquiry (spam verdict none, not spam) with its timeline line, to the
   * enquiry's address (lower-cased), when the limits allow, counted in the same transaction under one lock (every
   * instance together): none to this address in the last 24 hours, fewer than 30 in the last hour, and e-mail not
   * failing. Failing: a mail stored in the last hour on the e-mail channel (a mail to a customer of any kind, or an
   * enquiry's e-mail notification) is waiting for a retry after a failed attempt (pending, tried, its last error kept).
   * A mail that failed for good (a refused address) does not count: one bad address must not stop the rest.
   */
  queueAcknowledgement(ack: NewAcknowledgement, now?: Date): Promise<AcknowledgementQueued>;
  /** An enquiry's mails to its customer, oldest first. */
  outgoingMailOf(enquiryId: string): Promise<OutgoingMail[]>;
  /** Claims the due mails (pending, due, unclaimed or with an expired lease), at most `limit`. */
  claimOutgoingMail(limit: number, now?: Date): Promise<ClaimedOutgoingMail[]>;
  markOutgoingMailSent(claim: ClaimedOutgoingMail, now?: Date): Promise<boolean>;
  markOutgoingMailRetry(claim: ClaimedOutgoingMail, error: string, nextAttemptAt: Date): Promise<boolean>;
  markOutgoingMailFailed(claim: ClaimedOutgoingMail, error: string): Promise<boolean>;
  /** When the next pending mail becomes due (or its lease expires); null when none is pending. */
  nextOutgoingMailAt(): Promise<Date | null>;
}
