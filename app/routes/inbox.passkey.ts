import type { ActionFunctionArgs, AppLoadContext } from "@remix-run/node";
import { securityCopy } from "~/wording/security";
import { defaultBodyCap, type BodyCap } from "~/http/body-cap";
import { asOperator, requireEmbedded, type AllowedStages, type OperatorSession } from "~/owner/gate.server";
import { privateHeaders } from "~/owner/headers";
import {
  authenticationOptions,
  finishLogin,
  finishRegistration,
  finishVerify,
  PasskeyRefusal,
  passkeyRequest,
  registrationOptions,
  type PasskeyRequest,
} from "~/owner/passkeys.server";

/**
 * The passkeys' JSON exchange (POST /inbox/passkey, fetched by the pages' scripts): `{step: "options", purpose}` gives
 * the options for the browser's WebAuthn call (and stores their challenge), `{step: "finish", purpose, response, ...}`
 * checks what the browser answered. Purposes: `register` (the Security page, a logged-in session at stage setup or
 * full), `login` (the login page, no session), `verify` (the code page, a session at stage password or full). Every
 * answer is JSON: `{options}`, `{next}` (where the page goes now), or `{error}` with a plain message with a 4xx.
 */

const answer = (body: object, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { ...privateHeaders, ...headers } });

const refusal = (words: string, status = 400, extra: object = {}) => answer({ error: words, ...extra }, status);

/** A GET has nothing here (the exchange changes the database: posts only). */
export function loader() {
  return refusal(securityCopy.passkeys.badRequest, 405, {});
}

const stagesFor: Record<"register" | "verify", AllowedStages> = {
  register: ["setup", "full"],
  verify: ["password", "full"],
};

/** The passkeys' exchange posts JSON, not a form: admitPost checks the media type. */
export const bodyCap: BodyCap = { maxBytes: defaultBodyCap, json: true };

export async function action({ request, context }: ActionFunctionArgs) {
  requireEmbedded(context);
  let body: PasskeyRequest;
  try {
    const parsed = passkeyRequest.safeParse(JSON.parse(await request.text()));
    if (!parsed.success) return refusal(securityCopy.passkeys.badRequest);
    body = parsed.data;
  } catch {
    return refusal(securityCopy.passkeys.badRequest);
  }
  try {
    if (body.purpose === "login") return await login(request, context, body);
    return await asOperator(
      { request, context },
      (_args, session) => forOperator(request, context, session, body),
      stagesFor[body.purpose],
    );
  } catch (error) {
    if (error instanceof PasskeyRefusal) {
      const retry = error.retryAfterSeconds;
      return answer({ error: error.words }, error.status, retry ? { "Retry-After": String(retry) } : {});
    }
    // No session (or one at another stage): the gate's redirect, told to the script with a plain message with where to go.
    if (error instanceof Response && error.status >= 300 && error.status < 400) {
      const next = error.headers.get("Location") ?? "/inbox/login";
      // Step-up (adding a passkey with a stale factor) is no failure and no ended session: like a form's redirect to
      // the code page, a 200 that says where the page goes now, with words to show meanwhile.
      if (next.startsWith("/inbox/verify?")) return answer({ next, notice: securityCopy.passkeys.stepUp });
      const cleared = error.headers.get("Set-Cookie");
      return answer({ error: securityCopy.passkeys.sessionEnded, next }, 401, cleared ? { "Set-Cookie": cleared } : {});
    }
    throw error;
  }
}

async function login(request: Request, context: AppLoadContext, body: PasskeyRequest) {
  if (body.step === "options") return answer({ options: await authenticationOptions(context, "login", null) });
  if (body.purpose === "register") return refusal(securityCopy.passkeys.badRequest);
  const { next, cookie, browserCookie } = await finishLogin(request, context, body);
  const headers = new Headers(privateHeaders);
  headers.append("Set-Cookie", cookie);
  headers.append("Set-Cookie", browserCookie);
  return Response.json({ next }, { headers });
}

/** A finish that changed the session's stage sets its new id (and says only where to go next). */
function withCookie({ cookie, ...rest }: { next: string; cookie?: string }) {
  return answer(rest, 200, cookie ? { "Set-Cookie": cookie } : {});
}

async function forOperator(request: Request, context: AppLoadContext, session: OperatorSession, body: PasskeyRequest) {
  if (body.step === "options") {
    if (body.purpose === "register") return answer({ options: await registrationOptions(context, session) });
    return answer({ options: await authenticationOptions(context, "verify", session) });
  }
  if (body.purpose === "register") return withCookie(await finishRegistration(context, session, body, request));
  return withCookie(await finishVerify(context, session, body));
}
