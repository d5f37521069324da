import type { AppLoadContext } from "@remix-run/node";
import { buildPageCopy } from "~/wording/build-page";
import { enquiryFields, formTokenField, honeypotField, maxBodyBytes } from "~/enquiry/fields";
import { formTokenForPage, formTokenProblem } from "~/enquiry/form-token.server";
import { judgeEnquiry, spamFeatures } from "~/enquiry/spam.server";
import { formMediaTypes, formOf } from "~/http/form.server";
import { discardBody, mediaType, readBodyCapped } from "~/http/body.server";
import { clientKey } from "~/http/rate-limit.server";
import { createGuessLimiter, type GuessLimiter } from "~/http/guess-limit.server";
import { buildUpdateViews, type BuildUpdateView } from "~/photos/build-photos.server";
import type { SharedBuild } from "~/store/build-pages.types";
import { wonStages, type Stage } from "~/store/pipeline.types";
import { log } from "~/log.server";

/**
 * The customer's side of the build page (/build/{token}): find the build for a token (an unknown, revoked or expired
 * one is the same miss, counted per client: past the limit, 429), show it, and take the customer's answer with the
 * contact form's checks (form token, hidden field, 3-second minimum, the spam filter, the enquiries' rate limits).
 */

const words = buildPageCopy.page;

/** Without a server-built limiter (tests built by hand): counted in this process's memory. */
let fallbackGuesses: GuessLimiter | undefined;
const guessesOf = (context: AppLoadContext) =>
  context.services.buildGuesses ?? (fallbackGuesses ??= createGuessLimiter({ kind: "memory" }));
const clientOf = (context: AppLoadContext) => (context.peerAddress ? clientKey(context.peerAddress) : "unknown");

/** The shape of a token: 32 bytes in hex. Anything else is a miss too (after the same lookup). */
const tokenPattern = /^[0-9a-f]{64}$/;

export type Lookup =
  { kind: "found"; build: SharedBuild } | { kind: "not-found" } | { kind: "throttled"; retryAfterSeconds: number };

/**
 * The build at a token. Every token costs one hash and one indexed lookup, whatever it is; a miss is counted for the
 * client, and a client past its misses is refused before anything is looked up.
 */
export async function lookUpBuild(token: string, context: AppLoadContext): Promise<Lookup> {
  const guesses = guessesOf(context);
  const client = clientOf(context);
  const blocked = await guesses.blocked(client);
  if (blocked !== null) return { kind: "throttled", retryAfterSeconds: blocked };
  // The lookup happens for a malformed token as well (hashed like any other), so its answer takes as long.
  const build = await context.services.inbox().sharedBuild(token);
  if (build && tokenPattern.test(token)) return { kind: "found", build };
  const over = await guesses.miss(client);
  return over === null ? { kind: "not-found" } : { kind: "throttled", retryAfterSeconds: over };
}

export interface BuildPageData {
  title: string;
  stage: Stage;
  stages: { stage: Stage; name: string; at: string | null }[];
  /** The stages still to come, so the customer sees where the build is heading (none once Delivered or Lost). */
  ahead: { stage: Stage; name: string }[];
  updates: BuildUpdateView[];
  formToken: string;
}

export async function buildPageData(
  token: string,
  build: SharedBuild,
  context: AppLoadContext,
): Promise<BuildPageData> {
  const store = context.services.inbox();
  const updates = await store.buildUpdates(build.enquiryId);
  return {
    title: build.title ?? words.fallbackTitle,
    stage: build.stage,
    stages: build.stages.map(({ stage, at }) => ({
      stage,
      name: buildPageCopy.stageNames[stage],
      at: at?.toISOString() ?? null,
    })),
    ahead: stagesAhead(build.stage).map((stage) => ({ stage, name: buildPageCopy.stageNames[stage] })),
    updates: await buildUpdateViews(store, updates, `/build/${token}/photo/`),
    formToken: await formTokenForPage(context.services),
  };
}

/** The won stages after the current one (a page is shared from Deposit paid on; a set-back stage still leads there). */
export function stagesAhead(current: Stage): Stage[] {
  if (current === "lost" || current === "delivered") return [];
  const at = wonStages.indexOf(current);
  return wonStages.slice(at + 1);
}

export const answerMaxLength = enquiryFields.message.maxLength;

export type AnswerOutcome =
  { kind: "sent" } | { kind: "refused"; status: number; error: string; message: string; retryAfterSeconds?: number };

/** The customer's answer ("Send"): checked as the contact form's enquiries are, then into the enquiry's timeline. */
export async function answerBuild(
  request: Request,
  build: SharedBuild,
  context: AppLoadContext,
): Promise<AnswerOutcome> {
  const { services } = context;
  const refused = (status: number, error: string, message = "", retryAfterSeconds?: number): AnswerOutcome => ({
    kind: "refused",
    status,
    error,
    message,
    retryAfterSeconds,
  });
  if (!formMediaTypes.includes(mediaType(request))) {
    discardBody(request);
    return refused(415, words.answerEmpty);
  }
  const body = await readBodyCapped(request, maxBodyBytes);
  if (!body.ok) return refused(413, words.answerTooLong(answerMaxLength));
  const form = await formOf(request, body.bytes);
  if (form instanceof Response) return refused(400, words.answerEmpty);
  const message = String(form.get("message") ?? "")
    .replace(/\r\n?/g, "\n")
    .trim();
  if (message === "") return refused(400, words.answerEmpty, message);
  if ([...message].length > answerMaxLength) return refused(400, words.answerTooLong(answerMaxLength), message);
  try {
    const store = services.inbox();
    // Counted first, as the contact form counts every enquiry, spam or not.
    const refusal = await services.admit(context.clientAddress);
    if (refusal) return refused(429, refusal.error.detail, message, refusal.retryAfterSeconds);
    let spam: string[] | undefined;
    if (services.config.spam?.filter ?? true) {
      const formToken = await formTokenProblem(store, form.get(formTokenField));
      const honeypot = String(form.get(honeypotField) ?? "");
      const signals = { name: build.customerName, email: "", message, honeypot, formToken };
      const judgement = judgeEnquiry(signals, await store.spamCounts(spamFeatures(signals)));
      // Spam (a bot's behaviour, or words the owner taught it): kept aside in the timeline, announced to nobody, and
      // the sender told the usual thank-you, so a bot learns nothing.
      if (judgement.verdict === "spam") {
        log.info(`build page: an answer was kept aside as spam (${judgement.reasons.join("; ")})`);
        spam = judgement.reasons;
      }
    }
    const channels = spam ? [] : services.channels();
    if (!(await store.answerFromBuildPage(build.enquiryId, message, channels, new Date(), spam)))
      return refused(404, words.notStored);
    if (channels.length > 0) services.wakeOwnerAlerts?.();
    return { kind: "sent" };
  } catch (error) {
    log.error(`build page: could not store an answer: ${(error as Error).message}`);
    return refused(503, words.notStored, message, 30);
  }
}
