import { enquiryFieldNames, honeypotField, maxBodyBytes, type Enquiry, type EnquiryValues } from "~/enquiry/fields";
import { postEnquiry } from "~/enquiry/forward.server";
import { logAttempt } from "~/enquiry/log.server";
import type { RateLimitRefusal } from "~/enquiry/rate-limit.server";
import type { ApiError, Outcome } from "~/enquiry/status";
import { validateEnquiry } from "~/enquiry/validate.server";
import { discardBody, mediaType, readBodyCapped } from "~/http/body.server";
import type { SiteServices } from "~/services.server";

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
  /** The form's hidden field was filled in: a bot, told the usual thank-you; nothing is kept. */
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

/** The captcha: the first name of the villain of A Nightmare on Elm Street, in any case. */
const captchaAnswer = "freddy";
const wrongAnswer: ApiError = { title: "Security", detail: "That is not the right answer to the security question." };
export const isCaptchaAnswer = (answer: string) => answer.trim().toLowerCase() === captchaAnswer;

// The log's names for what happened, as operators' log queries know them.
const logNames: Partial<Record<Acceptance["kind"], string>> = { accepted: "sent", bot: "honeypot" };

export async function acceptEnquiry(
  request: Request,
  source: EnquirySource,
  services: SiteServices,
  clientAddress?: string,
): Promise<Acceptance> {
  const started = performance.now();
  const upstream = services.config.apiHost ? "api" : "embedded";
  const outcome = await accept(request, source, services, clientAddress);
  const detail = outcome.kind === "not-forwarded" ? outcome.outcome : undefined;
  logAttempt({
    outcome: detail ? detail.kind : (logNames[outcome.kind] ?? outcome.kind),
    upstream,
    durationMs: Math.round(performance.now() - started),
    upstreamStatus:
      outcome.kind === "accepted" ? outcome.upstreamStatus : detail && "status" in detail ? detail.status : undefined,
    error: detail?.kind === "unreachable" ? detail.error : detail?.kind === "timeout" ? "timed out" : undefined,
  });
  return outcome;
}

async function accept(
  request: Request,
  source: EnquirySource,
  services: SiteServices,
  clientAddress: string | undefined,
): Promise<Acceptance> {
  if (!mediaTypes[source].includes(mediaType(request))) {
    discardBody(request);
    return { kind: "unsupported-media-type" };
  }
  const body = await readBodyCapped(request, maxBodyBytes);
  if (!body.ok) return { kind: "too-large" };
  const parsed = source === "form" ? await readForm(request, body.bytes) : readJson(body.bytes);
  if (parsed === null) return { kind: "unreadable" };
  if (parsed === "bot") return { kind: "bot" };
  const { input } = parsed;

  const values = enteredValues(input);
  const validation = validateEnquiry(input);
  if (!validation.ok) return { kind: "invalid", errors: validation.errors, values };
  const enquiry = validation.enquiry;
  // The API checks its own captcha; the embedded back-end checks it here, before anything is counted or stored.
  const embedded = !services.config.apiHost;
  if (embedded && !isCaptchaAnswer(enquiry.security)) {
    return { kind: "wrong-answer", errors: [wrongAnswer], values };
  }
  const refusal = services.admit(clientAddress);
  if (refusal) return { kind: "rate-limited", refusal, values };

  if (embedded) return (await store(enquiry, services)) ? { kind: "accepted" } : { kind: "not-stored", values };
  const forwarded = await postEnquiry(enquiry, services.config.apiHost!, services.config.apiTimeoutMs);
  if (forwarded.kind === "sent") return { kind: "accepted", upstreamStatus: forwarded.status };
  return { kind: "not-forwarded", outcome: forwarded, values };
}

/**
 * Stores the enquiry with one pending notification per channel, in one transaction. A duplicate (same address and
 * message within minutes: a double click, a resend after a timeout) is stored and announced once.
 */
async function store({ name, email, message }: Enquiry, services: SiteServices): Promise<boolean> {
  try {
    const saved = await services.inbox().save({ name, email, message }, services.channels());
    if (!saved.duplicate) services.wakeOutbox(); // notify now, not at the next poll
    return true;
  } catch (error) {
    console.error(`inbox: could not store an enquiry: ${(error as Error).message}`);
    return false;
  }
}

/** The form's fields as typed (line breaks as LF, as the browser's maxLength counted them), or "bot". */
async function readForm(
  request: Request,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<{ input: EnquiryValues } | "bot" | null> {
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
  const honeypot = form.get(honeypotField);
  if (typeof honeypot === "string" && honeypot !== "") return "bot";
  const values: EnquiryValues = {};
  for (const field of enquiryFieldNames) {
    const value = form.get(field);
    if (typeof value === "string") values[field] = value.replace(/\r\n?/g, "\n");
  }
  return { input: values };
}

function readJson(bytes: Uint8Array): { input: unknown } | null {
  try {
    return { input: JSON.parse(new TextDecoder().decode(bytes)) as unknown };
  } catch {
    return null;
  }
}

/** What the visitor entered, to show again after a refusal (only text fields; nothing else is echoed). */
function enteredValues(input: unknown): EnquiryValues {
  const values: EnquiryValues = {};
  if (typeof input !== "object" || input === null) return values;
  for (const field of enquiryFieldNames) {
    const value = (input as Record<string, unknown>)[field];
    if (typeof value === "string") values[field] = value;
  }
  return values;
}
