/**
 * The spam filter's verdict (ADR 0029): a bot's behaviour keeps a post aside as spam outright; its content alone is
 * weighed as a probability by the model (app/enquiry/spam-model.server.ts), with three outcomes: none, possible (announced
 * with a marker) and spam (only on strong evidence). Pure: the owner's lessons come in as counts. See
 * docs/spam-and-retention.md.
 */
import { spamReasons } from "~/wording/spam-reasons";
import type { FormTokenProblem } from "~/enquiry/form-token.server";
import {
  featureOf,
  features,
  judgeContent,
  nothingLearned,
  spamClues,
  type Clue,
  type LearnedCounts,
  type SpamVerdictName,
} from "~/enquiry/spam-model.server";

export interface SpamSignals {
  name: string;
  email: string;
  message: string;
  /** The hidden field's content; undefined where there is none (the JSON endpoint). */
  honeypot?: string;
  /** undefined: no token is expected (the JSON endpoint) or it checked out. */
  formToken?: FormTokenProblem;
}

export interface SpamJudgement {
  verdict: SpamVerdictName;
  /** 0..1: how likely spam (1 for a bot's behaviour). */
  score: number;
  /** What weighed most, in terms the owner reads (also for a verdict of none, when anything pointed at spam). */
  reasons: string[];
}

// Typed here, so a new token problem without its reason fails to compile.
const tokenReasons: Record<FormTokenProblem, string> = spamReasons.formToken;

/** The features the model weighs, to fetch the owner's counts of exactly these. */
export const spamFeatures = (signals: SpamSignals) => features(signals);

/** One clue in the owner's words, e.g. `the word "seo" (94 % spam)`. */
export function clueInWords({ token, probability }: Clue): string {
  const feature = featureOf(token);
  const words =
    feature.kind === "word"
      ? spamReasons.word(feature.word)
      : feature.kind === "host"
        ? spamReasons.host(feature.host)
        : feature.kind === "from"
          ? spamReasons.from(feature.domain)
          : spamReasons.signal[feature.signal];
  return spamReasons.weight(words, Math.round(probability * 100));
}

export function judgeEnquiry(signals: SpamSignals, learned: LearnedCounts = nothingLearned): SpamJudgement {
  // A bot's doing that no person does: no weighing. (A person may paste a long message at once: length is no clue.)
  const bot = [
    ...(signals.honeypot ? [spamReasons.honeypot] : []),
    ...(signals.formToken ? [tokenReasons[signals.formToken]] : []),
  ];
  if (bot.length > 0) return { verdict: "spam", score: 1, reasons: bot };
  const content = judgeContent(signals, learned);
  return {
    verdict: content.verdict,
    score: Math.round(content.score * 1000) / 1000,
    reasons: spamClues(content).map(clueInWords),
  };
}
