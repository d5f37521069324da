import { mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import { maxBodyBytes } from "~/enquiry/fields";
import type { RateLimitRefusal } from "~/enquiry/rate-limit.server";
import type { ApiError } from "~/enquiry/status";
import { validateEnquiry } from "~/enquiry/validate.server";
import { discardBody, mediaType, readBodyCapped } from "~/http/body.server";

/**
 * The embedded default back-end: the same contract as the upstream API (`errors` list on failure, 2xx on success),
 * storing accepted enquiries as JSON lines so a fresh install loses nothing.
 */

/** The captcha: the first name of the villain of A Nightmare on Elm Street. */
const captchaAnswer = "freddy";

export function isCaptchaAnswer(answer: string): boolean {
  return answer.trim().toLowerCase() === captchaAnswer;
}

export interface StoredEnquiry {
  receivedAt: string;
  name: string;
  email: string;
  message: string;
}

// Appends run one after another: with one process, this queue alone keeps lines whole and in order.
let queue: Promise<unknown> = Promise.resolve();

/** Appends one line and flushes it to disk before resolving. */
export function appendEnquiry(file: string, record: StoredEnquiry): Promise<void> {
  const write = queue.then(async () => {
    await mkdir(dirname(file), { recursive: true });
    const handle = await open(file, "a", 0o600);
    try {
      await handle.write(`${JSON.stringify(record)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
  });
  queue = write.catch(() => {});
  return write;
}

const errorResponse = (status: number, errors: ApiError[]) => Response.json({ errors }, { status });

/**
 * admit, when given, is asked once the enquiry is valid and about to be stored (the rate limit of the HTTP endpoint;
 * the contact form has already asked for the enquiries it hands over).
 */
export async function handleSaveContact(
  request: Request,
  inboxFile: string,
  { admit }: { admit?: () => RateLimitRefusal | null } = {},
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

  const { name, email, message, security } = validation.enquiry;
  if (!isCaptchaAnswer(security)) {
    return errorResponse(400, [{ title: "Security", detail: "That is not the right answer to the security question." }]);
  }
  const limited = admit?.();
  if (limited) {
    return Response.json({ errors: [limited.error] }, { status: 429, headers: { "Retry-After": String(limited.retryAfterSeconds) } });
  }
  try {
    await appendEnquiry(inboxFile, { receivedAt: new Date().toISOString(), name, email, message });
  } catch (error) {
    console.error("inbox: could not store an enquiry:", error);
    return errorResponse(503, [{ title: "Server", detail: "The enquiry could not be stored. Please try again later." }]);
  }
  return new Response(null, { status: 204 });
}
