import { data, redirect } from "@remix-run/node";
import { enquiryErrors } from "~/wording";
import type { Acceptance } from "~/enquiry/accept.server";
import type { EnquiryValues } from "~/enquiry/fields";
import { formatErrors, statusText, type ApiError, type Outcome } from "~/enquiry/api-answer";

/** How each caller of acceptEnquiry answers: the contact page (a status line) and the JSON API (its errors list). */

/** What the contact page shows after a post that did not succeed. */
export interface ContactActionData {
  status: string;
  values: EnquiryValues;
  /** A new form token for the next try, when the one posted was used up by a save that failed. */
  formToken?: string;
}

/** Where a successful post lands (post/redirect/get): reloading it sends nothing again. */
export const sentLocation = "/contact?sent=1";

/** The HTTP status of the page when the API did not take the enquiry: never 500, so its fault never looks like ours. */
function forwardStatus(outcome: Exclude<Outcome, { kind: "sent" }>): number {
  switch (outcome.kind) {
    case "rejected":
      // 503 says "try again later"; 4xx is about the enquiry; any other upstream fault is a bad gateway.
      return (outcome.status >= 400 && outcome.status < 500) || outcome.status === 503 ? outcome.status : 502;
    case "failed":
    case "unreachable":
      return 502;
    case "timeout":
      return 504;
  }
}

export function contactPageAnswer(acceptance: Acceptance, formToken?: string) {
  const page = (status: number, text: string, values: EnquiryValues = {}, headers?: HeadersInit) =>
    data<ContactActionData>({ status: text, values, ...(formToken ? { formToken } : {}) }, { status, headers });
  switch (acceptance.kind) {
    case "accepted":
    case "spam": // spam and bots see the usual thank-you
    case "bot":
      return redirect(sentLocation, 303);
    case "unsupported-media-type":
      return page(415, formatErrors([enquiryErrors.form.unsupportedMediaType]));
    case "too-large":
      return page(413, formatErrors([enquiryErrors.form.tooLarge]));
    case "unreadable":
      return page(400, formatErrors([enquiryErrors.form.unreadable]));
    case "invalid":
    case "wrong-answer":
      return page(400, formatErrors(acceptance.errors), acceptance.values);
    case "rate-limited":
      return page(429, formatErrors([acceptance.refusal.error]), acceptance.values, {
        "Retry-After": String(acceptance.refusal.retryAfterSeconds),
      });
    case "not-stored":
      return page(503, formatErrors([enquiryErrors.notStored]), acceptance.values);
    case "not-forwarded":
      return page(forwardStatus(acceptance.outcome), statusText(acceptance.outcome), acceptance.values);
  }
}

/** The upstream API's contract: 204 on success, otherwise `{ errors: [{ title, detail }] }`. */
export function apiAnswer(acceptance: Acceptance): Response {
  const errors = (status: number, list: ApiError[], headers?: HeadersInit) =>
    Response.json({ errors: list }, { status, headers });
  switch (acceptance.kind) {
    case "accepted":
    case "spam":
    case "bot":
      return new Response(null, { status: 204 });
    case "unsupported-media-type":
      return errors(415, [enquiryErrors.api.unsupportedMediaType]);
    case "too-large":
      return errors(413, [enquiryErrors.api.tooLarge]);
    case "unreadable":
      return errors(400, [enquiryErrors.api.unreadable]);
    case "invalid":
    case "wrong-answer":
      return errors(400, acceptance.errors);
    case "rate-limited":
      return errors(429, [acceptance.refusal.error], { "Retry-After": String(acceptance.refusal.retryAfterSeconds) });
    case "not-stored":
      return errors(503, [enquiryErrors.notStored]);
    case "not-forwarded":
      return errors(forwardStatus(acceptance.outcome), [
        { title: enquiryErrors.api.notForwardedTitle, detail: statusText(acceptance.outcome) },
      ]);
  }
}
