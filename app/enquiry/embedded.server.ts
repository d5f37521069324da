import { maxBodyBytes, type Enquiry } from "~/enquiry/fields";
import type { RateLimitRefusal } from "~/enquiry/rate-limit.server";
import type { ApiError, Outcome } from "~/enquiry/status";
import { validateEnquiry } from "~/enquiry/validate.server";
import { discardBody, mediaType, readBodyCapped } from "~/http/body.server";
import { wakeOutbox } from "~/inbox/outbox.server";
import { currentInbox, inboxChannels } from "~/inbox/runtime.server";

/**
 * The embedded back-end, used when no API_HOST is configured: the same contract as the upstream API (`errors` list on
 * failure, 2xx on success). Accepted enquiries go into the inbox database with their pending notifications.
 */

/** The captcha: the first name of the villain of A Nightmare on Elm Street. */
const captchaAnswer = "freddy";

export function isCaptchaAnswer(answer: string): boolean {
  return answer.trim().toLowerCase() === captchaAnswer;
}

// After a timeout the database may still finish the save: say so. Sending again is safe (the duplicate check).
const storeFailure: ApiError = {
  title: "Server",
  detail:
    "We could not confirm that your enquiry was saved. Please send it again in a few minutes: it will not be stored twice.",
};

/**
 * Stores a validated enquiry: the one way in, for the contact form's action and for POST /api/site/save-contact.
 * A duplicate (same address and message within minutes: a double click, a resubmit after a timeout) is thanked like
 * the first, and stored and announced once.
 */
export async function storeEnquiry({ name, email, message, security }: Enquiry): Promise<Outcome> {
  if (!isCaptchaAnswer(security)) {
    return {
      kind: "rejected",
      status: 400,
      errors: [{ title: "Security", detail: "That is not the right answer to the security question." }],
    };
  }
  try {
    const saved = await currentInbox().save({ name, email, message }, inboxChannels());
    if (!saved.duplicate) wakeOutbox(); // notify now, not at the next poll
    return { kind: "sent", status: 204 };
  } catch (error) {
    console.error(`inbox: could not store an enquiry: ${(error as Error).message}`);
    return { kind: "rejected", status: 503, errors: [storeFailure] };
  }
}

const errorResponse = (status: number, errors: ApiError[]) => Response.json({ errors }, { status });

/**
 * POST /api/site/save-contact: the upstream API's contract over HTTP, for clients other than our own form. `admit`,
 * when given, is asked once the enquiry is valid and about to be stored (the endpoint's rate limit).
 */
export async function handleSaveContact(
  request: Request,
  { admit }: { admit?: () => Promise<RateLimitRefusal | null> } = {},
): Promise<Response> {
  if (mediaType(request) !== "application/json") {
    discardBody(request);
    return errorResponse(415, [{ title: "Request", detail: "Send the enquiry as application/json." }]);
  }
  const body = await readBodyCapped(request, maxBodyBytes);
  if (!body.ok) return errorResponse(413, [{ title: "Request", detail: "The enquiry is too large." }]);

  let input: unknown;
  try {
    input = JSON.parse(new TextDecoder().decode(body.bytes));
  } catch {
    return errorResponse(400, [{ title: "Request", detail: "The enquiry is not valid JSON." }]);
  }
  const validation = validateEnquiry(input);
  if (!validation.ok) return errorResponse(400, validation.errors);

  // A wrong captcha answer is refused without using up an allowance.
  const limited = isCaptchaAnswer(validation.enquiry.security) ? await admit?.() : null;
  if (limited) {
    return Response.json(
      { errors: [limited.error] },
      { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } },
    );
  }
  const outcome = await storeEnquiry(validation.enquiry);
  if (outcome.kind === "rejected") return errorResponse(outcome.status, outcome.errors);
  return new Response(null, { status: 204 });
}
