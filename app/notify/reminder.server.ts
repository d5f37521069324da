import type { NotifyConfig } from "~/config.server";
import type { ClaimedReminder, ReminderStore } from "~/store/reminders.types";
import type { Channel } from "~/store/records";
import { describeFailure } from "~/notify/channels/channel";
import { channelSenders } from "~/notify/channel-senders.server";
import { composeReminderEmail, reminderWebhookBody, type ReminderFacts } from "~/notify/reminder";
import { settleSend } from "~/notify/outbox-round.server";
import { defaultSender, type Sender } from "~/notify/sender";
import { log as logger } from "~/log.server";

/**
 * One round of the reminders' sender, run by each instance now and then (server/reminders-loop.ts) with the time it
 * is (`now`, injected by the tests): claim the due reminders under a lease (one instance gets each), send each as one
 * message on every configured channel, and settle it: sent once every channel took it, else retried later with the
 * outbox's backoff for a day after it came due, or failed. Only the holder of a claim settles it, so a reminder goes
 * out once across instances and restarts. Each channel that takes it is recorded at once: a retry after another
 * channel failed goes to the channels still owed, never twice to one.
 */

/** Reminders claimed in one round at most. */
export const reminderBatch = 20;

export interface ReminderRound {
  /** Runs one round at `now` (the clock, unless given); resolves with when the next reminder is due, if any. */
  run(signal: AbortSignal, now?: Date): Promise<Date | null>;
  close(): void;
}

/** One JSON line per outcome; never the customer's name. */
function log(entry: Record<string, unknown>): void {
  logger.event("reminder", entry, entry.outcome === "failed" || entry.outcome === "error" ? "error" : "info");
}

export function createReminderRound({
  store,
  notify,
  publicUrl,
  sender = () => ({ ...defaultSender, siteUrl: publicUrl }),
  clock = () => new Date(),
}: {
  store: ReminderStore;
  notify: NotifyConfig;
  publicUrl: string;
  /** The business as published at the moment of each send. */
  sender?: () => Sender;
  clock?: () => Date;
}): ReminderRound {
  const { senders, close } = channelSenders<ReminderFacts>(notify, {
    email: (reminder, email) => composeReminderEmail(reminder, publicUrl, email, clock(), sender()),
    webhook: (reminder, format) => reminderWebhookBody(format, reminder, publicUrl),
  });

  async function deliver(claim: ClaimedReminder, signal: AbortSignal, now: Date): Promise<void> {
    // Given up before the lease ends, so the claim is settled by its holder or by nobody.
    const budget = claim.claimUntil.getTime() - now.getTime() - 3_000;
    const sendSignal = AbortSignal.any([signal, AbortSignal.timeout(Math.max(budget, 1))]);
    const configured = [...senders.keys()];
    const channels = configured.filter((channel) => !claim.sentChannels.includes(channel));
    const failures = (
      await Promise.all(
        channels.map(async (channel): Promise<{ channel: Channel; error: unknown } | null> => {
          try {
            await senders.get(channel)!(claim, sendSignal);
          } catch (error) {
            return { channel, error: error ?? new Error("send failed") };
          }
          // Recorded before the others settle: should this process die now, no holder sends it there again.
          await store.markReminderChannelSent(claim, channel);
          return null;
        }),
      )
    ).filter((failure) => failure !== null);
    // Stopping aborted a send: its lease runs out and the next holder sends it.
    if (failures.length > 0 && signal.aborted) return;
    const failure =
      configured.length === 0 ? new Error("no channel is configured in this process") : failures[0]?.error;
    const settled = await settleSend(
      failure,
      { attempts: claim.attempts, since: claim.dueAt, now },
      {
        sent: () => store.markReminderSent(claim, now),
        retry: (reason, at) => store.markReminderRetry(claim, reason, at),
        failed: (reason) => store.markReminderFailed(claim, reason),
      },
    );
    log({
      ...settled,
      reminder: claim.id,
      enquiry: claim.enquiryId,
      channels,
      ...(failures.length > 0 ? { failedOn: failures.map((failure) => failure.channel) } : {}),
      attempts: claim.attempts,
      ...(settled.outcome === "failed" ? { action: "the owner was not reminded of this enquiry" } : {}),
    });
  }

  return {
    async run(signal, now = clock()) {
      try {
        const claims = await store.claimReminders(reminderBatch, now);
        await Promise.all(claims.map((claim) => deliver(claim, signal, now)));
        return await store.nextReminderAt();
      } catch (error) {
        log({ outcome: "error", error: `reminder round: ${describeFailure(error)}` });
        return null;
      }
    },
    close,
  };
}
