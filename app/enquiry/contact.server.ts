import { data, redirect } from "@remix-run/node";
import type { Config } from "~/config.server";
import { enquiryFieldNames, honeypotField, maxBodyBytes, type EnquiryValues } from "~/enquiry/fields";
import { sendEnquiry } from "~/enquiry/forward.server";
import { isCaptchaAnswer } from "~/enquiry/embedded.server";
import { logAttempt } from "~/enquiry/log.server";
import { admitEnquiry } from "~/enquiry/rate-limit.server";
import { formatErrors, statusText, type ApiError, type Outcome } from "~/enquiry/status";
import { validateEnquiry } from "~/enquiry/validate.server";
import { discardBody, mediaType, readBodyCapped } from "~/http/body.server";

/** What the contact page shows after a post that did not succeed. */
export interface ContactActionData {
  status: string;
  values: EnquiryValues;
}

/** Where a successful post lands (post/redirect/get): reloading it sends nothing again. */
export const sentLocation = "/contact?sent=1";

const formTypes = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

const refuse = (status: number, errors: ApiError[], values: EnquiryValues = {}) =>
  data<ContactActionData>({ status: formatErrors(errors), values }, { status });

/** The HTTP status of the page for an outcome: never 500, so an upstream fault never looks like our crash. */
function pageStatus(outcome: Outcome): number {
  switch (outcome.kind) {
    case "sent":
      return 200;
    case "rejected":
      // 503 says "try again later" (the embedded store, or an upstream that says so); other upstream faults are 502.
      return (outcome.status >= 400 && outcome.status < 500) || outcome.status === 503 ? outcome.status : 502;
    case "failed":
    case "unreachable":
      return 502;
    case "timeout":
      return 504;
  }
}

async function readForm(
  request: Request,
  type: string,
  bytes: Uint8Array<ArrayBuffer>,
): Promise<URLSearchParams | FormData | null> {
  if (type === "application/x-www-form-urlencoded") return new URLSearchParams(new TextDecoder().decode(bytes));
  try {
    const contentType = request.headers.get("content-type") ?? type;
    return await new Response(bytes, { headers: { "Content-Type": contentType } }).formData();
  } catch {
    return null;
  }
}

/**
 * The contact route's action: check the request, validate, forward, and map the outcome to the status line.
 * clientAddress (known only behind a trusted proxy) is what the per-client rate limit counts by.
 */
export async function handleContactPost(request: Request, config: Config, clientAddress?: string) {
  const started = performance.now();
  const upstream = config.apiHost ? "api" : "embedded";
  const finish = (outcome: string, extra: { upstreamStatus?: number; error?: string } = {}) =>
    logAttempt({ outcome, upstream, durationMs: Math.round(performance.now() - started), ...extra });

  const type = mediaType(request);
  if (!formTypes.has(type)) {
    discardBody(request);
    finish("unsupported-media-type");
    return refuse(415, [{ title: "Request", detail: "Please send your enquiry with the contact form." }]);
  }
  const body = await readBodyCapped(request, maxBodyBytes);
  if (!body.ok) {
    finish("too-large");
    return refuse(413, [{ title: "Message", detail: "Your enquiry is too long to send. Please shorten it." }]);
  }
  const form = await readForm(request, type, body.bytes);
  if (!form) {
    finish("unreadable");
    return refuse(400, [{ title: "Request", detail: "The form could not be read. Please try again." }]);
  }

  const values: EnquiryValues = {};
  for (const field of enquiryFieldNames) {
    const value = form.get(field);
    // Browsers post a textarea's line breaks as CRLF; keep them as typed (LF), as maxLength counted them.
    if (typeof value === "string") values[field] = value.replace(/\r\n?/g, "\n");
  }
  const honeypot = form.get(honeypotField);
  if (typeof honeypot === "string" && honeypot !== "") {
    finish("honeypot");
    return redirect(sentLocation, 303); // a bot sees the usual thank-you; nothing is sent or stored
  }

  const validation = validateEnquiry(values);
  if (!validation.ok) {
    finish("invalid");
    return refuse(400, validation.errors, values);
  }
  // A wrong captcha answer for the embedded back-end is refused there without being stored: it is not counted.
  const stored = config.apiHost !== undefined || isCaptchaAnswer(validation.enquiry.security);
  const limited = stored ? await admitEnquiry(config, clientAddress) : null;
  if (limited) {
    finish("rate-limited");
    return data<ContactActionData>(
      { status: formatErrors([limited.error]), values },
      { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } },
    );
  }

  const outcome = await sendEnquiry(validation.enquiry, config);
  finish(outcome.kind, {
    upstreamStatus: "status" in outcome ? outcome.status : undefined,
    error: outcome.kind === "unreachable" ? outcome.error : outcome.kind === "timeout" ? "timed out" : undefined,
  });
  if (outcome.kind === "sent") return redirect(sentLocation, 303);
  return data<ContactActionData>({ status: statusText(outcome), values }, { status: pageStatus(outcome) });
}
