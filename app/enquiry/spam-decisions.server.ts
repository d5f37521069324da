import { spamStatsWords } from "~/wording/spam-reasons";
import { clueInWords } from "~/enquiry/spam.server";
import { builtInCounts, features, ownerWeight, probability, type Clue } from "~/enquiry/spam-model.server";
import type { Channel, EnquiryStatus, SpamDecision } from "~/store/records";
import type { EnquiryStore } from "~/store/enquiries.types";
import type { SpamStore } from "~/store/spam.types";

/**
 * The owner teaches the spam filter (ADR 0029): "Mark as spam" and "Not spam" on the web and `npm run inbox --
 * mark-spam|not-spam ID` record the decision and train the model with the enquiry's features in one transaction;
 * `spam stats` says what it learned.
 */

/** Records the owner's decision and trains the model; the status before (null: no such enquiry). */
export async function ownerDecides(
  store: EnquiryStore & SpamStore,
  id: string,
  decision: SpamDecision,
  channels: readonly Channel[],
  actor: string,
): Promise<EnquiryStatus | null> {
  const enquiry = await store.getEnquiry(id);
  if (!enquiry) return null;
  return store.decideSpam(id, decision, features(enquiry), channels, actor);
}

/** What the model has learned from the owner, in lines for the terminal: counts and the strongest features. */
export async function spamModelStats(store: EnquiryStore & SpamStore, top = 10): Promise<string[]> {
  const learned = await store.allSpamCounts();
  const base = builtInCounts();
  const clues: Clue[] = [...learned.tokens.keys()].map((token) => ({
    token,
    probability: probability(token, base, learned) ?? 0.5,
  }));
  const strongest = (towardSpam: boolean) =>
    clues
      .filter(({ probability: p }) => (towardSpam ? p > 0.5 : p < 0.5))
      .sort((a, b) => Math.abs(b.probability - 0.5) - Math.abs(a.probability - 0.5) || a.token.localeCompare(b.token))
      .slice(0, top)
      .map((clue) => `  ${clueInWords(clue)}`);
  const words = spamStatsWords;
  return [
    words.corpus(base.messages.ham, base.messages.spam),
    words.learned(learned.messages.spam, learned.messages.ham, learned.tokens.size, ownerWeight),
    words.towardSpam,
    ...(strongest(true).length > 0 ? strongest(true) : [`  ${words.none}`]),
    words.towardReal,
    ...(strongest(false).length > 0 ? strongest(false) : [`  ${words.none}`]),
  ];
}
