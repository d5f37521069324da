import { loopSlot } from "~/background-loop.server";
import type { Config } from "~/config.server";
import { createOwnerAlertRound } from "~/notify/owner-alert.server";
import type { OwnerAlertStore } from "~/store/owner-alerts.types";
import { configuredChannels, publishedSender } from "./outbox-loop";
import { senderLoop } from "./sender-loop";
import { log } from "~/log.server";

/**
 * The owner's alerts' sender in this process (new logins, factors added, customers' answers on their build pages):
 * started once the inbox database is open (beside the outbox), a round at once, whenever a login or an answer here
 * stores an alert, when a retry comes due, and every minute for what other instances left (a claim whose holder died);
 * stopped at the shutdown signal. The database lets one instance send each alert (app/store/owner-alerts.server.ts).
 */

/** How often a round looks for alerts another instance stored or left behind. */
export const ownerAlertPollMs = 60_000;

const running = loopSlot();

export function startOwnerAlerts(store: OwnerAlertStore, config: Config): void {
  running.start(() => {
    if (!config.notify || configuredChannels(config.notify).length === 0) return undefined;
    const round = createOwnerAlertRound({
      store,
      notify: config.notify,
      timeZone: config.timeZone,
      publicUrl: config.publicUrl,
      sender: publishedSender(config.publicUrl),
    });
    log.info("notify: a login from a browser not seen before is announced on the same channels");
    return senderLoop(round, { pollMs: ownerAlertPollMs, what: "notify: owner alerts" });
  });
}

/** A login or an answer in this process has just stored an alert: send it now rather than at the next poll. */
export const wakeOwnerAlerts = running.wake;

export const stopOwnerAlerts = running.stop;
