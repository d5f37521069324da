import type { Config } from "~/config.server";
import type { Enquiry } from "~/enquiry/fields";
import { storeEnquiry, type SpamInput } from "~/enquiry/embedded.server";
import { readErrorList, type Outcome } from "~/enquiry/status";

export const saveContactPath = "/api/site/save-contact";

/** The most of an upstream answer that is read: an errors list is a few hundred bytes; the rest is dropped. */
export const maxAnswerBytes = 64 * 1024;

/** Reads at most maxBytes of a body, then cancels the rest; `cut` says whether there was more. */
async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<{ text: string; cut: boolean }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: Buffer.concat(chunks).toString("utf8"), cut: false };
    chunks.push(value);
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return { text: "", cut: true };
    }
  }
}

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
    const answer = response.body ? await readCapped(response.body, maxAnswerBytes) : { text: "", cut: false };
    if (!answer.cut) body = JSON.parse(answer.text);
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

/** Sends to the configured upstream, or, when none is configured, to the site's own embedded back-end. */
export async function sendEnquiry(enquiry: Enquiry, config: Config, spam: SpamInput = {}): Promise<Outcome> {
  if (config.apiHost) return postEnquiry(enquiry, config.apiHost, config.apiTimeoutMs);
  return storeEnquiry(enquiry, { ...spam, filter: config.retention?.spamFilter ?? true });
}

/** "TypeError: fetch failed (ECONNREFUSED)": the error and its cause's code, for the server log. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const detail = cause?.code ?? cause?.message;
  return detail ? `${error.name}: ${error.message} (${detail})` : `${error.name}: ${error.message}`;
}
