import { backgroundLoop, loopSlot } from "~/background-loop.server";
import type { Config } from "~/config.server";
import { createLoginAlertRound } from "~/notify/login-alert.server";
import type { LoginAlertStore } from "~/store/login-alerts.types";
import { configuredChannels, publishedSender } from "./outbox-loop";
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
    const loop = backgroundLoop({
      intervalMs: loginAlertPollMs,
      // A round reports its own failures; it looks again sooner when a retry comes due.
      pass: async (signal) => {
        const next = await round.run(signal);
        return next ? Math.min(loginAlertPollMs, Math.max(250, next.getTime() - Date.now())) : loginAlertPollMs;
      },
      onError: (error) => log.error(`notify: login alerts: ${(error as Error).message}`),
    });
    loop.start();
    log.info("notify: a login from a browser not seen before is announced on the same channels");
    return {
      wake: () => loop.wake(),
      stop: async () => {
        await loop.stop();
        round.close();
      },
    };
  });
}

/** A login in this process has just stored an alert: send it now rather than at the next poll. */
export const wakeLoginAlerts = running.wake;

export const stopLoginAlerts = running.stop;
