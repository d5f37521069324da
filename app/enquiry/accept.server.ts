import { captchaAnswer, enquiryErrors } from "~/wording";
import {
  aboutField,
  enquiryFieldNames,
  enquiryFields,
  formTokenField,
  honeypotField,
  maxBodyBytes,
  type Enquiry,
  type EnquiryValues,
} from "~/enquiry/fields";
import { formTokenProblem } from "~/enquiry/form-token.server";
import { postEnquiry } from "~/enquiry/forward.server";
import { logAttempt } from "~/enquiry/log.server";
import type { ApiError, Outcome } from "~/enquiry/api-answer";
import { validateEnquiry } from "~/enquiry/validate.server";
import { discardBody, mediaType, readBodyCapped } from "~/http/body.server";
import { judgeEnquiry, spamFeatures } from "~/enquiry/spam.server";
import type { EnquiryAbout, SpamJudgementRecord } from "~/store/records";
import type { Project } from "~/enquiry/about.server";
import { aboutLine, enquiryAbout, projectForId } from "~/enquiry/about.server";
import { currentRequestId, log } from "~/log.server";
import type { EnquiryMetric, RateLimitRefusal, SiteServices } from "~/site-services.server";

/**
 * The one way an enquiry comes in, for the contact form's action and for POST /api/site/save-contact:
 * media type -> size cap -> parse -> validate -> captcha -> rate limit -> store (or forward to API_HOST).
 * It answers with what happened, in the domain's words; each caller turns that into its own answer (a page with a
 * status line, or the API's JSON errors). It never throws for anything a visitor or an outside part does.
 */

/** Where the enquiry came from: the site's form (urlencoded or multipart) or a program posting JSON. */
export type EnquirySource = "form" | "json";

export type Acceptance =
  /** Stored with its notifications (or found to be a resend of one stored minutes ago), or taken by the API. */
  | { kind: "accepted"; upstreamStatus?: number }
  /** Stored aside as spam (its reasons kept, nobody notified); told the usual thank-you, so a bot learns nothing. */
  | { kind: "spam"; reasons: string[] }
  /** With API_HOST, the form's hidden field filled in: a bot, told the usual thank-you; nothing is kept. */
  | { kind: "bot" }
  | { kind: "unsupported-media-type" }
  | { kind: "too-large" }
  | { kind: "unreadable" }
  | { kind: "invalid"; errors: ApiError[]; values: EnquiryValues }
  | { kind: "wrong-answer"; errors: ApiError[]; values: EnquiryValues }
  | { kind: "rate-limited"; refusal: RateLimitRefusal; values: EnquiryValues }
  /** The database did not confirm the save (down, or too slow): it may still have happened. */
  | { kind: "not-stored"; values: EnquiryValues }
  /** The API did not take it. */
  | { kind: "not-forwarded"; outcome: Exclude<Outcome, { kind: "sent" }>; values: EnquiryValues };

const mediaTypes: Record<EnquirySource, readonly string[]> = {
  form: ["application/x-www-form-urlencoded", "multipart/form-data"],
  json: ["application/json"],
};

/** The captcha's answer, trimmed, in any case. */
export const isCaptchaAnswer = (answer: string) => answer.trim().toLowerCase() === captchaAnswer.toLowerCase();

// The log's names for what happened, as operators' log queries know them.
const logNames: Partial<Record<Acceptance["kind"], string>> = { accepted: "sent", bot: "honeypot", spam: "spam" };

export interface AcceptOptions {
  /** The published projects, so that a form's hidden `about` names one (none: it is ignored). */
  projects?: readonly Project[];
  /**
   * Called once a clean enquiry is stored here (spam verdict none: not spam, not possible spam, not a resend of one
   * stored minutes ago); never for one taken by API_HOST, which answers its own. It must neither throw nor keep the
   * visitor waiting (the acknowledgement, app/notify/acknowledgement.server.ts, runs in the background).
   */
  acknowledge?: (enquiryId: string) => void;
}

export async function acceptEnquiry(
  request: Request,
  source: EnquirySource,
  services: SiteServices,
  clientAddress?: string,
  options: AcceptOptions = {},
): Promise<Acceptance> {
  const started = performance.now();
  const upstream = services.config.apiHost ? "api" : "embedded";
  const outcome = await accept(request, source, services, clientAddress, options);
  const detail = outcome.kind === "not-forwarded" ? outcome.outcome : undefined;
  logAttempt({
    outcome: detail ? detail.kind : (logNames[outcome.kind] ?? outcome.kind),
    upstream,
    durationMs: Math.round(performance.now() - started),
    upstreamStatus:
      outcome.kind === "accepted" ? outcome.upstreamStatus : detail && "status" in detail ? detail.status : undefined,
    error: detail?.kind === "unreachable" ? detail.error : detail?.kind === "timeout" ? "timed out" : undefined,
  });
  services.metrics?.enquiry(enquiryMetric(outcome, upstream === "api"));
  return outcome;
}

/** Taken (stored here, or by the API), kept aside as spam, or refused for one of a fixed set of reasons. */
function enquiryMetric(outcome: Acceptance, forwarded: boolean): EnquiryMetric {
  if (outcome.kind === "accepted") return { outcome: forwarded ? "forwarded" : "accepted" };
  if (outcome.kind === "spam") return { outcome: "spam" };
  return { outcome: "refused", reason: outcome.kind === "bot" ? "honeypot" : outcome.kind };
}

async function accept(
  request: Request,
  source: EnquirySource,
  services: SiteServices,
  clientAddress: string | undefined,
  { projects = [], acknowledge }: AcceptOptions,
): Promise<Acceptance> {
  if (!mediaTypes[source].includes(mediaType(request))) {
    discardBody(request);
    return { kind: "unsupported-media-type" };
  }
  const body = await readBodyCapped(request, maxBodyBytes);
  if (!body.ok) return { kind: "too-large" };
  const parsed = source === "form" ? await readForm(request, body.bytes) : readJson(body.bytes);
  if (parsed === null) return { kind: "unreadable" };
  const { input, spam } = parsed;
  const embedded = !services.config.apiHost;
  // The API gets no spam signals: a filled hidden field is dropped here; the embedded inbox keeps it aside as spam.
  if (!embedded && spam?.honeypot) return { kind: "bot" };

  const values = enteredValues(input);
  const validation = validateEnquiry(input);
  if (!validation.ok) return { kind: "invalid", errors: validation.errors, values };
  const enquiry = validation.enquiry;
  // The project as it is named now; an id that names no published project (taken off since) is dropped.
  const asked = projectForId(projects, spam?.about);
  const about = asked ? enquiryAbout(asked) : null;
  // The API checks its own captcha; the embedded back-end checks it here, before anything is counted or stored.
  if (embedded && !isCaptchaAnswer(enquiry.security)) {
    return { kind: "wrong-answer", errors: [enquiryErrors.wrongAnswer], values };
  }
  const refusal = await services.admit(clientAddress);
  if (refusal) return { kind: "rate-limited", refusal, values };

  if (embedded)
    return (
      (await store(enquiry, about, asked?.service ?? null, services, spam, acknowledge)) ?? {
        kind: "not-stored",
        values,
      }
    );
  const forwarded = await postEnquiry(
    withAboutLine(enquiry, about, services.config.publicUrl),
    services.config.apiHost!,
    services.config.apiTimeoutMs,
  );
  if (forwarded.kind === "sent") return { kind: "accepted", upstreamStatus: forwarded.status };
  return { kind: "not-forwarded", outcome: forwarded, values };
}

/**
 * The upstream API has no field for the project (its contract stays as it is): the project's line goes at the end of
 * the message instead, when it still fits the message's limit (the message starts with the title anyway, unless the
 * visitor changed it).
 */
function withAboutLine(enquiry: Enquiry, about: EnquiryAbout | null, siteUrl: string): Enquiry {
  if (!about) return enquiry;
  const message = `${enquiry.message}\n\n${aboutLine(about, siteUrl)}`;
  return message.length <= enquiryFields.message.maxLength ? { ...enquiry, message } : enquiry;
}

/**
 * What the form adds: the spam filter's signals and the project's id (the hidden `about`); absent for JSON (no hidden
 * field, no token: content signals only).
 */
interface FormSignals {
  honeypot: string | undefined;
  token: string | undefined;
  about: string | undefined;
}

/**
 * Stores the enquiry with one pending notification per channel, in one transaction, with the spam filter's judgement:
 * possible spam is announced with a marker, spam is kept aside with its reasons and no notification. A duplicate (same
 * address and message within minutes: a double click, a resend after a timeout) is stored and announced once.
 * Undefined when the database failed.
 */
async function store(
  { name, email, message }: Enquiry,
  about: EnquiryAbout | null,
  service: string | null,
  services: SiteServices,
  form: FormSignals | undefined,
  acknowledge: AcceptOptions["acknowledge"],
): Promise<Acceptance | undefined> {
  try {
    const inbox = services.inbox();
    let judgement: SpamJudgementRecord = { verdict: "none", score: null, reasons: [] };
    if (services.config.spam?.filter ?? true) {
      const formToken = form ? await formTokenProblem(inbox, form.token) : undefined;
      const signals = { name, email, message, honeypot: form?.honeypot, formToken };
      // What the owner taught the model, read fresh each time: a decision on any instance counts at once.
      judgement = judgeEnquiry(signals, await inbox.spamCounts(spamFeatures(signals)));
    }
    const saved = await inbox.save(
      { name, email, message, about, service },
      services.channels(),
      new Date(),
      judgement,
      currentRequestId(),
    );
    if (judgement.verdict === "spam") return { kind: "spam", reasons: judgement.reasons };
    if (!saved.duplicate) services.wakeOutbox(); // notify now, not at the next poll
    if (!saved.duplicate && judgement.verdict === "none") acknowledge?.(saved.id);
    return { kind: "accepted" };
  } catch (error) {
    log.error(`inbox: could not store an enquiry: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * The form's fields as typed (line breaks as LF, as the browser's maxLength counted them) and its spam signals; null
 * when a multipart body cannot be parsed.
 */
async function readForm(
  request: Request,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<{ input: EnquiryValues; spam: FormSignals } | null> {
  let form: URLSearchParams | FormData;
  if (mediaType(request) === "application/x-www-form-urlencoded") {
    form = new URLSearchParams(new TextDecoder().decode(bytes));
  } else {
    try {
      // The multipart parser of the platform (undici), over the bytes already read under the cap.
      form = await new Response(bytes, {
        headers: { "Content-Type": request.headers.get("content-type")! },
      }).formData();
    } catch {
      return null;
    }
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  return {
    input: textFields((field) => text(field)?.replace(/\r\n?/g, "\n")),
    spam: { honeypot: text(honeypotField), token: text(formTokenField), about: text(aboutField) },
  };
}

function readJson(bytes: Uint8Array): { input: unknown; spam?: undefined } | null {
  try {
    return { input: JSON.parse(new TextDecoder().decode(bytes)) as unknown };
  } catch {
    return null;
  }
}

/** What the visitor entered, to show again after a refusal. */
function enteredValues(input: unknown): EnquiryValues {
  if (typeof input !== "object" || input === null) return {};
  return textFields((field) => (input as Record<string, unknown>)[field]);
}

/** The enquiry's fields that are text, as `read` gives them: nothing else is kept or echoed. */
function textFields(read: (field: string) => unknown): EnquiryValues {
  const values: EnquiryValues = {};
  for (const field of enquiryFieldNames) {
    const value = read(field);
    if (typeof value === "string") values[field] = value;
  }
  return values;
}
