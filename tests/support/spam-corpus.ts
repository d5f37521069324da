import { readCorpus, type CorpusEnquiry } from "../../app/enquiry/spam-corpus.server";
import heldOut from "./spam-corpus.held-out.json";

/**
 * The spam filter's HELD-OUT corpus (spam-corpus.held-out.json beside this file): written fresh and never shown to
 * the model (its training half ships in app/enquiry/spam-corpus.training.json). The same kinds as the training half in
 * other words: real enquiries with three links (site, Instagram, video), crypto questions in capitals, the business in
 * the name, many languages; spam of every kind an owner reported. app/enquiry/spam-model.server.test.ts measures the
 * figures in docs/spam-and-retention.md on it.
 */
export type { CorpusEnquiry };

const heldOutHalf = readCorpus(heldOut, "tests/support/spam-corpus.held-out.json");

export const heldOutReal: readonly CorpusEnquiry[] = heldOutHalf.real;
export const heldOutSpam: readonly CorpusEnquiry[] = heldOutHalf.spam;
