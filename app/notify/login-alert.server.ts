import type { NotifyConfig } from "~/config.server";
import type { ClaimedLoginAlert, NewLoginAlert } from "~/store/login-alerts.types";
import type { LoginAlertStore } from "~/store/login-alerts.types";
import { describeFailure } from "~/notify/channels/channel";
import { channelSenders } from "~/notify/channel-senders.server";
import { composeLoginAlertEmail, loginAlertWebhookBody, type AlertFacts } from "~/notify/login-alert";
import { settleSend } from "~/notify/outbox-round.server";
import { defaultSender, type Sender } from "~/notify/sender";
import { log as logger } from "~/log.server";

/**
 * One round of the new-login alerts' sender, run by each instance when woken (a login stored an alert) and now and
 * then (server/login-alerts-loop.ts): claim the due alerts under a lease (one instance gets each), send each on its channel
 * with the same settings as the enquiries' notifications, and settle it: sent, retried later with the outbox's backoff
 * for a day after the login, or failed. Only the holder of a claim settles it, so an alert goes out once.
 */

/** Alerts claimed in one round at most. */
export const loginAlertBatch = 20;

export interface LoginAlertRound {
  /** Runs one round; resolves with when the next alert is due, if one is pending. */
  run(signal: AbortSignal): Promise<Date | null>;
  close(): void;
}

/** One JSON line per outcome, like the outbox's; never the operator's address, browser or client address. */
function log(entry: Record<string, unknown>): void {
  logger.event("login-alert", entry, entry.outcome === "failed" || entry.outcome === "error" ? "error" : "info");
}

export function createLoginAlertRound({
  store,
  notify,
  timeZone,
  publicUrl,
  sender = () => ({ ...defaultSender, siteUrl: publicUrl }),
  now = () => new Date(),
}: {
  store: LoginAlertStore;
  notify: NotifyConfig;
  timeZone: string;
  publicUrl: string;
  /** The business as published at the moment of each send. */
  sender?: () => Sender;
  now?: () => Date;
}): LoginAlertRound {
  const facts: AlertFacts = { timeZone, securityUrl: `${publicUrl}/inbox/security`, inboxUrl: `${publicUrl}/inbox` };
  const { senders, close } = channelSenders<NewLoginAlert>(notify, {
    email: (alert, email) => composeLoginAlertEmail(alert, facts, email, now(), sender()),
    webhook: (alert, format) => loginAlertWebhookBody(format, alert, facts),
  });

  async function settle(claim: ClaimedLoginAlert, failure: unknown): Promise<void> {
    const settled = await settleSend(
      failure,
      { attempts: claim.attempts, since: claim.at, now: now() },
      {
        sent: () => store.markLoginAlertSent(claim, now()),
        retry: (reason, at) => store.markLoginAlertRetry(claim, reason, at),
        failed: (reason) => store.markLoginAlertFailed(claim, reason),
      },
    );
    log({
      ...settled,
      alert: claim.id,
      channel: claim.channel,
      attempts: claim.attempts,
      ...(settled.outcome === "failed" ? { action: "the owner was not told of this login" } : {}),
    });
  }

  async function deliver(claim: ClaimedLoginAlert, signal: AbortSignal): Promise<void> {
    const send = senders.get(claim.channel);
    let failure: unknown;
    try {
      if (!send) throw new Error(`no ${claim.channel} channel is configured in this process`);
      // Given up before the lease ends, so the claim is settled by its holder or by nobody.
      const budget = claim.claimUntil.getTime() - now().getTime() - 3_000;
      await send(claim, AbortSignal.any([signal, AbortSignal.timeout(Math.max(budget, 1))]));
    } catch (error) {
      failure = error ?? new Error("send failed");
    }
    // Stopping aborted this send: its lease runs out and the next holder sends it.
    if (failure !== undefined && signal.aborted) return;
    await settle(claim, failure);
  }

  return {
    async run(signal) {
      try {
        const claims = await store.claimLoginAlerts(loginAlertBatch, now());
        await Promise.all(claims.map((claim) => deliver(claim, signal)));
        return await store.nextLoginAlertAt();
      } catch (error) {
        log({ outcome: "error", error: `login alert round: ${describeFailure(error)}` });
        return null;
      }
    },
    close,
  };
}
