import { loopSlot } from "~/background-loop.server";
import type { Config } from "~/config.server";
import { createLoginAlertRound } from "~/notify/login-alert.server";
import type { LoginAlertStore } from "~/store/login-alerts.types";
import { configuredChannels, publishedSender } from "./outbox-loop";
import { senderLoop } from "./sender-loop";
import { log } from "~/log.server";

/**
 * The new-login alerts' sender in this process: started once the inbox database is open (beside the outbox), a round
 * at once, whenever a login here stores an alert, when a retry comes due, and every minute for what other instances
 * left (a claim whose holder died); stopped at the shutdown signal. The database lets one instance send each alert
 * (app/store/login-alerts.server.ts).
 */

/** How often a round looks for alerts another instance stored or left behind. */
export const loginAlertPollMs = 60_000;

const running = loopSlot();

export function startLoginAlerts(store: LoginAlertStore, config: Config): void {
  running.start(() => {
    if (!config.notify || configuredChannels(config.notify).length === 0) return undefined;
    const round = createLoginAlertRound({
      store,
      notify: config.notify,
      timeZone: config.timeZone,
      publicUrl: config.publicUrl,
      sender: publishedSender(config.publicUrl),
    });
    log.info("notify: a login from a browser not seen before is announced on the same channels");
    return senderLoop(round, { pollMs: loginAlertPollMs, what: "notify: login alerts" });
  });
}

/** A login in this process has just stored an alert: send it now rather than at the next poll. */
export const wakeLoginAlerts = running.wake;

export const stopLoginAlerts = running.stop;
