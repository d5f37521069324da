import type { Channel } from "~/store/records";

/**
 * The owner's alerts' part of the store (app/store/owner-alerts.server.ts, table `owner_alerts`): a login from a new
 * browser or a factor added to an operator's account, and a customer's answer on their build page.
 */

/**
 * What is announced: a login from a new browser (the default), a passkey or one-time codes added to the account, or a
 * customer's answer on their build page (`customer-answer`, queued by app/store/build-pages.server.ts).
 */
export type OwnerAlertKind = "login" | "passkey-added" | "codes-added" | "customer-answer";

/** An alert waiting to go out on one channel. */
export interface NewOwnerAlert {
  /** One id for the login (or the answer); one row per channel under it. */
  id: string;
  /** When the login (or the answer) happened. */
  at: Date;
  kind?: OwnerAlertKind;
  /** The operator whose account it is about (the login and factor kinds); null for a customer's answer. */
  operatorEmail: string | null;
  /** The browser as described from its User-Agent ("Chrome on Android"); empty for a customer's answer. */
  browser: string;
  /** The client address as the login throttle counts it (an IPv6 /64); empty for a customer's answer. */
  address: string;
  /** The added passkey's name (kind `passkey-added`), or the customer's words (kind `customer-answer`). */
  detail?: string | null;
  /** The customer who answered (kind `customer-answer`): nothing more of theirs is announced. */
  customerName?: string | null;
  /** The enquiry answered (kind `customer-answer`): the link, and what an erase of it removes. */
  enquiryId?: string | null;
}

export interface ClaimedOwnerAlert extends NewOwnerAlert {
  channel: Channel;
  /** Attempts so far, this one included. */
  attempts: number;
  claimToken: string;
  claimUntil: Date;
}

/** The owner's alerts: stored when it happens, sent by a background sender under a lease (server/owner-alerts-loop.ts). */
export interface OwnerAlertStore {
  /** Stores one pending alert per channel, due now. */
  queueOwnerAlert(alert: NewOwnerAlert, channels: readonly Channel[]): Promise<void>;
  /** Claims the due alerts (pending, due, unclaimed or with an expired lease), at most `limit`. */
  claimOwnerAlerts(limit: number, now?: Date): Promise<ClaimedOwnerAlert[]>;
  markOwnerAlertSent(claim: ClaimedOwnerAlert, now?: Date): Promise<boolean>;
  markOwnerAlertRetry(claim: ClaimedOwnerAlert, error: string, nextAttemptAt: Date): Promise<boolean>;
  markOwnerAlertFailed(claim: ClaimedOwnerAlert, error: string): Promise<boolean>;
  /** When the next pending alert becomes due (or its lease expires); null when none is pending. */
  nextOwnerAlertAt(): Promise<Date | null>;
}
