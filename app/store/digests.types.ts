import type { Channel, StoredEnquiry } from "~/store/records";

/**
 * The daily spam digest's part of the store (app/store/digests.server.ts).
 */

/** One channel's send of a day's spam digest, held by this process until `claimUntil`; only the holder settles it. */
export interface ClaimedDigestSend {
  /** The local day (YYYY-MM-DD in SITE_TIMEZONE) the digest is for: its key. */
  day: string;
  channel: Channel;
  /** Attempts so far, this one included. */
  attempts: number;
  claimToken: string;
  claimUntil: Date;
  /** When the day was claimed: retries stop a set time after it. */
  claimedAt: Date;
  /** The spam kept aside from windowStart (inclusive) to windowEnd (exclusive) is what the digest tells of. */
  windowStart: Date;
  windowEnd: Date;
  /** That spam as it is now (the owner may have rescued or erased some), oldest first, at most the limit asked for. */
  spam: StoredEnquiry[];
  /** How many in all. */
  total: number;
}

/** The daily spam digest (app/store/digests.server.ts). */
export interface DigestStore {
  /**
   * Claims the day's digest: only one call per day, on any instance, gets the window of time it covers (since the
   * previous day's window, or the last 24 hours) and how much spam was kept aside in it, with one pending send per
   * channel when there was any. Null when the day was claimed before.
   */
  claimDigestDay(
    day: string,
    channels: readonly Channel[],
    now?: Date,
  ): Promise<{ windowStart: Date; windowEnd: Date; spam: number } | null>;
  /** Claims the due digest sends (pending, due, unclaimed or with an expired lease), each with its spam. */
  claimDigestSends(listLimit: number, now?: Date): Promise<ClaimedDigestSend[]>;
  markDigestSent(claim: ClaimedDigestSend, now?: Date): Promise<boolean>;
  markDigestRetry(claim: ClaimedDigestSend, error: string, nextAttemptAt: Date): Promise<boolean>;
  markDigestFailed(claim: ClaimedDigestSend, error: string): Promise<boolean>;
  /** When the next pending digest send becomes due (or its lease expires); null when none is pending. */
  nextDigestSendAt(): Promise<Date | null>;
}
