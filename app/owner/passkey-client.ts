import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { useSyncExternalStore } from "react";
import { securityCopy } from "~/wording/security";
import { describeBrowser } from "~/owner/browser";

/**
 * The browser's side of the passkeys (app/routes/inbox.passkey.ts is the server's): ask for options, let the browser
 * talk to the authenticator, send its answer back. Every failure becomes words for a role="alert".
 */

const words = securityCopy.passkeys;

export class PasskeyProblem extends Error {}

/** `notice` with `next`: step-up first (the code page), no failure. */
type Exchange = { error?: string; notice?: string; next?: string; options?: unknown };

async function exchange(body: object): Promise<Exchange> {
  let response: Response;
  try {
    response = await fetch("/inbox/passkey", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify(body),
    });
  } catch {
    throw new PasskeyProblem(words.network);
  }
  const answer = (await response.json().catch(() => null)) as Exchange | null;
  if (answer && response.status === 401 && answer.next) {
    // The session ended (or is at another stage): its page says what to do.
    window.location.assign(answer.next);
    throw new PasskeyProblem(answer.error ?? words.sessionEnded);
  }
  if (!response.ok || !answer) throw new PasskeyProblem(answer?.error ?? words.failed);
  if (answer.notice && answer.next) {
    // Asked for a code or passkey again first (step-up): the code page comes back here afterwards.
    window.location.assign(answer.next);
    throw new PasskeyProblem(answer.notice);
  }
  return answer;
}

/** What the browser's WebAuthn call failed with, spelled out. */
function ceremonyProblem(error: unknown): PasskeyProblem {
  if (error instanceof PasskeyProblem) return error;
  if (error instanceof WebAuthnError && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") {
    return new PasskeyProblem(words.alreadyRegistered);
  }
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError") return new PasskeyProblem(words.cancelled);
  if (name === "InvalidStateError") return new PasskeyProblem(words.alreadyRegistered);
  return new PasskeyProblem(words.failed);
}

/** Adds a passkey with this name; resolves with where the page goes next. */
export async function addPasskey(name: string): Promise<string> {
  const { options } = await exchange({ step: "options", purpose: "register" });
  let response;
  try {
    response = await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
  } catch (error) {
    throw ceremonyProblem(error);
  }
  const { next } = await exchange({ step: "finish", purpose: "register", name, response });
  return next ?? "/inbox/security";
}

/** Logs in with a passkey alone (`login`), or passes the second step with one (`verify`); resolves with `next`. */
export async function proveWithPasskey(purpose: "login" | "verify", next: string): Promise<string> {
  const { options } = await exchange({ step: "options", purpose });
  let response;
  try {
    response = await startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
  } catch (error) {
    throw ceremonyProblem(error);
  }
  const answer = await exchange({ step: "finish", purpose, next, response });
  return answer.next ?? "/inbox";
}

/** The words of anything a passkey button's work threw. */
export const problemWords = (error: unknown) => (error instanceof PasskeyProblem ? error.message : words.failed);

/**
 * Whether this page can use passkeys: "no-js" until the app has hydrated (and for ever without JavaScript),
 * "unsupported" in a browser without WebAuthn, "ready" otherwise.
 */
export function usePasskeySupport(): "no-js" | "unsupported" | "ready" {
  return useSyncExternalStore(
    unchanging,
    () => (browserSupportsWebAuthn() ? "ready" : "unsupported"),
    () => "no-js",
  );
}

/** This browser's description ("Chrome on Android"); null in the server's render and before hydration. */
export function useBrowserName(): string | null {
  return useSyncExternalStore(
    unchanging,
    () => describeBrowser(navigator.userAgent),
    () => null,
  );
}

const unchanging = () => () => {};
