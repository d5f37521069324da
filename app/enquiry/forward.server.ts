import type { Enquiry } from "~/enquiry/fields";
import { readErrorList, type Outcome } from "~/enquiry/api-answer";
import { readCapped } from "~/http/body.server";

export const saveContactPath = "/api/site/save-contact";

/** The most of an upstream answer that is read: an errors list is a few hundred bytes; the rest is dropped. */
export const maxAnswerBytes = 64 * 1024;

/**
 * Turns the upstream's answer into an outcome: any 2xx is success (body not read); otherwise look for `errors` in the
 * first 64 KiB (a longer answer is no errors list we show). A body that breaks off is a generic failure.
 */
export async function readOutcome(response: Response): Promise<Outcome> {
  if (response.ok) {
    await response.body?.cancel().catch(() => {});
    return { kind: "sent", status: response.status };
  }
  let body: unknown = null;
  try {
    const answer = response.body ? await readCapped(response.body, maxAnswerBytes, "cancel") : null;
    if (answer?.ok !== false) body = JSON.parse(answer ? new TextDecoder().decode(answer.bytes) : "");
  } catch {
    // not JSON (HTML error page, empty body, cut-off stream): the generic failure
  }
  const errors = readErrorList(body);
  return errors ? { kind: "rejected", status: response.status, errors } : { kind: "failed", status: response.status };
}

/**
 * POSTs the enquiry as JSON to `${apiHost}/api/site/save-contact` with a timeout and without following redirects
 * (a 3xx is a failure). Never throws: network faults and timeouts come back as outcomes.
 */
export async function postEnquiry(enquiry: Enquiry, apiHost: string, timeoutMs: number): Promise<Outcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(new URL(saveContactPath, apiHost), {
      method: "POST",
      // identity: what is read is what arrived, with no decompression to blow it up.
      headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Encoding": "identity" },
      body: JSON.stringify(enquiry),
      redirect: "manual",
      signal,
    });
    const outcome = await readOutcome(response);
    // The timeout covers the answer's body too: an upstream that sends headers and then stalls has not answered.
    return signal.aborted && outcome.kind !== "sent" ? { kind: "timeout" } : outcome;
  } catch (error) {
    if (signal.aborted) return { kind: "timeout" };
    return { kind: "unreachable", error: describeError(error) };
  }
}

/** "TypeError: fetch failed (ECONNREFUSED)": the error and its cause's code, for the server log. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const detail = cause?.code ?? cause?.message;
  return detail ? `${error.name}: ${error.message} (${detail})` : `${error.name}: ${error.message}`;
}
