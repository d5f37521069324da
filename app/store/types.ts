/**
 * The embedded inbox's storage contract, the same on SQLite and PostgreSQL: the enquiries and their notifications
 * (committed together; the outbox claims due notifications, sends them and settles each claim), what retention and an
 * erase delete, the v1 import, and the owner's side (operators, sessions, the login throttle, the activity log).
 */

/** Where the database is: a SQLite file or a PostgreSQL server (DATABASE_URL, parsed by the configuration). */
export type DatabaseLocation = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };

export const channels = ["email", "webhook"] as const;
export type Channel = (typeof channels)[number];
export type NotificationState = "pending" | "sent" | "failed";

/** What a visitor sent, validated and trimmed. */
export interface NewEnquiry {
  name: string;
  email: string;
  message: string;
}

/** new: not opened yet; read: opened in the inbox; handled: answered; spam: held aside by the spam filter. */
export const enquiryStatuses = ["new", "read", "handled", "spam"] as const;
export type EnquiryStatus = (typeof enquiryStatuses)[number];

/** The spam filter's three outcomes: announced as usual, announced marked "possible spam", kept aside as spam. */
export const spamVerdicts = ["none", "possible", "spam"] as const;
export type SpamVerdictName = (typeof spamVerdicts)[number];

/** What the spam filter said of an enquiry when it arrived. */
export interface SpamJudgementRecord {
  verdict: SpamVerdictName;
  /** 0..1; null for enquiries stored before the filter kept scores. */
  score: number | null;
  /** What weighed most for spam, in the owner's words. */
  reasons: string[];
}

/** The owner's decision about an enquiry ("Mark as spam", "Not spam"): what trains the spam model. */
export type SpamDecision = "spam" | "not-spam";

export interface StoredEnquiry extends NewEnquiry {
  id: string;
  receivedAt: Date;
  status: EnquiryStatus;
  /** The filter's verdict when it arrived; a possible-spam enquiry keeps the status new until the owner decides. */
  spamVerdict: SpamVerdictName;
  spamScore: number | null;
  /** What weighed most (for every verdict; empty when nothing pointed at spam). */
  spamReasons: string[];
  /** The owner's last decision, null when there was none. */
  spamDecision: SpamDecision | null;
}

/** How many messages of each kind, or how many of them carried one feature. */
export interface TokenCounts {
  spam: number;
  ham: number;
}

/** The spam model's counts the owner's decisions made (one row per feature in the database, shared by every instance). */
export interface LearnedCounts {
  messages: TokenCounts;
  tokens: ReadonlyMap<string, TokenCounts>;
}

/** `duplicate`: the same address sent the same message within the duplicate window; nothing new was stored. */
export interface SaveResult {
  id: string;
  duplicate: boolean;
}

/** A notification this process holds a lease on until `claimUntil`; only the holder can settle it. */
export interface ClaimedNotification {
  id: string;
  channel: Channel;
  /** Attempts so far, this one included. */
  attempts: number;
  /** When this round of delivery began (the enquiry was stored, or `inbox retry` put it back): retries stop a set time after it. */
  windowStart: Date;
  claimUntil: Date;
  /** Identifies this claim: a settle with an expired, taken-over claim changes nothing. */
  claimToken: string;
  enquiry: StoredEnquiry;
  /** The request that stored it (or the owner's resend), for the outbox's log lines; none for older rows. */
  requestId?: string;
}

/** One channel's notification of an enquiry, as far as it went. */
export interface NotificationSummary {
  channel: Channel;
  state: NotificationState;
  attempts: number;
  lastError: string | null;
  /** When the next attempt is due (pending only; null once sent or failed). */
  nextAttemptAt: Date | null;
  sentAt: Date | null;
}

/** An enquiry with its notifications, as the inbox lists it. */
export interface ListedEnquiry extends StoredEnquiry {
  notifications: NotificationSummary[];
}

/** A line of the v1 JSON-lines inbox. */
export interface V1Record {
  receivedAt: string;
  name: string;
  email: string;
  message: string;
}

/** What a purge deleted. */
export interface PurgeResult {
  enquiries: number;
  spam: number;
  notifications: number;
  activity: number;
  formTokens: number;
}

/** A v1 file the import read to the end. */
export interface V1FileSeen {
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
}

/** New: not handled yet (unread or read); the others are statuses; all: everything. */
export const folders = ["new", "handled", "spam", "all"] as const;
export type Folder = (typeof folders)[number];

export interface InboxQuery {
  folder: Folder;
  /** Matched (case-insensitively) in the name, the address and the message. */
  search?: string;
}

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

/** An enquiry's way in and what the owner does with it (app/store/enquiries.server.ts). */
export interface EnquiryOperations {
  /**
   * Stores the enquiry with one pending notification per channel, in one transaction (or finds its duplicate), with
   * the spam filter's judgement. A verdict of spam is stored with the status spam and no notification.
   */
  /** `requestId`: the request storing it; the outbox's lines about its notifications carry it. */
  save(
    enquiry: NewEnquiry,
    channels: readonly Channel[],
    now?: Date,
    spam?: SpamJudgementRecord,
    requestId?: string,
  ): Promise<SaveResult>;
  /** A key of this name, made (32 random bytes) at its first use and shared by every instance on this database. */
  siteKey(name: string): Promise<Buffer>;
  /** Records a form token as used; false when it was used before. */
  useFormToken(id: string, expiresAt: Date): Promise<boolean>;
  /** Newest first, in pages, so a large inbox streams. */
  list(options?: { since?: Date }): AsyncIterable<ListedEnquiry>;
  /** One page of the inbox, newest first; `hasMore` when a later page exists. */
  inboxPage(
    query: InboxQuery,
    page: { limit: number; offset: number },
  ): Promise<{ items: ListedEnquiry[]; hasMore: boolean }>;
  /** Every enquiry of the query, newest first, in pages (for the CSV export). */
  inboxAll(query: InboxQuery): AsyncIterable<ListedEnquiry>;
  /** How many enquiries each folder holds (with `search` applied when given). */
  folderCounts(search?: string): Promise<Record<Folder, number>>;
  getEnquiry(id: string): Promise<ListedEnquiry | null>;
  /** Every enquiry of this address (any case), newest first: what an erase removes. */
  enquiriesFrom(email: string): Promise<ListedEnquiry[]>;
  /**
   * Sets the status and logs it as `actor`'s (`status OLD -> NEW`), in one transaction; resolves with the previous
   * status (null: no such enquiry).
   */
  setStatus(id: string, status: EnquiryStatus, actor: string, now?: Date): Promise<EnquiryStatus | null>;
  /** new -> read, logged as `actor`'s, in one transaction; anything else stays. True when it changed. */
  markRead(id: string, actor: string, now?: Date): Promise<boolean>;
  /** Sends the channel's notification again from the start (a new one when there was none). False: no such enquiry. */
  resend(id: string, channel: Channel, now?: Date, requestId?: string): Promise<boolean>;
}

/** The owner's spam decisions and the counts they teach the spam model (app/store/spam.server.ts). */
export interface SpamOperations {
  /**
   * The owner's decision, in one transaction with its activity entry and the spam model's counts: `spam` sets the
   * status spam; `not-spam` makes a spam enquiry new and creates its notifications (once: never for one that had
   * them). `features` train the model once per enquiry: the same decision again changes no count, a changed one
   * takes the old one back. Resolves with the status before (null: no such enquiry).
   */
  decideSpam(
    id: string,
    decision: SpamDecision,
    features: readonly string[],
    channels: readonly Channel[],
    actor: string,
    now?: Date,
  ): Promise<EnquiryStatus | null>;
  /** The owner's counts of these features (and of messages), for judging an enquiry. */
  spamCounts(features: readonly string[]): Promise<LearnedCounts>;
  /** Every count the owner's decisions made (`npm run inbox -- spam stats`). */
  allSpamCounts(): Promise<LearnedCounts>;
  /** Forgets what the owner taught (the enquiries' decisions too, so none is taken back later); how many features. */
  resetSpamModel(): Promise<number>;
}

/** The outbox's side (app/store/notifications.server.ts). */
export interface NotificationOperations {
  /** Claims up to `limit` due notifications (pending, due, unclaimed or with an expired lease) for `owner`. */
  claimDue(owner: string, limit: number, now?: Date, only?: readonly Channel[]): Promise<ClaimedNotification[]>;
  markSent(claim: ClaimedNotification, now?: Date): Promise<boolean>;
  markRetry(claim: ClaimedNotification, error: string, nextAttemptAt: Date): Promise<boolean>;
  markFailed(claim: ClaimedNotification, error: string, now?: Date): Promise<boolean>;
  /** When the next pending notification becomes due (or its lease expires); null when none is pending. */
  nextDueAt(): Promise<Date | null>;
  /** Puts failed notifications back to pending, due now. Resolves with how many. */
  retryFailed(now?: Date): Promise<number>;
  /** Per channel with any: notifications pending and failed, and since when the oldest pending one waits (metrics). */
  queueByChannel(): Promise<ChannelQueue[]>;
}

export interface ChannelQueue {
  channel: Channel;
  pending: number;
  failed: number;
  /** When the oldest pending notification's delivery began (stored, or put back by a resend); null: none pending. */
  oldestPendingSince: Date | null;
}

/** One channel's send of a day's spam digest, held by this process until `claimUntil`; only the holder settles it. */
export interface ClaimedDigestSend {
  /** The local day (YYYY-MM-DD in SITE_TIMEZONE) the digest is for: its key. */
  day: string;
  channel: Channel;
  /** Attempts so far, this one included. */
  attempts: number;
  claimToken: string;
  claimUntil: Date;
  /** When the day was claimed: retries stop a set time after it. */
  claimedAt: Date;
  /** The spam kept aside from windowStart (inclusive) to windowEnd (exclusive) is what the digest tells of. */
  windowStart: Date;
  windowEnd: Date;
  /** That spam as it is now (the owner may have rescued or erased some), oldest first, at most the limit asked for. */
  spam: StoredEnquiry[];
  /** How many in all. */
  total: number;
}

/** The daily spam digest (app/store/digests.server.ts). */
export interface DigestOperations {
  /**
   * Claims the day's digest: only one call per day, on any instance, gets the window of time it covers (since the
   * previous day's window, or the last 24 hours) and how much spam was kept aside in it, with one pending send per
   * channel when there was any. Null when the day was claimed before.
   */
  claimDigestDay(
    day: string,
    channels: readonly Channel[],
    now?: Date,
  ): Promise<{ windowStart: Date; windowEnd: Date; spam: number } | null>;
  /** Claims the due digest sends (pending, due, unclaimed or with an expired lease), each with its spam. */
  claimDigestSends(listLimit: number, now?: Date): Promise<ClaimedDigestSend[]>;
  markDigestSent(claim: ClaimedDigestSend, now?: Date): Promise<boolean>;
  markDigestRetry(claim: ClaimedDigestSend, error: string, nextAttemptAt: Date): Promise<boolean>;
  markDigestFailed(claim: ClaimedDigestSend, error: string): Promise<boolean>;
  /** When the next pending digest send becomes due (or its lease expires); null when none is pending. */
  nextDigestSendAt(): Promise<Date | null>;
}

/** A new-login alert waiting to go out on one channel (app/store/login-alerts.server.ts). */
export interface NewLoginAlert {
  /** One id for the login; one row per channel under it. */
  id: string;
  operatorEmail: string;
  /** When the login happened. */
  at: Date;
  /** The browser as described from its User-Agent ("Chrome on Android"). */
  browser: string;
  /** The client address as the login throttle counts it (an IPv6 /64). */
  address: string;
  /** What is announced: a login from a new browser (the default), or a factor added to the account. */
  kind?: LoginAlertKind;
  /** The added passkey's name (kind `passkey-added`). */
  detail?: string | null;
}

export type LoginAlertKind = "login" | "passkey-added" | "codes-added";

export interface ClaimedLoginAlert extends NewLoginAlert {
  channel: Channel;
  /** Attempts so far, this one included. */
  attempts: number;
  claimToken: string;
  claimUntil: Date;
}

/** The new-login alerts: stored at the login, sent by a background sender under a lease (server/login-alerts.ts). */
export interface LoginAlertOperations {
  /** Stores one pending alert per channel, due now. */
  queueLoginAlert(alert: NewLoginAlert, channels: readonly Channel[]): Promise<void>;
  /** Claims the due alerts (pending, due, unclaimed or with an expired lease), at most `limit`. */
  claimLoginAlerts(limit: number, now?: Date): Promise<ClaimedLoginAlert[]>;
  markLoginAlertSent(claim: ClaimedLoginAlert, now?: Date): Promise<boolean>;
  markLoginAlertRetry(claim: ClaimedLoginAlert, error: string, nextAttemptAt: Date): Promise<boolean>;
  markLoginAlertFailed(claim: ClaimedLoginAlert, error: string): Promise<boolean>;
  /** When the next pending alert becomes due (or its lease expires); null when none is pending. */
  nextLoginAlertAt(): Promise<Date | null>;
}

/** What retention and an erase delete (app/store/deletion.server.ts). */
export interface DeletionOperations {
  /**
   * Deletes enquiries received before the cut-offs, with their notifications and activity, and every activity entry
   * older than the enquiries' cut-off; one purge at a time.
   */
  purge(cutoffs: { enquiriesBefore: Date; spamBefore: Date }, now?: Date): Promise<PurgeResult>;
  /**
   * Deletes every enquiry from this address (any case) with its notifications and activity, and remembers the
   * address as a keyed hash so no import brings them back; then leaves no copy in the database's files (SqlClient
   * scrub). Resolves with how many enquiries.
   */
  erase(email: string, now?: Date): Promise<number>;
}

/** The v1 inbox's import (app/store/v1.server.ts). */
export interface V1Operations {
  /** Whether a v1 file of this size and modification time (or, when given, content hash) was imported whole. */
  v1FileImported(file: { size: number; mtimeMs: number; sha256?: string }): Promise<boolean>;
  /** Remembers a v1 file the import read to the end. */
  rememberV1File(file: V1FileSeen, now?: Date): Promise<void>;
  /**
   * Imports v1 lines; each line is imported once, however often this runs, and never one from an erased address.
   * Resolves with the number newly added.
   */
  importV1(records: readonly V1Record[]): Promise<number>;
}

/** The owner's operators, sessions, login throttle and activity log (app/store/owner.server.ts). */
export interface OwnerOperations {
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

/** The second factor (app/store/factors.server.ts): one-time codes, recovery codes, passkeys, sessions' stages. */
export interface FactorOperations {
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

/** The whole store (app/store/store.server.ts puts it together). */
export interface InboxStore
  extends
    EnquiryOperations,
    SpamOperations,
    NotificationOperations,
    DigestOperations,
    DeletionOperations,
    V1Operations,
    OwnerOperations,
    FactorOperations,
    LoginAlertOperations,
    SiteOperations,
    PhotoOperations {
  /** Resolves when the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** One field a publish changed, in the owner's words: "Season year: 2025 → 2027". */
export interface SiteChange {
  label: string;
  before: string;
  after: string;
}

/** A published version of the site's content (JSON of app/site-content/schema.server.ts). */
export interface SiteVersion {
  number: number;
  publishedAt: Date;
  publishedBy: string;
  changes: SiteChange[];
  /** The version a restore brought back. */
  restoredFrom: number | null;
}

export interface SiteVersionWithContent extends SiteVersion {
  content: string;
}

/** The one shared draft: `revision` rises with every save and publish; content null until the first save. */
export interface SiteDraft {
  content: string | null;
  revision: number;
  savedAt: Date | null;
  savedBy: string | null;
}

/** A save or publish made from a form opened at an older revision: refused, with the draft as it now is. */
export interface StaleDraft {
  ok: false;
  draft: SiteDraft;
}

/** The site's content: the draft, the published versions and what each changed (app/store/site.server.ts). */
export interface SiteOperations {
  /** The newest published version's number (0: none yet): what every instance polls. */
  latestSiteVersion(): Promise<number>;
  /**
   * The newest version's number and how many photo renditions are ready, in one query: what every instance polls, so
   * a photo encoded after the publish goes public by itself (server/site-content.ts).
   */
  siteState(): Promise<{ version: number; readyRenditions: number }>;
  /** The newest published version, or null when the site still shows the defaults. */
  publishedSite(): Promise<SiteVersionWithContent | null>;
  siteVersion(number: number): Promise<SiteVersionWithContent | null>;
  /** Newest first, without their content. */
  siteVersions(page: { limit: number; offset: number }): Promise<SiteVersion[]>;
  siteDraft(): Promise<SiteDraft>;
  /** Keeps `content` as the draft if the draft is still at `baseRevision`. */
  saveSiteDraft(
    content: string,
    baseRevision: number,
    actor: string,
    now?: Date,
  ): Promise<{ ok: true; revision: number } | StaleDraft>;
  /**
   * Keeps `content` as the draft and publishes it as the next version, with its activity entry, in one transaction, if
   * the draft is still at `baseRevision` (a restore names the version it brings back).
   */
  publishSite(
    content: string,
    baseRevision: number,
    actor: string,
    changes: readonly SiteChange[],
    options?: { restoredFrom?: number; now?: Date },
  ): Promise<{ ok: true; version: number; revision: number } | StaleDraft>;
}

/** The crops a photo is encoded for: a carousel slide (16:9) or the About photo (3:2). */
export type PhotoShape = "slide" | "about";

/** An uploaded photo as the owner's Photos page lists it (its bytes stay in the database). */
export interface PhotoUpload {
  id: string;
  contentType: string;
  width: number;
  height: number;
  byteSize: number;
  fileName: string;
  /** The alt text typed with the upload: the words it is placed with when none are given. */
  alt: string;
  uploadedAt: Date;
  uploadedBy: string;
}

export type RenditionState = "pending" | "ready" | "failed";

/** One upload encoded for one shape around one focal point: its files, once ready, and how far it got. */
export interface PhotoRendition {
  key: string;
  uploadId: string;
  shape: PhotoShape;
  focus: { x: number; y: number };
  state: RenditionState;
  /** Files written so far and in all ("encoding 2 of 3 sizes"). */
  done: number;
  total: number;
  /** JSON of the encoded entry (app/photos/encoder.server.ts), once ready. */
  entry: string | null;
  error: string | null;
}

/** A rendition this process holds a lease on until `claimUntil`, with the upload's bytes to encode. */
export interface ClaimedRendition extends PhotoRendition {
  claimToken: string;
  claimUntil: Date;
  /** How many times it has been claimed, this claim included (a process that died while encoding it counts too). */
  attempts: number;
  original: Uint8Array;
}

/** An encoded file, served at /photos/NAME (immutable: the name holds its content's hash). */
export interface PhotoFile {
  name: string;
  contentType: string;
  bytes: Uint8Array;
}

/** The owner's photos (app/store/photos.server.ts). */
export interface PhotoOperations {
  /** Keeps an upload's bytes under its id (the same bytes twice are one upload); true when it was new. */
  saveUpload(
    upload: Omit<PhotoUpload, "uploadedAt" | "alt"> & { alt?: string; original: Uint8Array },
    now?: Date,
  ): Promise<boolean>;
  listUploads(): Promise<PhotoUpload[]>;
  getUpload(id: string): Promise<PhotoUpload | null>;
  /** Asks for a rendition (pending) unless it exists; resolves with it as it now is. */
  requestRendition(
    key: string,
    uploadId: string,
    shape: PhotoShape,
    focus: { x: number; y: number },
    now?: Date,
  ): Promise<PhotoRendition>;
  renditions(keys: readonly string[]): Promise<PhotoRendition[]>;
  /** How many renditions are ready: with the newest version's number, what every instance polls. */
  readyRenditionCount(): Promise<number>;
  /** How many renditions wait to be encoded (the encoder's queue, every instance's uploads). */
  pendingRenditionCount(): Promise<number>;
  /** Claims the oldest pending rendition (or one whose lease ran out) for `leaseMs`; null when none is due. */
  claimRendition(leaseMs: number, now?: Date): Promise<ClaimedRendition | null>;
  /**
   * Stores one encoded file and counts it done, and renews the lease for `leaseMs` from now when given (the claim's
   * holder only; false when the claim was lost).
   */
  addRenditionFile(
    claim: ClaimedRendition,
    file: PhotoFile,
    total: number,
    leaseMs?: number,
    now?: Date,
  ): Promise<boolean>;
  /** Lets the claim go without an outcome: pending again, claimable from `retryAt` (after an unexpected error). */
  releaseRendition(claim: ClaimedRendition, retryAt: Date): Promise<boolean>;
  /** Marks it ready with its entry (JSON), or failed with the reason, and lets the claim go. */
  finishRendition(claim: ClaimedRendition, result: { entry: string } | { error: string }, now?: Date): Promise<boolean>;
  photoFile(name: string): Promise<PhotoFile | null>;
}
