import { enquiryMessages } from "~/wording";

/**
 * The enquiry API's answer, as the upstream and our own POST /api/site/save-contact both give it: the errors list
 * (its entries, how an upstream's is read, the spec's "Error: title: detail" line), what became of a send, and the
 * status line the visitor sees for each. Shared with the browser.
 */

/** One entry of the upstream's `errors` list. */
export interface ApiError {
  title: string;
  detail: string;
}

/** What became of one attempt to send an enquiry; every failure is a value, never a thrown error. */
export type Outcome =
  | { kind: "sent"; status: number }
  | { kind: "rejected"; status: number; errors: ApiError[] }
  | { kind: "failed"; status: number }
  | { kind: "unreachable"; error: string }
  | { kind: "timeout" };

/** "Error: t: d t2: d2", the spec's format for an errors list. */
export function formatErrors(errors: readonly ApiError[]): string {
  const entries = errors.map(({ title, detail }) => [title, detail].filter(Boolean).join(": "));
  return [enquiryMessages.errorPrefix, ...entries].join(" ");
}

/** How much of an upstream's errors list is shown: enough for every field of the form, never a wall of text. */
export const maxShownErrors = 8;
export const maxErrorTextLength = 300;

const asText = (value: unknown) => {
  const text = typeof value === "string" || typeof value === "number" ? String(value).trim() : "";
  return text.length > maxErrorTextLength ? `${text.slice(0, maxErrorTextLength - 1).trimEnd()}…` : text;
};

/**
 * Reads an upstream body defensively: an object with an `errors` array whose items carry a title and/or a detail.
 * Anything else (not an object, no array, no usable item) gives null, which means the generic failure.
 */
export function readErrorList(body: unknown): ApiError[] | null {
  if (typeof body !== "object" || body === null || !("errors" in body) || !Array.isArray(body.errors)) return null;
  const errors = body.errors
    .filter((item): item is Record<string, unknown> => typeof item === "object" && item !== null)
    .map((item) => ({ title: asText(item.title), detail: asText(item.detail) }))
    .filter((item) => item.title || item.detail)
    .slice(0, maxShownErrors);
  return errors.length > 0 ? errors : null;
}

/** The status line the visitor sees for an outcome. */
export function statusText(outcome: Outcome): string {
  switch (outcome.kind) {
    case "sent":
      return enquiryMessages.success;
    case "rejected":
      return formatErrors(outcome.errors);
    case "failed":
      return enquiryMessages.genericFailure;
    case "unreachable":
      return enquiryMessages.unreachable;
    case "timeout":
      return enquiryMessages.timeout;
  }
}

/**
 * The status for an error caught in the browser. It names what went wrong in plain words; the error itself (a
 * framework's "Unable to decode turbo-stream response ...", or any value at all) is for the console, never the page.
 * `fetch` rejects with a TypeError exactly when the request could not be made or the connection failed; anything
 * else means something answered that was not our site's answer (a proxy's 502 or 413 page, a cut-off reply).
 */
export function browserFailureText(error: unknown): string {
  return error instanceof TypeError ? enquiryMessages.browserConnectionFailed : enquiryMessages.browserUnreadableAnswer;
}
