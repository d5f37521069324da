import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { NotifyConfig } from "~/config.server";
import { describeFailure, type NotificationChannel } from "~/notify/channels/channel";
import { createEmailChannel } from "~/notify/channels/email.server";
import { createWebhookChannel } from "~/notify/channels/webhook.server";
import type { Channel, ClaimedNotification, InboxStore } from "~/store/types";

/**
 * The sender: claims due notifications from the store (atomically, under a lease, so several processes on one
 * database never send the same one), delivers each through its channel and settles the claim. A failed attempt is
 * retried with backoff for a day after the enquiry was stored, then marked failed and logged loudly. The visitor's
 * answer never waits for any of this: the enquiry and its pending notifications are already committed.
 */

/** The backoff: 5 s after the first failure, doubling, at most 15 minutes. */
export const firstRetryMs = 5_000;
export const maxRetryMs = 15 * 60_000;
/** Retries stop (the notification is marked failed) once this long has passed since the enquiry was stored. */
export const retryWindowMs = 24 * 60 * 60_000;

/** How long to wait before the next attempt, after `attempts` failed ones (1 = the first attempt failed). */
export function retryDelayMs(attempts: number): number {
  const doublings = Math.max(0, Math.min(attempts - 1, 20));
  return Math.min(firstRetryMs * 2 ** doublings, maxRetryMs);
}

/** What to do after a failed attempt: try again at `at`, or give up (the window since it was stored is over). */
export function afterFailure(attempts: number, createdAt: Date, now: Date): { retryAt: Date } | { giveUp: true } {
  if (now.getTime() - createdAt.getTime() >= retryWindowMs) return { giveUp: true };
  return { retryAt: new Date(now.getTime() + retryDelayMs(attempts)) };
}

export interface OutboxOptions {
  store: InboxStore;
  channels: readonly NotificationChannel[];
  /** Unique per process: claims are held under it. */
  owner?: string;
  /** How often to look for work other processes left (new enquiries, expired leases, retries that came due). */
  pollMs?: number;
  /** Sends in flight at most (and so claims held at once). */
  maxInFlight?: number;
  /** A send still running this long after stop() is abandoned; its claim expires and is retried. */
  stopGraceMs?: number;
  /** After the sends are aborted, how long their outcomes still have to be recorded. */
  settleGraceMs?: number;
  /** A send is given up this long before its lease ends, so it is settled by its holder or by nobody. */
  leaseMarginMs?: number;
  now?: () => Date;
}

export interface Outbox {
  readonly owner: string;
  start(): void;
  /** Looks for work now (this process has just stored an enquiry). */
  wake(): void;
  /** Stops claiming, waits at most stopGraceMs for sends in flight, then aborts them and closes the channels. */
  stop(): Promise<void>;
}

type Logged = { outcome: "sent" | "retry" | "failed" | "error"; [key: string]: unknown };

/** One JSON line per notification outcome; never the visitor's words or address. A give-up goes to stderr. */
function log(entry: Logged): void {
  const line = JSON.stringify({ time: new Date().toISOString(), event: "notification", ...entry });
  if (entry.outcome === "failed" || entry.outcome === "error") console.error(line);
  else console.log(line);
}

export function createOutbox({
  store,
  channels,
  owner = `${hostname()}:${process.pid}:${randomUUID()}`,
  pollMs = 2_000,
  maxInFlight = 10,
  // stop() runs at the shutdown signal beside the HTTP drain (8.5 s at most): the process is gone 10 s after SIGTERM.
  stopGraceMs = 4_000,
  settleGraceMs = 3_000,
  leaseMarginMs = 3_000,
  now = () => new Date(),
}: OutboxOptions): Outbox {
  const byChannel = new Map<Channel, NotificationChannel>(channels.map((c) => [c.channel, c]));
  // Two steps of stopping: `closing` stops claiming; `stopping` (after the grace) aborts the sends still running.
  let closing = false;
  const stopping = new AbortController();
  let started = false;
  let loopDone: Promise<void> = Promise.resolve();
  let wakeUp: (() => void) | undefined;
  let woken = false;

  async function settle(claim: ClaimedNotification, error: unknown): Promise<void> {
    const channel = byChannel.get(claim.channel);
    const base = { enquiryId: claim.enquiry.id, channel: claim.channel, attempts: claim.attempts };
    if (error === undefined) {
      const settled = await store.markSent(claim, now());
      log({ outcome: "sent", ...base, ...(settled ? {} : { note: "lease had expired; marked by its new holder" }) });
      return;
    }
    const reason = channel ? describeFailure(error) : `no ${claim.channel} channel is configured in this process`;
    const next = afterFailure(claim.attempts, claim.createdAt, now());
    if ("giveUp" in next) {
      await store.markFailed(claim, reason, now());
      log({
        outcome: "failed",
        ...base,
        error: reason,
        action: "nobody was notified; run `npm run inbox -- retry` after fixing the cause",
      });
    } else {
      await store.markRetry(claim, reason, next.retryAt);
      log({ outcome: "retry", ...base, error: reason, retryAt: next.retryAt.toISOString() });
    }
  }

  async function deliver(claim: ClaimedNotification): Promise<void> {
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
      }
    }
    // Stopping aborted this send: leave the claim to expire (its lease), and the next holder tries again.
    if (failure !== undefined && stopping.signal.aborted) return;
    // A sent notification that cannot be marked sent would be sent again once its lease runs out: try a few times.
    for (let attempt = 1; ; attempt++) {
      try {
        await settle(claim, failure);
        return;
      } catch (error) {
        if (attempt >= 3 || claim.claimUntil.getTime() - now().getTime() < 2_000) {
          log({
            outcome: "error",
            enquiryId: claim.enquiry.id,
            channel: claim.channel,
            error: `could not settle: ${describeFailure(error)}`,
          });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  }

  function wake(): void {
    woken = true;
    wakeUp?.();
  }

  // Sends run side by side, each on its own: one that stalls until its timeout holds up none of the others.
  const inFlight = new Set<Promise<void>>();
  let lastClaimError: string | undefined;
  let lastClaimErrorAt = 0;

  async function loop(): Promise<void> {
    while (!closing) {
      woken = false;
      const room = maxInFlight - inFlight.size;
      let claims: ClaimedNotification[] = [];
      let storeFailed = false;
      if (room > 0) {
        try {
          claims = await store.claimDue(owner, room, now());
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
        if (!storeFailed) lastClaimError = undefined;
      }
      for (const claim of claims) {
        const sending: Promise<void> = deliver(claim).finally(() => {
          inFlight.delete(sending);
          wake(); // room for the next one
        });
        inFlight.add(sending);
      }
      if ((room > 0 && claims.length === room) || woken) continue; // there may be more due right now
      let wait = pollMs;
      if (room > 0 && !storeFailed) {
        try {
          const due = await store.nextDueAt();
          // A floor, so clocks that disagree between processes can never make this spin.
          if (due) wait = Math.min(pollMs, Math.max(50, due.getTime() - now().getTime()));
        } catch {
          // The next claim will say what is wrong with the store.
        }
      }
      if (!woken && !closing) await sleep(wait);
    }
    await Promise.all(inFlight);
  }

  return {
    owner,
    start() {
      if (started) return;
      started = true;
      loopDone = loop();
    },
    wake,
    async stop() {
      if (closing) return;
      closing = true;
      wakeUp?.();
      const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
      await Promise.race([loopDone, after(stopGraceMs)]);
      stopping.abort();
      for (const channel of channels) channel.close();
      // Aborted sends end at once; a send that finished just before still records its outcome (a sent e-mail not
      // marked sent would go out again after its lease), bounded so the process still exits in time.
      await Promise.race([loopDone, after(settleGraceMs)]);
    },
  };
}

// --- The server process's outbox -------------------------------------------------------------------------------

/** The channels the configuration asks for, in the store's terms: save() creates one notification for each. */
export function configuredChannels(notify: NotifyConfig | undefined): Channel[] {
  const result: Channel[] = [];
  if (notify?.email) result.push("email");
  if (notify?.webhookUrl) result.push("webhook");
  return result;
}

/** Where notifications go, for the start log: hosts and counts only (URLs and credentials are secrets). */
function describeChannels(notify: NotifyConfig): string {
  const parts: string[] = [];
  if (notify.email) {
    const smtp = new URL(notify.email.smtpUrl);
    parts.push(`e-mail to ${notify.email.to.length} address(es) through ${smtp.protocol}//${smtp.host}`);
  }
  if (notify.webhookUrl) parts.push(`webhook at ${new URL(notify.webhookUrl).host}`);
  return parts.join(", ");
}

let running: Outbox | undefined;
/** Set by stopOutbox: a store that opens during shutdown must not start a sender nobody will stop. */
let shutDown = false;

/**
 * Starts this process's sender for the configured channels. With none configured, enquiries are still stored, and
 * the log says plainly that nobody will hear of them.
 */
export function startOutbox(
  store: InboxStore,
  notify: NotifyConfig | undefined,
  options: Partial<OutboxOptions> = {},
): Outbox | undefined {
  if (running || shutDown) return running;
  if (!notify || configuredChannels(notify).length === 0) {
    console.warn(
      "notify: no notification channel is configured (SMTP_URL + NOTIFY_EMAIL_TO + NOTIFY_EMAIL_FROM, or NOTIFY_WEBHOOK_URL): " +
        "enquiries are stored, but nobody will be notified. Read them with `npm run inbox`.",
    );
    return undefined;
  }
  const channels: NotificationChannel[] = [];
  if (notify.email) channels.push(createEmailChannel(notify.email));
  if (notify.webhookUrl) channels.push(createWebhookChannel(notify.webhookUrl));
  running = createOutbox({ store, channels, ...options });
  running.start();
  console.log(`notify: each new enquiry is announced by ${describeChannels(notify)}`);
  return running;
}

/** Tells the sender that this process has just stored an enquiry, so it goes out now rather than at the next poll. */
export function wakeOutbox(): void {
  running?.wake();
}

export async function stopOutbox(): Promise<void> {
  shutDown = true;
  const outbox = running;
  running = undefined;
  await outbox?.stop();
}
