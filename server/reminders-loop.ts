import { loopSlot } from "~/background-loop.server";
import type { Config } from "~/config.server";
import { createReminderRound } from "~/notify/reminder.server";
import type { ReminderStore } from "~/store/reminders.types";
import { configuredChannels, publishedSender } from "./outbox-loop";
import { senderLoop } from "./sender-loop";

/**
 * The owner's reminders' sender in this process: started once the inbox database is open (beside the outbox), a round
 * at once and then every 15 seconds (sooner when a reminder or a retry comes due), so one set for today after its hour,
 * on any instance, goes out within a minute; stopped at the shutdown signal. The database lets one instance send each
 * reminder (app/store/reminders.server.ts).
 */

/** How often a round looks for reminders come due, set on another instance, or left behind by one that died. */
export const reminderPollMs = 15_000;

const running = loopSlot();

export function startReminders(store: ReminderStore, config: Config): void {
  running.start(() => {
    // No channel (the start says so already): reminders still show in the inbox, and no message goes out.
    if (!config.notify || configuredChannels(config.notify).length === 0) return undefined;
    const round = createReminderRound({
      store,
      notify: config.notify,
      publicUrl: config.publicUrl,
      sender: publishedSender(config.publicUrl),
    });
    return senderLoop(round, { pollMs: reminderPollMs, what: "notify: reminders" });
  });
}

/** A reminder set here is due now (today, after its hour): send it rather than at the next poll. */
export const wakeReminders = running.wake;

export const stopReminders = running.stop;
