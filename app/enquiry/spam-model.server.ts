/**
 * The spam filter's content model (ADR 0029): naive Bayes over an enquiry's words, the hosts it links to and a few
 * signals, combined as SpamBayes does (Robinson's per-token probabilities, Fisher's chi-square). Pure: the built-in
 * corpus (the training half, app/enquiry/spam-corpus.server.ts) is counted once per process; what the owner taught it comes
 * in as counts from the database, each decision weighing `ownerWeight` corpus messages.
 *
 * Capitals, prices, phone numbers and other languages are not features at all (words are lower-cased, numbers
 * dropped, unknown words weigh nothing); links to the sender's own site, to videos and to social profiles are one
 * feature each whose weight the corpus gives, as real enquiries carry them too.
 */
import { trainingReal, trainingSpam, type CorpusEnquiry } from "~/enquiry/spam-corpus.server";
import type { SpamVerdictName } from "~/store/records";
import type { LearnedCounts, TokenCounts } from "~/store/spam.types";

export type { LearnedCounts, SpamVerdictName };

export const nothingLearned: LearnedCounts = { messages: { spam: 0, ham: 0 }, tokens: new Map() };

/** One owner decision counts as this many corpus messages: the owner's mail is the mail that matters. */
export const ownerWeight = 4;

/**
 * Chosen on the training half by leave-one-out (app/enquiry/spam-model.server.test.ts prints the figures): `spam` above the
 * highest real enquiry's score with room to spare, so only strong evidence keeps an enquiry aside; `possible` where
 * the real ones thin out. A message with no known feature scores 0.5 and is announced as usual.
 */
export const thresholds = { possible: 0.7, spam: 0.98 } as const;

/** Robinson's strength of the unknown-word prior (s) and its value (x); clues nearer 0.5 than minStrength are noise. */
const prior = { strength: 0.45, value: 0.5 };
const minStrength = 0.1;
const maxClues = 150;

/** How a feature reads to the owner (app/wording/spam-reasons.ts words each kind). */
export type Feature =
  | { kind: "word"; word: string }
  | { kind: "host"; host: string }
  | { kind: "from"; domain: string }
  | { kind: "signal"; signal: "own-site" | "video" | "social" | "many-links" | "link-in-name" };

const videoHosts = ["youtube.com", "youtu.be", "vimeo.com", "tiktok.com"];
const socialHosts = ["instagram.com", "facebook.com", "x.com", "twitter.com", "threads.net", "photos.app.goo.gl"];
const tlds =
  "com|net|org|info|biz|ru|xyz|top|io|co|shop|site|online|de|uk|bet|live|tv|ie|fr|nl|be|es|it|pl|se|pt|mx|br|jp|in|gl";
const linkPattern = new RegExp(
  `(?:https?://[^\\s<>"')]+|www\\.[^\\s<>"')]+|\\b[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)*\\.(?:${tlds})\\b(?:/[^\\s<>"')]*)?)`,
  "giu",
);
const wordPattern = /[\p{L}\p{M}][\p{L}\p{M}\p{N}'’]*/gu;

/** The last two labels of a host (three under a country's second level: example.co.uk), without www. */
function siteOf(host: string): string {
  const labels = host
    .toLowerCase()
    .replace(/^www\./, "")
    .replace(/\.$/, "")
    .split(".");
  const keep = labels.length > 2 && /^(co|com|org|net|ac|gov|edu)$/.test(labels.at(-2)!) ? 3 : 2;
  return labels.slice(-keep).join(".");
}

function hostOf(link: string): string | null {
  try {
    return new URL(/^https?:\/\//i.test(link) ? link : `http://${link}`).hostname;
  } catch {
    return null;
  }
}

const within = (host: string, sites: readonly string[]) =>
  sites.some((site) => host === site || host.endsWith(`.${site}`));

/** The features of an enquiry, each once, as tokens (the form the database counts them in). */
export function features({ name, email, message }: CorpusEnquiry): string[] {
  const tokens = new Set<string>();
  const sender = siteOf(email.slice(email.lastIndexOf("@") + 1));
  tokens.add(`from:${sender}`);
  const ownSites = new Set([sender]);
  for (const link of name.match(linkPattern) ?? []) {
    const host = hostOf(link);
    if (host) ownSites.add(siteOf(host));
  }
  if (/@|https?:\/\/|www\./i.test(name) || ownSites.size > 1) tokens.add("signal:link-in-name");

  let otherLinks = 0;
  const text = message.replace(linkPattern, (link) => {
    const host = hostOf(link.replace(/[.,;:!?]+$/, ""));
    if (!host) return " ";
    const site = siteOf(host);
    if (ownSites.has(site)) tokens.add("signal:own-site");
    else if (within(host.replace(/^www\./, ""), videoHosts)) tokens.add("signal:video");
    else if (within(host.replace(/^www\./, ""), socialHosts)) tokens.add("signal:social");
    else {
      tokens.add(`host:${site}`);
      otherLinks++;
    }
    return " ";
  });
  if (otherLinks > 2) tokens.add("signal:many-links");
  for (const word of `${name}\n${text}`.toLowerCase().normalize("NFKC").match(wordPattern) ?? []) {
    const clean = word.replace(/['’]+$/, "");
    if (clean.length >= 2 && clean.length <= 30) tokens.add(clean);
  }
  return [...tokens];
}

/** A token as the owner reads it. */
export function featureOf(token: string): Feature {
  const colon = token.indexOf(":");
  const [kind, rest] = colon === -1 ? ["", token] : [token.slice(0, colon), token.slice(colon + 1)];
  if (kind === "host") return { kind: "host", host: rest };
  if (kind === "from") return { kind: "from", domain: rest };
  if (kind === "signal") return { kind: "signal", signal: rest as Extract<Feature, { kind: "signal" }>["signal"] };
  return { kind: "word", word: token };
}

/** Message and feature counts of a corpus. */
export function countCorpus(real: readonly CorpusEnquiry[], spam: readonly CorpusEnquiry[]): LearnedCounts {
  const tokens = new Map<string, TokenCounts>();
  const add = (enquiry: CorpusEnquiry, kind: keyof TokenCounts) => {
    for (const token of features(enquiry)) {
      const counts = tokens.get(token) ?? { spam: 0, ham: 0 };
      counts[kind]++;
      tokens.set(token, counts);
    }
  };
  real.forEach((enquiry) => add(enquiry, "ham"));
  spam.forEach((enquiry) => add(enquiry, "spam"));
  return { messages: { spam: spam.length, ham: real.length }, tokens };
}

let builtIn: LearnedCounts | undefined;
/** The training half's counts, made at first use. */
export const builtInCounts = () => (builtIn ??= countCorpus(trainingReal, trainingSpam));

export interface Clue {
  token: string;
  /** The probability that a message with this feature is spam, 0..1. */
  probability: number;
}

export interface ContentJudgement {
  verdict: SpamVerdictName;
  /** 0 (surely real) .. 1 (surely spam); 0.5 when nothing known weighs either way. */
  score: number;
  /** The clues that weighed most, strongest first. */
  clues: Clue[];
}

/** 1 - the chi-square distribution function for an even number of degrees of freedom. */
function chi2Q(chi2: number, degrees: number): number {
  const half = chi2 / 2;
  let term = Math.exp(-half);
  let sum = term;
  for (let i = 1; i < degrees / 2; i++) {
    term *= half / i;
    sum += term;
  }
  return Math.min(sum, 1);
}

/** The probability that a message with this token is spam, with the prior pulling rare tokens toward 0.5. */
export function probability(token: string, base: LearnedCounts, learned: LearnedCounts): number | null {
  const b = base.tokens.get(token);
  const o = learned.tokens.get(token);
  const spam = (b?.spam ?? 0) + ownerWeight * Math.max(0, o?.spam ?? 0);
  const ham = (b?.ham ?? 0) + ownerWeight * Math.max(0, o?.ham ?? 0);
  if (spam + ham === 0) return null;
  const spamMessages = base.messages.spam + ownerWeight * Math.max(0, learned.messages.spam);
  const hamMessages = base.messages.ham + ownerWeight * Math.max(0, learned.messages.ham);
  const spamRatio = spam / Math.max(1, spamMessages);
  const hamRatio = ham / Math.max(1, hamMessages);
  const p = spamRatio / (spamRatio + hamRatio);
  const n = spam + ham;
  return (prior.strength * prior.value + n * p) / (prior.strength + n);
}

/** The content's verdict: the score from the strongest clues, and the thresholds above. */
export function judgeContent(
  enquiry: CorpusEnquiry,
  learned: LearnedCounts = nothingLearned,
  base: LearnedCounts = builtInCounts(),
): ContentJudgement {
  const clues: Clue[] = [];
  for (const token of features(enquiry)) {
    const p = probability(token, base, learned);
    if (p !== null && Math.abs(p - 0.5) >= minStrength) clues.push({ token, probability: p });
  }
  clues.sort((a, b) => Math.abs(b.probability - 0.5) - Math.abs(a.probability - 0.5) || a.token.localeCompare(b.token));
  const used = clues.slice(0, maxClues);
  let score = 0.5;
  if (used.length > 0) {
    const spamSide = -2 * used.reduce((sum, { probability: p }) => sum + Math.log(1 - p), 0);
    const hamSide = -2 * used.reduce((sum, { probability: p }) => sum + Math.log(p), 0);
    const s = 1 - chi2Q(spamSide, 2 * used.length);
    const h = 1 - chi2Q(hamSide, 2 * used.length);
    score = (s - h + 1) / 2;
  }
  const verdict = score >= thresholds.spam ? "spam" : score >= thresholds.possible ? "possible" : "none";
  return { verdict, score, clues: used };
}

/** The clues for spam that weighed most, strongest first (what the owner reads as the reasons). */
export const spamClues = (judgement: ContentJudgement, limit = 5) =>
  judgement.clues.filter(({ probability: p }) => p > 0.5).slice(0, limit);
