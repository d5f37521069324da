import type { AppLoadContext } from "@remix-run/node";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { z } from "zod";
import { inboxCopy } from "~/wording/inbox";
import { securityCopy } from "~/wording/security";
import { clientKey } from "~/http/rate-limit.server";
import { describeBrowser } from "~/owner/browser";
import { type OperatorSession, inboxStore, requireFreshToAddFactor, safeNext } from "~/owner/gate.server";
import { announceFactorAdded, noteLogin } from "~/owner/new-login.server";
import { hashSessionId, newSessionId, renewedSession, sessionCookie, sessionIdOf } from "~/owner/session.server";
import type { ChallengePurpose, Passkey } from "~/store/factors.types";
import type { FactorStore } from "~/store/factors.types";
import type { OwnerStore } from "~/store/owner.types";
import { oneLine } from "~/text/safety";

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server: the options the browser is given and the checks of what it sends
 * back, for the three ceremonies: adding a passkey (Security page), logging in with a passkey alone (discoverable
 * credentials, the login page) and the second step or step-up (the code page). The relying party is PUBLIC_URL's host.
 *
 * Every challenge is made by the library, kept in the database for five minutes with its purpose (and its operator),
 * and TAKEN (deleted in the same statement) before anything the browser sent is believed: a challenge answers once on
 * any instance, only for the ceremony it was made for. The browser's copy of the challenge is only a key to look it up;
 * the library then checks that the signed client data names exactly it.
 */

export const challengeTtlMs = 5 * 60_000;
/** What the browser is told to wait for the person (the challenge lives longer, so a slow one is still accepted). */
const ceremonyTimeoutMs = 2 * 60_000;
export const passkeyNameMax = 60;

/** The relying party: PUBLIC_URL's host name is the RP ID (browsers refuse an IP address), its origin the origin. */
export function relyingParty(context: AppLoadContext) {
  const url = new URL(context.services.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin, name: `${url.hostname} inbox` };
}

/** A refusal with a plain message: the JSON exchange's 400 (or 401/403/429). */
export class PasskeyRefusal extends Error {
  constructor(
    readonly words: string,
    readonly status = 400,
    readonly retryAfterSeconds?: number,
  ) {
    super(words);
  }
}

const base64url = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[A-Za-z0-9_-]+$/);
const clientExtensions = z.record(z.string(), z.unknown()).default({});

/** What startRegistration() gives back, as far as the server reads it (the library checks the rest). */
const registrationResponse = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url.max(16_384),
    transports: z.array(z.string().max(32)).max(10).optional(),
    authenticatorData: base64url.max(16_384).optional(),
    publicKey: base64url.optional(),
    publicKeyAlgorithm: z.number().optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: clientExtensions,
});

/** What startAuthentication() gives back. */
const authenticationResponse = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  clientExtensionResults: clientExtensions,
});

/** Every body the exchange accepts: a ceremony's first step (options) or its answer (finish). */
export const passkeyRequest = z.union([
  z.object({ step: z.literal("options"), purpose: z.enum(["register", "login", "verify"]) }),
  z.object({
    step: z.literal("finish"),
    purpose: z.literal("register"),
    name: z.string().max(1000),
    response: registrationResponse,
  }),
  z.object({
    step: z.literal("finish"),
    purpose: z.enum(["login", "verify"]),
    next: z.string().max(2000).optional(),
    response: authenticationResponse,
  }),
]);
export type PasskeyRequest = z.infer<typeof passkeyRequest>;

const b64 = {
  decode: (text: string) => new Uint8Array(Buffer.from(text, "base64url")),
  encode: (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url"),
};

/** The user handle: the operator's id as bytes (stable and opaque; never the e-mail address). */
const userHandleOf = (operatorId: string) => new TextEncoder().encode(operatorId);

/**
 * The challenge the browser's signed client data names, taken from the database for this purpose: undefined when it
 * is unknown, used, expired or of another purpose. Taken before any other check, so a refused answer spends it too.
 */
async function takeAnsweredChallenge(
  store: FactorStore & OwnerStore,
  clientDataJSON: string,
  purpose: ChallengePurpose,
  now: Date,
): Promise<{ challenge: string; operatorId: string | null }> {
  let challenge: unknown;
  try {
    challenge = (JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown })
      .challenge;
  } catch {
    throw new PasskeyRefusal(securityCopy.passkeys.badRequest);
  }
  if (typeof challenge !== "string" || !/^[A-Za-z0-9_-]{16,200}$/.test(challenge)) {
    throw new PasskeyRefusal(securityCopy.passkeys.badRequest);
  }
  const taken = await store.takeChallenge(challenge, purpose, now);
  if (!taken) throw new PasskeyRefusal(securityCopy.passkeys.expired);
  return { challenge, operatorId: taken.operatorId };
}

const expiry = (now: Date) => new Date(now.getTime() + challengeTtlMs);
const clientOf = (context: AppLoadContext) => (context.peerAddress ? clientKey(context.peerAddress) : "unknown");

// --- Adding a passkey (Security page) ---

/** Adding a passkey asks for step-up (or, for the first factor, a fresh password) at both steps. */
const securityPage = "/inbox/security";

export async function registrationOptions(context: AppLoadContext, session: OperatorSession, now = new Date()) {
  await requireFreshToAddFactor(session, securityPage, context.services.config, now);
  const { rpID, name } = relyingParty(context);
  const { operator, store } = session;
  const existing = await store.listPasskeys(operator.id);
  const options = await generateRegistrationOptions({
    rpName: name,
    rpID,
    userName: operator.email,
    userDisplayName: operator.email,
    userID: userHandleOf(operator.id),
    attestationType: "none",
    timeout: ceremonyTimeoutMs,
    excludeCredentials: existing.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "preferred" },
  });
  await store.putChallenge(options.challenge, "register", operator.id, expiry(now));
  return options;
}

/** `cookie`: the session's new id when adding the first factor changed its stage (setup → full), to set. */
export async function finishRegistration(
  context: AppLoadContext,
  session: OperatorSession,
  request: Extract<PasskeyRequest, { purpose: "register"; step: "finish" }>,
  httpRequest: Request,
  now = new Date(),
): Promise<{ next: string; cookie?: string }> {
  // Checked again at the answer: the factor may have turned stale since the options.
  await requireFreshToAddFactor(session, securityPage, context.services.config, now);
  const { operator, store, sessionIdHash, stage } = session;
  const name = oneLine(request.name, 1000).trim();
  if (!name || name.length > passkeyNameMax) throw new PasskeyRefusal(securityCopy.passkeys.nameMissing);
  const taken = await takeAnsweredChallenge(store, request.response.response.clientDataJSON, "register", now);
  if (taken.operatorId !== operator.id) throw new PasskeyRefusal(securityCopy.passkeys.expired);
  const { rpID, origin } = relyingParty(context);
  let credential;
  try {
    const verified = await verifyRegistrationResponse({
      response: request.response as RegistrationResponseJSON,
      expectedChallenge: taken.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      // Preferred, not required, when adding: a key without user verification still serves as the second step (the
      // passkey login alone refuses it).
      requireUserVerification: false,
    });
    if (!verified.verified) throw new PasskeyRefusal(securityCopy.passkeys.refused);
    credential = verified.registrationInfo.credential;
  } catch (error) {
    if (error instanceof PasskeyRefusal) throw error;
    throw new PasskeyRefusal(securityCopy.passkeys.refused);
  }
  if (await store.findPasskey(credential.id)) throw new PasskeyRefusal(securityCopy.passkeys.alreadyRegistered, 409);
  await store.addPasskey({
    id: credential.id,
    operatorId: operator.id,
    name,
    publicKey: b64.encode(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
    createdAt: now,
  });
  // Adding one is not passing one (it never makes the factor fresh). A session at `setup` has now set up its
  // first factor and goes on to the inbox, under a new id (a change of stage).
  const renewed = stage === "setup" ? renewedSession(context) : undefined;
  const setUp = renewed ? await store.finishSetup(sessionIdHash, renewed.idHash) : false;
  await store.logActivity(
    { actor: operator.email, action: "passkey added", detail: `"${name}" from ${clientOf(context)}` },
    now,
  );
  await announceFactorAdded(httpRequest, context, operator, { kind: "passkey-added", name }, now);
  return {
    next: `/inbox/security?done=${stage === "setup" ? "passkey-added-setup" : "passkey-added"}`,
    ...(setUp && renewed ? { cookie: renewed.cookie } : {}),
  };
}

// --- Using a passkey: the login alone, or the second step / step-up ---

export async function authenticationOptions(
  context: AppLoadContext,
  purpose: "login" | "verify",
  session: OperatorSession | null,
  now = new Date(),
) {
  const { rpID } = relyingParty(context);
  const store = session?.store ?? inboxStore(context);
  if (purpose === "login") {
    // The login's challenge takes from the same site-wide login rate as a password: an answer needs a challenge and
    // each answers once, so this bounds both the logins tried and the challenges stored by anyone without a session.
    const wait = await context.services.admitLogin();
    if (wait !== null) throw new PasskeyRefusal(inboxCopy.login.busy(wait), 429, wait);
  }
  const allow = session ? await store.listPasskeys(session.operator.id) : [];
  if (session && allow.length === 0) throw new PasskeyRefusal(securityCopy.passkeys.unknownKey);
  const options = await generateAuthenticationOptions({
    rpID,
    timeout: ceremonyTimeoutMs,
    // The login: any passkey of this site (discoverable); the second step: this operator's own.
    allowCredentials: allow.map((passkey) => ({ id: passkey.id, transports: passkey.transports })),
    userVerification: purpose === "login" ? "required" : "preferred",
  });
  await store.putChallenge(options.challenge, purpose, session?.operator.id ?? null, expiry(now));
  return options;
}

/** The checked assertion: the passkey it was made with, its counter moved on. */
async function checkAssertion(
  context: AppLoadContext,
  store: FactorStore & OwnerStore,
  response: z.infer<typeof authenticationResponse>,
  challenge: string,
  requireUserVerification: boolean,
  now: Date,
): Promise<Passkey> {
  if (response.id !== response.rawId) throw new PasskeyRefusal(securityCopy.passkeys.badRequest);
  const passkey = await store.findPasskey(response.id);
  if (!passkey) throw new PasskeyRefusal(securityCopy.passkeys.unknownKey);
  // A discoverable credential names its user: it must be the passkey's own operator.
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== b64.encode(userHandleOf(passkey.operatorId))) {
    throw new PasskeyRefusal(securityCopy.passkeys.refused);
  }
  const { rpID, origin } = relyingParty(context);
  let newCounter: number;
  let userVerified: boolean;
  try {
    const verified = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.id,
        publicKey: b64.decode(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: false,
    });
    if (!verified.verified) throw new PasskeyRefusal(securityCopy.passkeys.refused);
    ({ newCounter, userVerified } = verified.authenticationInfo);
  } catch (error) {
    if (error instanceof PasskeyRefusal) throw error;
    throw new PasskeyRefusal(securityCopy.passkeys.refused);
  }
  if (requireUserVerification && !userVerified) throw new PasskeyRefusal(securityCopy.passkeys.notVerified);
  await store.usePasskey(passkey.id, newCounter, now);
  return passkey;
}

/** `cookie`: the session's; `browserCookie`: the browser's id for the new-login alert (app/owner/new-login.server.ts). */
export type PasskeyLogin = { next: string; cookie: string; browserCookie: string };

/**
 * The login with a passkey alone: a whole session (stage `full`, its factor now), as the password and a code give.
 * Its challenge took from the site-wide login rate (authenticationOptions). The passkey must have verified its user (a PIN, a
 * fingerprint): possession alone is one factor, not two.
 */
export async function finishLogin(
  request: Request,
  context: AppLoadContext,
  body: Extract<PasskeyRequest, { purpose: "login" | "verify"; step: "finish" }>,
  now = new Date(),
): Promise<PasskeyLogin> {
  const store = inboxStore(context);
  const client = clientOf(context);
  const taken = await takeAnsweredChallenge(store, body.response.response.clientDataJSON, "login", now);
  if (taken.operatorId !== null) throw new PasskeyRefusal(securityCopy.passkeys.expired);
  const passkey = await checkAssertion(context, store, body.response, taken.challenge, true, now);
  const operator = (await store.listOperators()).find((candidate) => candidate.id === passkey.operatorId);
  if (!operator) throw new PasskeyRefusal(securityCopy.passkeys.unknownKey);
  // A new id at every login: a session id planted before it is never the one that gets in.
  const previous = sessionIdOf(request, context.services.config);
  if (previous) await store.deleteSession(hashSessionId(previous));
  const id = newSessionId();
  const browser = describeBrowser(request.headers.get("User-Agent"));
  await store.createSession(hashSessionId(id), operator.id, { stage: "full", factorAt: now, browser, client }, now);
  await store.logActivity(
    { actor: operator.email, action: "logged in (passkey)", detail: `"${passkey.name}" from ${client}` },
    now,
  );
  // A passkey login from a browser not seen before is announced like a password login.
  const browserCookie = await noteLogin(request, context, operator, now);
  return { next: safeNext(body.next ?? null), cookie: sessionCookie(context.services.config, id), browserCookie };
}

/** The second step or step-up: a passkey of THIS operator, on a challenge made for this operator. */
export async function finishVerify(
  context: AppLoadContext,
  session: OperatorSession,
  body: Extract<PasskeyRequest, { purpose: "login" | "verify"; step: "finish" }>,
  now = new Date(),
): Promise<{ next: string; cookie?: string }> {
  const { store, operator, sessionIdHash, stage } = session;
  const taken = await takeAnsweredChallenge(store, body.response.response.clientDataJSON, "verify", now);
  if (taken.operatorId !== operator.id) throw new PasskeyRefusal(securityCopy.passkeys.expired);
  const owned = await store.findPasskey(body.response.id);
  if (owned && owned.operatorId !== operator.id) throw new PasskeyRefusal(securityCopy.passkeys.otherOperator, 403);
  const passkey = await checkAssertion(context, store, body.response, taken.challenge, false, now);
  // The login's second step changes the session's stage: a new id (step-up keeps it).
  const renewed = stage === "full" ? undefined : renewedSession(context);
  await store.passSecondFactor(sessionIdHash, now, renewed?.idHash);
  await store.logActivity(
    {
      actor: operator.email,
      action: "second factor passed (passkey)",
      detail: `"${passkey.name}" from ${clientOf(context)}`,
    },
    now,
  );
  return { next: safeNext(body.next ?? null), ...(renewed ? { cookie: renewed.cookie } : {}) };
}
