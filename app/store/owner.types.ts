/**
 * The owner's part of the store: operators, sessions, the login throttle and the activity log (app/store/owner.server.ts).
 */

export interface Operator {
  id: string;
  email: string;
  createdAt: Date;
}

export interface OperatorWithHash extends Operator {
  passwordHash: string;
}

/**
 * How far a session has come: `password` (a second factor is still owed), `setup` (password only and a factor is
 * required: the Security page and nothing else), `full`.
 */
export type SessionStage = "password" | "setup" | "full";

export interface SessionRecord {
  operator: Operator;
  createdAt: Date;
  stage: SessionStage;
  /** When this session last passed a second factor (null: never). */
  factorAt: Date | null;
}

/** What a new session records about where it was opened. */
export interface NewSession {
  stage: SessionStage;
  factorAt: Date | null;
  /** A short description of the browser ("Chrome on Android"), for the Security page. */
  browser: string;
  /** The client address as counted by the login throttle. */
  client: string;
}

export interface ActivityEntry {
  id: string;
  at: Date;
  actor: string;
  action: string;
  enquiryId: string | null;
  detail: string | null;
}

export interface NewActivity {
  actor: string;
  action: string;
  enquiryId?: string | null;
  detail?: string | null;
}

/** The owner's operators, sessions, login throttle and activity log (app/store/owner.server.ts). */
export interface OwnerStore {
  /** Adds the operator, or gives an existing one (same address, any case) the new password and ends its sessions. */
  putOperator(email: string, passwordHash: string, now?: Date): Promise<{ created: boolean }>;
  findOperator(email: string): Promise<OperatorWithHash | null>;
  listOperators(): Promise<Operator[]>;
  /** Removes the operator and its sessions; false when there was none. */
  removeOperator(email: string): Promise<boolean>;
  /** Ends every session of the operator; resolves with how many (null: no such operator). */
  revokeSessions(email: string): Promise<number | null>;

  createSession(idHash: string, operatorId: string, session: NewSession, now?: Date): Promise<void>;
  /**
   * The live session with this id hash, its last use moved to now; null (and the row deleted) when it is unknown,
   * idle for longer than `idleMs` or older than `maxAgeMs`.
   */
  useSession(idHash: string, limits: { idleMs: number; maxAgeMs: number }, now?: Date): Promise<SessionRecord | null>;
  deleteSession(idHash: string): Promise<void>;

  /**
   * Counts one login attempt for this account from this client, atomically (every instance shares the count), and
   * resolves with the window's count so far, this one included, and when the window started. A window older than
   * `windowMs` starts again at 1; windows that old are forgotten.
   */
  countLoginAttempt(
    accountKey: string,
    client: string,
    windowMs: number,
    now?: Date,
  ): Promise<{ attempts: number; windowStart: Date }>;
  /** Gives back one counted attempt (one that was not a wrong guess: the right password, or not checked at all). */
  refundLoginAttempt(accountKey: string, client: string): Promise<void>;

  logActivity(entry: NewActivity, now?: Date): Promise<void>;
  /** Newest first. */
  listActivity(options: { limit: number; offset?: number }): Promise<ActivityEntry[]>;
}
