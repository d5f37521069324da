import type { Config } from "~/config.server";
import type { Enquiry } from "~/enquiry/fields";
import { storeEnquiry } from "~/enquiry/embedded.server";
import { readErrorList, type Outcome } from "~/enquiry/status";

export const saveContactPath = "/api/site/save-contact";

/** Turns the upstream's answer into an outcome: any 2xx is success (body not read); otherwise look for `errors`. */
export async function readOutcome(response: Response): Promise<Outcome> {
  if (response.ok) {
    await response.body?.cancel().catch(() => {});
    return { kind: "sent", status: response.status };
  }
  let body: unknown = null;
  try {
    body = JSON.parse(await response.text());
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
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(enquiry),
      redirect: "manual",
      signal,
    });
    return await readOutcome(response);
  } catch (error) {
    if (signal.aborted) return { kind: "timeout" };
    return { kind: "unreachable", error: describeError(error) };
  }
}

/** Sends to the configured upstream, or, when none is configured, to the site's own embedded back-end. */
export async function sendEnquiry(enquiry: Enquiry, config: Config): Promise<Outcome> {
  return config.apiHost ? postEnquiry(enquiry, config.apiHost, config.apiTimeoutMs) : storeEnquiry(enquiry);
}

/** "TypeError: fetch failed (ECONNREFUSED)": the error and its cause's code, for the server log. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const detail = cause?.code ?? cause?.message;
  return detail ? `${error.name}: ${error.message} (${detail})` : `${error.name}: ${error.message}`;
}
