import type { Config } from "~/config.server";
import type { Channel } from "~/store/records";
import type { InboxStore } from "~/store/store.types";
import type { GuessLimiter } from "~/http/guess-limit.server";

/** An enquiry over a rate limit: the error entry to show (the API's `title`/`detail`) and when to try again. */
export interface RateLimitRefusal {
  error: { title: string; detail: string };
  /** Seconds until a place frees up (the Retry-After header). */
  retryAfterSeconds: number;
}

/** Runs a task when a place is free; null (the task not run) when every place and the queue are taken. */
export interface TaskGate {
  run<T>(task: () => Promise<T>): Promise<T> | null;
}

/** What became of an enquiry, for the operator's metrics; `reason` (a refusal's) is one of a few fixed words. */
export type EnquiryMetric = { outcome: "accepted" | "forwarded" | "spam" } | { outcome: "refused"; reason: string };

/** A login step's outcome, for the operator's metrics (the outcome kinds of logIn and checkCode). */
export type LoginMetric = { step: "password" | "code"; outcome: string };

/** What the app reports to the process's metrics (server/metrics.ts, served on METRICS_PORT). */
export interface SiteMetrics {
  enquiry(metric: EnquiryMetric): void;
  login(metric: LoginMetric): void;
}

/** The server's backups of its SQLite inbox (server/backups.ts), for the Enquiries page and the metrics. */
export interface BackupStatus {
  /** BACKUP_INTERVAL in milliseconds. */
  intervalMs: number;
  /** When this process last tried one, and whether it worked (null: not tried yet). */
  lastAttemptAt: Date | null;
  ok: boolean | null;
  /** Why the last attempt failed, with a plain message (null when it worked). */
  error: string | null;
  lastSuccessAt: Date | null;
  /** The newest backup in BACKUP_DIR (taken by this process, an earlier one or the command), and its age now. */
  newestBackupAt: Date | null;
  newestBackupAgeMs: number | null;
}

/**
 * What the running server gives the app: built once by server/service-lifecycle.ts and handed to every
 * loader and action as `context.services`, so the app holds no process state of its own. Tests build their own.
 */
export interface SiteServices {
  config: Config;
  /** The open inbox database; throws StoreUnavailableError while it is not (yet) open. */
  inbox(): InboxStore;
  /** The notification channels each new enquiry gets a pending notification for. */
  channels(): readonly Channel[];
  /** The process's metrics (optional: tests built by hand count nothing). */
  metrics?: SiteMetrics;
  /** Tells the notification sender that an enquiry was just stored, so it goes out now. */
  wakeOutbox(): void;
  /** Tells the owner's alerts' sender a login or an answer just stored an alert, so it goes out now (optional: tests). */
  wakeOwnerAlerts?(): void;
  /** Tells the sender of the owner's mail to customers that a reply was just stored (optional: tests built by hand). */
  wakeCustomerMail?(): void;
  /** Tells the list's sender that a visitor just asked to be told when orders open (optional: tests built by hand). */
  wakeListMail?(): void;
  /** Tells the reminders' sender that a reminder set just now is due at once (optional: tests built by hand). */
  wakeReminders?(): void;
  /** Tells the background photo encoder that a photo was just uploaded or placed, so it is encoded now. */
  wakePhotoEncoder(): void;
  /** Tells the background video encoder that a clip was just uploaded or retried (optional: tests built by hand). */
  wakeVideoEncoder?(): void;
  /** Counts one enquiry for this client (and the site), or refuses it. */
  admit(clientAddress: string | undefined): Promise<RateLimitRefusal | null>;
  /** Counts misses of the build pages' tokens per client (optional: tests built by hand count in memory). */
  buildGuesses?: GuessLimiter;
  /** Counts one login for the site-wide login rate: null, or the seconds until one may be checked again. */
  admitLogin(): Promise<number | null>;
  /** Where logins wait for a password hash: a few at once, a short queue. */
  loginHashes: TaskGate;
  /** After a publish here: reads the newest version now, so this instance shows it on its next request. */
  sitePublished(): Promise<void>;
  /** The backups' state; null when this server takes none (optional: tests). */
  backupStatus?(): BackupStatus | null;
}
