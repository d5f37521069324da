/**
 * The spam filter's reasons, in the words the owner reads in the inbox beside each enquiry (server only). Each
 * enquiry keeps the reasons it was given, so changing a word here changes only what later enquiries show.
 */
export const spamReasons = {
  honeypot: "hidden field filled",
  formToken: {
    missing: "form token missing",
    forged: "form token forged",
    expired: "form token older than 24 h",
    used: "form token used before",
    "too-fast": "posted less than 3 s after the form was served",
  },
  /** The content model's clues (app/enquiry/spam-model.server.ts), each with how often such messages were spam. */
  word: (word: string) => `the word "${word}"`,
  host: (host: string) => `a link to ${host}`,
  from: (domain: string) => `sent from ${domain}`,
  signal: {
    "own-site": "a link to the sender's own site",
    video: "a link to a video",
    social: "a link to a social profile",
    "many-links": "more than two links",
    "link-in-name": "a link or address in the name",
  },
  /** How strongly a clue points at spam, as a percentage of messages with it that were spam. */
  weight: (reason: string, percent: number) => `${reason} (${percent} % spam)`,
} as const;

/** The three verdicts as the owner reads them (the inbox's list and page, `npm run inbox`). */
export const spamVerdictWords = {
  none: "not spam",
  possible: "possible spam",
  spam: "spam",
} as const;

/** `npm run inbox -- spam stats` and `spam reset`. */
export const spamStatsWords = {
  corpus: (real: number, spam: number) =>
    `Built in: ${real} real enquiries and ${spam} spam posts (the training corpus).`,
  learned: (spam: number, real: number, features: number, weight: number) =>
    `Learned from you: ${spam} marked as spam, ${real} marked not spam (each counts as ${weight} built-in messages); ` +
    `${features} words, links and signals.`,
  towardSpam: "What you taught points to spam most:",
  towardReal: "What you taught points to a real enquiry most:",
  none: "(nothing yet)",
  reset: (features: number) =>
    `Forgot what you taught the spam filter (${features} words, links and signals); it judges by its built-in corpus again.`,
} as const;
