import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { backgroundLoop } from "~/background-loop.server";
import { DeliveryError, describeFailure, type NotificationChannel } from "~/notify/channels/channel";
import type { ClaimedNotification } from "~/store/notifications.types";
import { type Channel, channels as allChannels } from "~/store/records";
import type { NotificationStore } from "~/store/notifications.types";
import { log as logger } from "~/log.server";

/**
 * The sender: claims due notifications from the store (atomically, under a lease, so several processes on one
 * database never send the same one), delivers each through its channel and settles the claim. A failed attempt is
 * retried with backoff for a day after the enquiry was stored, then marked failed and logged loudly. The visitor's
 * answer never waits for any of this: the enquiry and its pending notifications are already committed.
 */

/** The backoff: 5 s after the first failure, doubling, at most 15 minutes (each wait jittered below it). */
export const firstRetryMs = 5_000;
export const maxRetryMs = 15 * 60_000;
/** Retries stop (the notification is marked failed) once this long has passed since the enquiry was stored. */
export const retryWindowMs = 24 * 60 * 60_000;
/** Requests in flight to one destination (a webhook URL, an SMTP server) at most, from this process. */
export const perDestinationInFlight = 2;

/** The longest wait before the next attempt, after `attempts` failed ones (1 = the first attempt failed). */
export function retryDelayMs(attempts: number): number {
  const doublings = Math.max(0, Math.min(attempts - 1, 20));
  return Math.min(firstRetryMs * 2 ** doublings, maxRetryMs);
}

export interface FailureFacts {
  /** The service refused the request itself (HTTP 400/401/403/404/410, SMTP 5xx): trying again cannot help. */
  permanent?: boolean;
  /** The service asked for this long a pause (Retry-After, Discord's retry_after). */
  retryAfterMs?: number;
  /** 0 <= random() < 1; the jitter's source. */
  random?: () => number;
}

/**
 * What to do after a failed attempt: try again at `retryAt`, or give up (a permanent refusal, or the window since it
 * was stored is over). The wait is jittered between half and all of the backoff, so notifications that failed
 * together do not come back together; a pause the service asked for is honoured, plus up to a second of jitter.
 */
export function afterFailure(
  attempts: number,
  windowStart: Date,
  now: Date,
  { permanent = false, retryAfterMs, random = Math.random }: FailureFacts = {},
): { retryAt: Date } | { giveUp: true } {
  if (permanent || now.getTime() - windowStart.getTime() >= retryWindowMs) return { giveUp: true };
  const backoff = retryDelayMs(attempts) * (0.5 + random() / 2);
  const asked = retryAfterMs === undefined ? 0 : retryAfterMs + random() * 1_000;
  return { retryAt: new Date(now.getTime() + Math.round(Math.max(backoff, asked))) };
}

/** How a send held under a lease ends, for its log line. */
export type SendSettled =
  { outcome: "sent" } | { outcome: "retry"; error: string; retryAt: string } | { outcome: "failed"; error: string };

/**
 * Settles a send held under a lease (the daily digest's, a login alert's) the outbox's way: sent, retried later with
 * its backoff for a day after `since`, or failed for good. `record` writes each outcome to the store.
 */
export async function settleSend(
  failure: unknown,
  { attempts, since, now }: { attempts: number; since: Date; now: Date },
  record: {
    sent(): Promise<unknown>;
    retry(reason: string, at: Date): Promise<unknown>;
    failed(reason: string): Promise<unknown>;
  },
): Promise<SendSettled> {
  if (failure === undefined) {
    await record.sent();
    return { outcome: "sent" };
  }
  const error = describeFailure(failure);
  const facts =
    failure instanceof DeliveryError ? { permanent: failure.permanent, retryAfterMs: failure.retryAfterMs } : {};
  const next = afterFailure(attempts, since, now, facts);
  if ("giveUp" in next) {
    await record.failed(error);
    return { outcome: "failed", error };
  }
  await record.retry(error, next.retryAt);
  return { outcome: "retry", error, retryAt: next.retryAt.toISOString() };
}

export interface OutboxOptions {
  store: NotificationStore;
  channels: readonly NotificationChannel[];
  /** Unique per process: claims are held under it. */
  owner?: string;
  /** How often to look for work other processes left (new enquiries, expired leases, retries that came due). */
  pollMs?: number;
  /** Sends in flight at most (and so claims held at once). */
  maxInFlight?: number;
  /** Sends in flight to one channel's destination at most. */
  perDestination?: number;
  /** A send still running this long after stop() is abandoned; its claim expires and is retried. */
  stopGraceMs?: number;
  /** After the sends are aborted, how long their outcomes still have to be recorded. */
  settleGraceMs?: number;
  /** A send is given up this long before its lease ends, so it is settled by its holder or by nobody. */
  leaseMarginMs?: number;
  /** How often a delivery whose outcome could not be written is tried again (the database was full or down). */
  recordRetryMs?: number;
  now?: () => Date;
  random?: () => number;
}

export interface Outbox {
  readonly owner: string;
  start(): void;
  /** Looks for work now (this process has just stored an enquiry). */
  wake(): void;
  /** Stops claiming, waits at most stopGraceMs for sends in flight, then aborts them and closes the channels. */
  stop(): Promise<void>;
  /** Deliveries made whose "sent" this process still has to write (the database refused it so far). */
  unrecorded(): number;
}

type Logged = { outcome: "sent" | "retry" | "failed" | "error" | "recorded"; [key: string]: unknown };

/** One JSON line per notification outcome; never the visitor's words or address. A give-up goes to stderr. */
function log(entry: Logged): void {
  logger.event("notification", entry, entry.outcome === "failed" || entry.outcome === "error" ? "error" : "info");
}

/** The id of the request that stored the notification: its lines carry it, though sent later from the background. */
const requestOf = (claim: ClaimedNotification) => (claim.requestId ? { reqId: claim.requestId } : {});

export function createOutbox({
  store,
  channels,
  owner = `${hostname()}:${process.pid}:${randomUUID()}`,
  pollMs = 2_000,
  maxInFlight = 10,
  perDestination = perDestinationInFlight,
  // stop() runs at the shutdown signal beside the HTTP drain (8.5 s at most): the process is gone 10 s after SIGTERM.
  stopGraceMs = 4_000,
  settleGraceMs = 3_000,
  leaseMarginMs = 3_000,
  recordRetryMs = 2_000,
  now = () => new Date(),
  random = Math.random,
}: OutboxOptions): Outbox {
  const byChannel = new Map<Channel, NotificationChannel>(channels.map((c) => [c.channel, c]));
  const unconfigured = allChannels.filter((channel) => !byChannel.has(channel));
  // Two steps of stopping: the passes stop claiming; `stopping` (after the grace) aborts the sends still running.
  let closing = false;
  const stopping = new AbortController();
  /** Sends in flight per channel: each channel is one destination. */
  const sending = new Map<Channel, number>();
  /** A destination that asked for a pause (429/503 with Retry-After) gets no request before this time. */
  const pausedUntil = new Map<Channel, number>();
  /**
   * Notifications delivered whose "sent" could not be written (disk full, database down), by id, with the claim that
   * delivered them. Kept until written: a new claim on one of them (its lease ran out meanwhile) records it instead
   * of sending it again.
   */
  const deliveredNotRecorded = new Map<string, ClaimedNotification>();
  let lastRecordTry = 0;

  const failureFacts = (error: unknown): FailureFacts =>
    error instanceof DeliveryError
      ? { permanent: error.permanent, retryAfterMs: error.retryAfterMs, random }
      : { random };

  async function settle(claim: ClaimedNotification, error: unknown): Promise<void> {
    const channel = byChannel.get(claim.channel);
    const base = { enquiryId: claim.enquiry.id, channel: claim.channel, attempts: claim.attempts, ...requestOf(claim) };
    if (error === undefined) {
      const settled = await store.markSent(claim, now());
      log({ outcome: "sent", ...base, ...(settled ? {} : { note: "lease had expired; marked by its new holder" }) });
      return;
    }
    const reason = channel ? describeFailure(error) : `no ${claim.channel} channel is configured in this process`;
    const facts = failureFacts(error);
    const next = afterFailure(claim.attempts, claim.windowStart, now(), facts);
    if ("giveUp" in next) {
      await store.markFailed(claim, reason, now());
      log({
        outcome: "failed",
        ...base,
        error: reason,
        ...(facts.permanent ? { permanent: true } : {}),
        action: "nobody was notified; run `npm run inbox -- retry` after fixing the cause",
      });
    } else {
      await store.markRetry(claim, reason, next.retryAt);
      log({ outcome: "retry", ...base, error: reason, retryAt: next.retryAt.toISOString() });
    }
  }

  /** Writes a delivery kept in memory, with the newest claim on it; true once it is written (or someone else's). */
  async function recordDelivered(claim: ClaimedNotification): Promise<boolean> {
    try {
      const settled = await store.markSent(claim, now());
      deliveredNotRecorded.delete(claim.id);
      log({
        outcome: "recorded",
        enquiryId: claim.enquiry.id,
        channel: claim.channel,
        ...requestOf(claim),
        note: settled
          ? "delivered earlier; now marked sent, not sent again"
          : "delivered earlier; another holder has settled it",
      });
      return true;
    } catch {
      return false;
    }
  }

  async function deliver(claim: ClaimedNotification): Promise<void> {
    // Delivered already by this process, the outcome never written: write it now, send nothing.
    if (deliveredNotRecorded.has(claim.id)) {
      deliveredNotRecorded.set(claim.id, claim);
      await recordDelivered(claim);
      return;
    }
    const channel = byChannel.get(claim.channel);
    let failure: unknown;
    if (!channel) {
      failure = new Error("channel not configured");
    } else {
      const budget = claim.claimUntil.getTime() - now().getTime() - leaseMarginMs;
      const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(Math.max(budget, 1))]);
      try {
        if (budget <= 0) throw new Error("the claim's lease was too short to start a send");
        await channel.send(claim.enquiry, signal);
      } catch (error) {
        failure = error ?? new Error("send failed");
        const retryAfterMs = failure instanceof DeliveryError ? failure.retryAfterMs : undefined;
        // The destination asked for a pause: nothing more goes to it until then, from any notification.
        if (retryAfterMs !== undefined) {
          const until = now().getTime() + retryAfterMs;
          pausedUntil.set(claim.channel, Math.max(pausedUntil.get(claim.channel) ?? 0, until));
        }
      }
    }
    // Stopping aborted this send: leave the claim to expire (its lease), and the next holder tries again.
    if (failure !== undefined && stopping.signal.aborted) return;
    // A sent notification that cannot be marked sent would be sent again once its lease runs out: try a few times,
    // then keep the fact in memory and keep trying to write it (and never send it again from here).
    for (let attempt = 1; ; attempt++) {
      try {
        await settle(claim, failure);
        return;
      } catch (error) {
        if (attempt >= 3 || claim.claimUntil.getTime() - now().getTime() < 2_000) {
          if (failure === undefined) {
            deliveredNotRecorded.set(claim.id, claim);
            lastRecordTry = Date.now(); // it has just failed: the next try after recordRetryMs
          }
          log({
            outcome: "error",
            enquiryId: claim.enquiry.id,
            channel: claim.channel,
            ...requestOf(claim),
            error: `could not record the outcome: ${describeFailure(error)}`,
            ...(failure === undefined
              ? { note: "delivered; kept in memory and written when the database takes it" }
              : {}),
          });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  // Sends run side by side, each on its own: one that stalls until its timeout holds up none of the others.
  const inFlight = new Set<Promise<void>>();
  let lastClaimError: string | undefined;
  let lastClaimErrorAt = 0;

  function start(claim: ClaimedNotification): void {
    sending.set(claim.channel, (sending.get(claim.channel) ?? 0) + 1);
    const running: Promise<void> = deliver(claim).finally(() => {
      sending.set(claim.channel, (sending.get(claim.channel) ?? 1) - 1);
      inFlight.delete(running);
      passes.wake(); // room for the next one
    });
    inFlight.add(running);
  }

  /** Claims what there is room for: per destination (not paused, fewer than perDestination in flight), in total. */
  async function claimRound(): Promise<{ more: boolean; blocked: boolean }> {
    let room = maxInFlight - inFlight.size;
    let more = false;
    let blocked = room <= 0;
    const at = now();
    for (const channel of byChannel.keys()) {
      const paused = (pausedUntil.get(channel) ?? 0) > at.getTime();
      const free = paused ? 0 : Math.min(room, perDestination - (sending.get(channel) ?? 0));
      if (free <= 0) {
        blocked = true;
        continue;
      }
      const claims = await store.claimDue(owner, free, at, [channel]);
      for (const claim of claims) start(claim);
      room -= claims.length;
      if (claims.length === free) more = true;
    }
    // Notifications for a channel this process has no configuration for fail fast (no request goes anywhere).
    if (unconfigured.length > 0 && room > 0) {
      const claims = await store.claimDue(owner, room, at, unconfigured);
      for (const claim of claims) start(claim);
      if (claims.length === room) more = true;
    }
    return { more, blocked };
  }

  /** One pass: claim what is due, and say how long to sleep before the next (0: there may be more due right now). */
  async function pass(): Promise<number> {
    // Deliveries whose outcome could not be written: try to write them again now and then.
    if (deliveredNotRecorded.size > 0 && Date.now() - lastRecordTry >= recordRetryMs) {
      lastRecordTry = Date.now();
      for (const claim of [...deliveredNotRecorded.values()]) if (!(await recordDelivered(claim))) break;
    }
    let round = { more: false, blocked: true };
    let storeFailed = false;
    try {
      round = await claimRound();
      lastClaimError = undefined;
    } catch (error) {
      storeFailed = true;
      // A database that is down fails every poll: say so when the reason changes, and once a minute meanwhile.
      const reason = `could not claim notifications: ${describeFailure(error)}`;
      if (reason !== lastClaimError || Date.now() - lastClaimErrorAt >= 60_000) {
        log({ outcome: "error", error: reason });
        lastClaimError = reason;
        lastClaimErrorAt = Date.now();
      }
    }
    if (round.more) return 0;
    let wait = pollMs;
    if (!storeFailed) {
      try {
        const due = await store.nextDueAt();
        const dueIn = due ? due.getTime() - now().getTime() : Infinity;
        // Due now but held back (no room, or its destination paused): a finished send or the pause's end wakes us.
        // A floor, so clocks that disagree between processes can never make this spin.
        if (dueIn > 0 || !round.blocked) wait = Math.min(pollMs, Math.max(50, dueIn));
      } catch {
        // The next claim will say what is wrong with the store.
      }
    }
    for (const until of pausedUntil.values()) {
      const left = until - now().getTime();
      if (left > 0) wait = Math.min(wait, Math.max(50, left));
    }
    if (deliveredNotRecorded.size > 0) wait = Math.min(wait, recordRetryMs);
    return wait;
  }

  const passes = backgroundLoop({
    intervalMs: pollMs,
    pass,
    onError: (error) => log({ outcome: "error", error: `the sender's pass failed: ${describeFailure(error)}` }),
  });
  return {
    owner,
    start: () => passes.start(),
    wake: () => passes.wake(),
    unrecorded: () => deliveredNotRecorded.size,
    async stop() {
      if (closing) return;
      closing = true;
      // The passes end, then every send they started settles.
      const loopDone = passes.stop().then(() => Promise.all(inFlight));
      const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
      await Promise.race([loopDone, after(stopGraceMs)]);
      stopping.abort();
      for (const channel of channels) channel.close();
      // Aborted sends end at once; a send that finished just before still records its outcome (a sent e-mail not
      // marked sent would go out again after its lease), bounded so the process still exits in time.
      const recordKept = async () => {
        await loopDone;
        for (const claim of [...deliveredNotRecorded.values()]) await recordDelivered(claim);
      };
      await Promise.race([recordKept(), after(settleGraceMs)]);
      if (deliveredNotRecorded.size > 0)
        log({
          outcome: "error",
          error: `${deliveredNotRecorded.size} delivered notification(s) could not be marked sent before exit; they may be sent again`,
        });
    },
  };
}
