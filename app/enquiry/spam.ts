/**
 * The spam filter's verdict: documented signals in, a verdict with its reasons out. Pure (no clock, no database), so
 * the corpus test can run every real and spam enquiry through it. See docs/spam-and-retention.md.
 *
 * Each signal has a weight; an enquiry whose weights add up to 1 or more is spam. Strong signals (a bot's doing that
 * no person does: the hidden field filled, a bad form token, a link in the name, many links) weigh 1 alone. Weak ones
 * (shouting in capitals, one suspicious phrase) weigh 0.5: a real customer may write in capitals or ask whether we
 * take crypto, so one of them alone never hides an enquiry; two together do.
 */
import { spamReasons } from "~/content/spam-reasons";
import type { FormTokenProblem } from "~/enquiry/form-token.server";

export interface SpamSignals {
  name: string;
  email: string;
  message: string;
  /** The hidden field's content; undefined where there is none (the JSON endpoint). */
  honeypot?: string;
  /** undefined: no token is expected (the JSON endpoint) or it checked out. */
  formToken?: FormTokenProblem;
}

export interface SpamVerdict {
  spam: boolean;
  /** Every signal that counted against the post, in words the owner reads in the inbox (also when not spam). */
  reasons: string[];
  score: number;
}

// Typed here, so a new token problem without its reason fails to compile.
const tokenReasons: Record<FormTokenProblem, string> = spamReasons.formToken;

/**
 * Phrases of the offers that hit small business forms (each a reason, weight 0.5). Lower case; matched on word
 * boundaries, so "seoul" is not "seo".
 */
export const spamPhrases: readonly string[] = [
  "seo",
  "search engine",
  "first page of google",
  "page 1 of google",
  "google ranking",
  "backlink",
  "guest post",
  "sponsored post",
  "link building",
  "domain authority",
  "crypto",
  "bitcoin",
  "forex",
  "investment opportunity",
  "web traffic",
  "website traffic",
  "lead generation",
  "casino",
  "viagra",
  "loan offer",
];

const tlds = "com|net|org|info|biz|ru|xyz|top|io|co|shop|site|online|de|uk";
/** A word that is a link: a URL, www.…, or a bare domain with a common top-level domain. */
const linkWord = new RegExp(`^(?:https?://\\S+|www\\.\\S+|[\\w-]+(?:\\.[\\w-]+)*\\.(?:${tlds})(?:/\\S*)?)$`, "i");
const countLinks = (text: string) =>
  text.split(/\s+/).filter((word) => linkWord.test(word.replace(/^[(<"']+|[)>"'.,;:!?]+$/g, ""))).length;
const addressInName = new RegExp(`@|\\bhttps?://|\\bwww\\.|\\b[a-z0-9-]+\\.(?:${tlds})\\b`, "i");

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const phrasePatterns = spamPhrases.map(
  (phrase) => [phrase, new RegExp(`(?<![\\p{L}\\p{N}])${escape(phrase)}s?(?![\\p{L}\\p{N}])`, "iu")] as const,
);

/** More than 70 % of the letters are capitals, counted only when there are enough letters to tell (20+). */
function mostlyCapitals(text: string): boolean {
  const letters = text.match(/\p{L}/gu) ?? [];
  const caseless = letters.filter((letter) => letter.toLowerCase() !== letter.toUpperCase());
  if (caseless.length < 20) return false;
  const upper = caseless.filter((letter) => letter === letter.toUpperCase()).length;
  return upper / caseless.length > 0.7;
}

export function judgeEnquiry(signals: SpamSignals): SpamVerdict {
  const found: { reason: string; weight: number }[] = [];
  if (signals.honeypot) found.push({ reason: spamReasons.honeypot, weight: 1 });
  if (signals.formToken) found.push({ reason: tokenReasons[signals.formToken], weight: 1 });
  const links = countLinks(signals.message);
  if (links > 2) found.push({ reason: spamReasons.manyLinks(links), weight: 1 });
  if (addressInName.test(signals.name)) found.push({ reason: spamReasons.addressInName, weight: 1 });
  if (mostlyCapitals(`${signals.name} ${signals.message}`)) found.push({ reason: spamReasons.capitals, weight: 0.5 });
  const text = `${signals.name}\n${signals.message}`;
  for (const [phrase, pattern] of phrasePatterns) {
    if (pattern.test(text)) found.push({ reason: spamReasons.phrase(phrase), weight: 0.5 });
  }
  const score = found.reduce((sum, { weight }) => sum + weight, 0);
  return { spam: score >= 1, reasons: found.map(({ reason }) => reason), score };
}
