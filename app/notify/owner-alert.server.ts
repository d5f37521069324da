import type { NotifyConfig } from "~/config.server";
import type { ClaimedOwnerAlert, NewOwnerAlert, OwnerAlertStore } from "~/store/owner-alerts.types";
import { describeFailure } from "~/notify/channels/channel";
import { channelSenders } from "~/notify/channel-senders.server";
import { composeOwnerAlertEmail, ownerAlertWebhookBody, type AlertFacts } from "~/notify/owner-alert";
import { settleSend } from "~/notify/outbox-round.server";
import { defaultSender, type Sender } from "~/notify/sender";
import { log as logger } from "~/log.server";

/**
 * One round of the owner's alerts' sender, run by each instance when woken (a login or a customer's answer stored an
 * alert) and now and then (server/owner-alerts-loop.ts): claim the due alerts under a lease (one instance gets each),
 * send each on its channel with the same settings as the enquiries' notifications, and settle it: sent, retried later
 * with the outbox's backoff for a day after the login or answer, or failed. Only the holder of a claim settles it, so
 * an alert goes out once.
 */

/** Alerts claimed in one round at most. */
export const ownerAlertBatch = 20;

export interface OwnerAlertRound {
  /** Runs one round; resolves with when the next alert is due, if one is pending. */
  run(signal: AbortSignal): Promise<Date | null>;
  close(): void;
}

/**
 * One JSON line per outcome, like the outbox's; never the operator's address, browser or client address, nor the
 * customer's name or words. (Event `owner-alert`: `login-alert` before schema v20, though it covered answers too.)
 */
function log(entry: Record<string, unknown>): void {
  logger.event("owner-alert", entry, entry.outcome === "failed" || entry.outcome === "error" ? "error" : "info");
}

export function createOwnerAlertRound({
  store,
  notify,
  timeZone,
  publicUrl,
  sender = () => ({ ...defaultSender, siteUrl: publicUrl }),
  now = () => new Date(),
}: {
  store: OwnerAlertStore;
  notify: NotifyConfig;
  timeZone: string;
  publicUrl: string;
  /** The business as published at the moment of each send. */
  sender?: () => Sender;
  now?: () => Date;
}): OwnerAlertRound {
  const facts: AlertFacts = { timeZone, securityUrl: `${publicUrl}/inbox/security`, inboxUrl: `${publicUrl}/inbox` };
  const { senders, close } = channelSenders<NewOwnerAlert>(notify, {
    email: (alert, email) => composeOwnerAlertEmail(alert, facts, email, now(), sender()),
    webhook: (alert, format) => ownerAlertWebhookBody(format, alert, facts),
  });

  async function settle(claim: ClaimedOwnerAlert, failure: unknown): Promise<void> {
    const settled = await settleSend(
      failure,
      { attempts: claim.attempts, since: claim.at, now: now() },
      {
        sent: () => store.markOwnerAlertSent(claim, now()),
        retry: (reason, at) => store.markOwnerAlertRetry(claim, reason, at),
        failed: (reason) => store.markOwnerAlertFailed(claim, reason),
      },
    );
    log({
      ...settled,
      alert: claim.id,
      channel: claim.channel,
      attempts: claim.attempts,
      ...(settled.outcome === "failed"
        ? { action: `the owner was not told of this ${claim.kind === "customer-answer" ? "answer" : "login"}` }
        : {}),
    });
  }

  async function deliver(claim: ClaimedOwnerAlert, signal: AbortSignal): Promise<void> {
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
        const claims = await store.claimOwnerAlerts(ownerAlertBatch, now());
        await Promise.all(claims.map((claim) => deliver(claim, signal)));
        return await store.nextOwnerAlertAt();
      } catch (error) {
        log({ outcome: "error", error: `owner alert round: ${describeFailure(error)}` });
        return null;
      }
    },
    close,
  };
}
