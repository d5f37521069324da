import type { Channel } from "~/store/records";

/**
 * The new-login alerts' part of the store (app/store/login-alerts.server.ts).
 */

/** A new-login alert waiting to go out on one channel (app/store/login-alerts.server.ts). */
export interface NewLoginAlert {
  /** One id for the login; one row per channel under it. */
  id: string;
  operatorEmail: string;
  /** When the login happened. */
  at: Date;
  /** The browser as described from its User-Agent ("Chrome on Android"). */
  browser: string;
  /** The client address as the login throttle counts it (an IPv6 /64). */
  address: string;
  /** What is announced: a login from a new browser (the default), or a factor added to the account. */
  kind?: LoginAlertKind;
  /** The added passkey's name (kind `passkey-added`). */
  detail?: string | null;
}

/**
 * `customer-answer`: a customer answered on the build page (app/store/build-pages.server.ts queues it); its
 * `operatorEmail` holds the customer's name and `detail` the JSON {enquiryId, text}: nothing more is announced.
 */
export type LoginAlertKind = "login" | "passkey-added" | "codes-added" | "customer-answer";

export interface ClaimedLoginAlert extends NewLoginAlert {
  channel: Channel;
  /** Attempts so far, this one included. */
  attempts: number;
  claimToken: string;
  claimUntil: Date;
}

/** The new-login alerts: stored at the login, sent by a background sender under a lease (server/login-alerts-loop.ts). */
export interface LoginAlertStore {
  /** Stores one pending alert per channel, due now. */
  queueLoginAlert(alert: NewLoginAlert, channels: readonly Channel[]): Promise<void>;
  /** Claims the due alerts (pending, due, unclaimed or with an expired lease), at most `limit`. */
  claimLoginAlerts(limit: number, now?: Date): Promise<ClaimedLoginAlert[]>;
  markLoginAlertSent(claim: ClaimedLoginAlert, now?: Date): Promise<boolean>;
  markLoginAlertRetry(claim: ClaimedLoginAlert, error: string, nextAttemptAt: Date): Promise<boolean>;
  markLoginAlertFailed(claim: ClaimedLoginAlert, error: string): Promise<boolean>;
  /** When the next pending alert becomes due (or its lease expires); null when none is pending. */
  nextLoginAlertAt(): Promise<Date | null>;
}
