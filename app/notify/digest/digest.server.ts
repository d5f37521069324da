import type { NotifyConfig, SpamDigestConfig } from "~/config.server";
import type { ClaimedDigestSend } from "~/store/digests.types";
import type { DigestStore } from "~/store/digests.types";
import { describeFailure } from "~/notify/channels/channel";
import { channelSenders } from "~/notify/channel-senders.server";
import { settleSend } from "~/notify/outbox-round.server";
import { dueDay } from "~/notify/digest/clock";
import { defaultSender, type Sender } from "~/notify/sender";
import { composeDigestEmail, digestWebhookBody, type SpamDigest } from "~/notify/digest/compose";
import { log as logger } from "~/log.server";

/**
 * One round of the daily spam digest, run by each instance now and then (server/spam-digest-loop.ts): once the day's hour
 * has come, claim the day (one instance gets it; the others find it taken), then send the day's digest on each channel
 * whose send this instance can claim, and settle it: sent, retried later with the outbox's backoff for a day after
 * the claim, or failed. A send is claimed under a lease and settled only by its holder, so it goes out once.
 */

/** The most entries a digest lists by name; the rest are counted. */
export const digestListLimit = 50;

export interface DigestRound {
  /** Runs one round; resolves with when the next send is due, if one is pending. */
  run(signal: AbortSignal): Promise<Date | null>;
  close(): void;
}

/** One JSON line per outcome, like the outbox's; never a visitor's words or address. */
function log(entry: Record<string, unknown>): void {
  logger.event("spam-digest", entry, entry.outcome === "failed" || entry.outcome === "error" ? "error" : "info");
}

export function createDigestRound({
  store,
  notify,
  digest: { hour, timeZone },
  publicUrl,
  sender = () => ({ ...defaultSender, siteUrl: publicUrl }),
  now = () => new Date(),
}: {
  store: DigestStore;
  notify: NotifyConfig;
  digest: SpamDigestConfig;
  publicUrl: string;
  /** The business as published at the moment of each send. */
  sender?: () => Sender;
  now?: () => Date;
}): DigestRound {
  const { senders, close } = channelSenders<SpamDigest>(notify, {
    email: (digest, email) => composeDigestEmail(digest, email, new Date(), sender()),
    webhook: (digest, format) => digestWebhookBody(format, digest),
  });
  const channels = [...senders.keys()];
  const spamFolderUrl = `${publicUrl}/inbox?folder=spam`;
  /** The last day this process found claimed (by itself or another): no need to ask again until the next day. */
  let settledDay: string | undefined;

  async function claimDay(): Promise<void> {
    const day = dueDay(now(), timeZone, hour);
    if (day === null || day === settledDay) return;
    const claimed = await store.claimDigestDay(day, channels, now());
    settledDay = day;
    if (!claimed) {
      log({ outcome: "taken", day, note: "this day's digest was claimed before, by this or another instance" });
      return;
    }
    const since = claimed.windowStart.toISOString();
    log(
      claimed.spam > 0
        ? { outcome: "claimed", day, spam: claimed.spam, since, channels }
        : { outcome: "nothing", day, since, note: "nothing was kept aside as spam: no digest" },
    );
  }

  async function settle(claim: ClaimedDigestSend, failure: unknown): Promise<void> {
    const settled = await settleSend(
      failure,
      { attempts: claim.attempts, since: claim.claimedAt, now: now() },
      {
        sent: () => store.markDigestSent(claim, now()),
        retry: (reason, at) => store.markDigestRetry(claim, reason, at),
        failed: (reason) => store.markDigestFailed(claim, reason),
      },
    );
    log({
      ...settled,
      day: claim.day,
      channel: claim.channel,
      attempts: claim.attempts,
      ...(settled.outcome === "sent" ? { spam: claim.total } : {}),
      ...(settled.outcome === "failed" ? { action: "this day's digest is not sent; see the Spam folder" } : {}),
    });
  }

  async function deliver(claim: ClaimedDigestSend, signal: AbortSignal): Promise<void> {
    const send = senders.get(claim.channel);
    let failure: unknown;
    try {
      if (!send) throw new Error(`no ${claim.channel} channel is configured in this process`);
      // Everything listed may have been rescued or erased since the day was claimed: then there is nothing to tell.
      if (claim.total > 0) {
        const budget = claim.claimUntil.getTime() - now().getTime() - 3_000;
        await send(
          { day: claim.day, spam: claim.spam, total: claim.total, spamFolderUrl },
          AbortSignal.any([signal, AbortSignal.timeout(Math.max(budget, 1))]),
        );
      }
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
        await claimDay();
        const claims = await store.claimDigestSends(digestListLimit, now());
        await Promise.all(claims.map((claim) => deliver(claim, signal)));
        return await store.nextDigestSendAt();
      } catch (error) {
        log({ outcome: "error", error: `spam digest round: ${describeFailure(error)}` });
        return null;
      }
    },
    close,
  };
}
