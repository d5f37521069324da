/**
 * The spam model's built-in corpus, the TRAINING half (ADR 0029): what the filter knows before the owner marks
 * anything. Real enquiries as haunt owners, schools, theatres and families write them (several languages, terse and
 * long, links to their own site, Instagram and videos, capitals, prices, phone numbers, crypto payment questions), and
 * spam as small businesses get it (outreach, SEO, virtual assistants, appointment setting, domain-renewal scams,
 * followers, casinos, explainer videos, Russian-language SEO, loans, "your listing was selected", adult, crypto).
 * The messages themselves are data (spam-corpus.training.json beside this file), checked against one schema here.
 * The held-out half, which the model never sees, is in tests/support/spam-corpus.held-out.json; the figures are
 * measured there. Server code imports this (app/enquiry/spam-model.server.ts counts it once per process).
 */
import { z } from "zod";
import training from "~/enquiry/spam-corpus.training.json";

const corpusEnquiry = z.strictObject({ name: z.string(), email: z.string(), message: z.string().min(1) });

/** A corpus file: real enquiries and spam posts, each as the contact form would have received it. */
const corpusFile = z.strictObject({ real: z.array(corpusEnquiry).min(1), spam: z.array(corpusEnquiry).min(1) });

export type CorpusEnquiry = z.infer<typeof corpusEnquiry>;

export interface Corpus {
  real: readonly CorpusEnquiry[];
  spam: readonly CorpusEnquiry[];
}

/** A corpus file's content, checked: a malformed entry fails loudly here rather than skewing the model. */
export function readCorpus(data: unknown, source: string): Corpus {
  const parsed = corpusFile.safeParse(data);
  if (!parsed.success) throw new Error(`${source}: not a spam corpus: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const trainingHalf = readCorpus(training, "app/enquiry/spam-corpus.training.json");

export const trainingReal: readonly CorpusEnquiry[] = trainingHalf.real;
export const trainingSpam: readonly CorpusEnquiry[] = trainingHalf.spam;
