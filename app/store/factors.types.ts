import type { SessionStage } from "~/store/owner.types";

/**
 * The second factor's part of the store: one-time codes, recovery codes, passkeys, sessions' stages
 * (app/store/factors.server.ts).
 */

/** A session as the Security page lists it. */
export interface SessionSummary {
  idHash: string;
  createdAt: Date;
  lastSeenAt: Date;
  browser: string;
  client: string;
  stage: SessionStage;
}

export interface Passkey {
  /** The credential id, base64url. */
  id: string;
  operatorId: string;
  name: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface TotpFactor {
  /** Base32. */
  secret: string;
  confirmedAt: Date | null;
  /** The last 30 s step a code was accepted for: a code of that step or older is never taken again. */
  lastStep: number;
}

export type ChallengePurpose = "register" | "login" | "verify";

/** The second factor (app/store/factors.server.ts): one-time codes, recovery codes, passkeys, sessions' stages. */
export interface FactorStore {
  /** True when the operator has confirmed one-time codes or at least one passkey. */
  hasSecondFactor(operatorId: string): Promise<boolean>;

  /**
   * The session passed a second factor now: it becomes `full` and its factor time is now. With `renewTo`, the session
   * goes on under that new id hash (a change of stage): the old id opens nothing afterwards.
   */
  passSecondFactor(idHash: string, now?: Date, renewTo?: string): Promise<void>;
  /**
   * A session at `setup` whose operator has just set up a first factor: it becomes `full` under the new id hash
   * `renewTo`, its factor time unchanged (adding a factor is not passing one). False when it was not at `setup`.
   */
  finishSetup(idHash: string, renewTo: string): Promise<boolean>;
  /** The operator's live sessions, most recently used first. */
  listSessions(operatorId: string): Promise<SessionSummary[]>;
  /** Ends one of the operator's sessions (none of another operator's); false when there was none. */
  endSession(operatorId: string, idHash: string): Promise<boolean>;
  /** Ends every session of the operator but `keepIdHash`; resolves with how many. */
  endOtherSessions(operatorId: string, keepIdHash: string): Promise<number>;

  totpFactor(operatorId: string): Promise<TotpFactor | null>;
  /** A new secret waiting for its first code (replaces one not confirmed yet; a confirmed one is kept as it is). */
  startTotp(operatorId: string, secret: string, now?: Date): Promise<boolean>;
  /**
   * Takes the code of `step` for the operator: true only when `step` is newer than every step taken before, atomically
   * on every instance, so a code is never accepted twice. `confirm`: also confirms a secret waiting for its first code.
   */
  takeTotpStep(operatorId: string, step: number, options?: { confirm?: boolean; now?: Date }): Promise<boolean>;
  removeTotp(operatorId: string): Promise<boolean>;

  /** Replaces the operator's recovery codes with these hashes. */
  replaceRecoveryCodes(operatorId: string, hashes: readonly string[]): Promise<void>;
  /** Uses the code with this hash once: true the first time, false ever after (or when it is unknown). */
  takeRecoveryCode(operatorId: string, hash: string, now?: Date): Promise<boolean>;
  recoveryCodesLeft(operatorId: string): Promise<number>;

  addPasskey(passkey: Omit<Passkey, "lastUsedAt">): Promise<void>;
  listPasskeys(operatorId: string): Promise<Passkey[]>;
  findPasskey(id: string): Promise<Passkey | null>;
  /** Records a use: the authenticator's new counter and the time. */
  usePasskey(id: string, counter: number, now?: Date): Promise<void>;
  removePasskey(operatorId: string, id: string): Promise<boolean>;

  /** Stores a WebAuthn challenge until `expiresAt`. */
  putChallenge(challenge: string, purpose: ChallengePurpose, operatorId: string | null, expiresAt: Date): Promise<void>;
  /**
   * Takes the challenge (deleted in the same statement, so it answers once on any instance): its operator (null for a
   * passkey login), or undefined when it is unknown, used, expired or of another purpose.
   */
  takeChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    now?: Date,
  ): Promise<{ operatorId: string | null } | undefined>;

  /** Remembers the browser for the operator; true when it had not been seen before. */
  rememberBrowser(operatorId: string, browserHash: string, now?: Date): Promise<boolean>;

  /**
   * Removes every second factor of the operator (codes, recovery codes, passkeys) and ends its sessions: what
   * `operator reset-2fa` does. Null when there is no such operator.
   */
  resetFactors(email: string): Promise<{ sessions: number } | null>;
}
