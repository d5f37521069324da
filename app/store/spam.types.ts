import type { Channel, EnquiryStatus, SpamDecision } from "~/store/records";

/**
 * The spam part of the store: the owner's decisions and the counts they teach the spam model (app/store/spam.server.ts).
 */

/** How many messages of each kind, or how many of them carried one feature. */
export interface TokenCounts {
  spam: number;
  ham: number;
}

/** The spam model's counts the owner's decisions made (one row per feature in the database, shared by every instance). */
export interface LearnedCounts {
  messages: TokenCounts;
  tokens: ReadonlyMap<string, TokenCounts>;
}

/** The owner's spam decisions and the counts they teach the spam model (app/store/spam.server.ts). */
export interface SpamStore {
  /**
   * The owner's decision, in one transaction with its activity entry and the spam model's counts: `spam` sets the
   * status spam; `not-spam` makes a spam enquiry new and creates its notifications (once: never for one that had
   * them). `features` train the model once per enquiry: the same decision again changes no count, a changed one
   * takes the old one back. Resolves with the status before (null: no such enquiry).
   */
  decideSpam(
    id: string,
    decision: SpamDecision,
    features: readonly string[],
    channels: readonly Channel[],
    actor: string,
    now?: Date,
  ): Promise<EnquiryStatus | null>;
  /** The owner's counts of these features (and of messages), for judging an enquiry. */
  spamCounts(features: readonly string[]): Promise<LearnedCounts>;
  /** Every count the owner's decisions made (`npm run inbox -- spam stats`). */
  allSpamCounts(): Promise<LearnedCounts>;
  /** Forgets what the owner taught (the enquiries' decisions too, so none is taken back later); how many features. */
  resetSpamModel(): Promise<number>;
}
