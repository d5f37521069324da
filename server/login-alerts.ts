import type { Config } from "~/config.server";
import { createLoginAlertRound } from "~/notify/login-alert.server";
import type { LoginAlertStore } from "~/store/login-alerts.types";
import { configuredChannels, publishedSender } from "./outbox";
import { log } from "~/log.server";

/**
 * The new-login alerts' sender in this process: started once the inbox database is open (beside the outbox), a round
 * at once, whenever a login here stores an alert, when a retry comes due, and every minute for what other instances
 * left (a claim whose holder died); stopped at the shutdown signal. The database lets one instance send each alert
 * (app/store/login-alerts.server.ts).
 */

/** How often a round looks for alerts another instance stored or left behind. */
export const loginAlertPollMs = 60_000;

let stopCurrent: (() => Promise<void>) | undefined;
let wakeCurrent: (() => void) | undefined;
let shutDown = false;

export function startLoginAlerts(store: LoginAlertStore, config: Config): void {
  if (stopCurrent || shutDown) return;
  if (!config.notify || configuredChannels(config.notify).length === 0) return;
  const round = createLoginAlertRound({
    store,
    notify: config.notify,
    timeZone: config.timeZone,
    publicUrl: config.publicUrl,
    sender: publishedSender(config.publicUrl),
  });
  const stopping = new AbortController();
  let woken = false;
  let wakeUp: (() => void) | undefined;
  wakeCurrent = () => {
    woken = true;
    wakeUp?.();
  };
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      woken = false;
      const next = await round.run(stopping.signal);
      if (woken || stopping.signal.aborted) continue;
      const wait = next ? Math.min(loginAlertPollMs, Math.max(250, next.getTime() - Date.now())) : loginAlertPollMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        wakeUp = () => {
          clearTimeout(timer);
          wakeUp = undefined;
          resolve();
        };
      });
    }
  })();
  log.info("notify: a login from a browser not seen before is announced on the same channels");
  stopCurrent = async () => {
    stopping.abort();
    wakeUp?.();
    await loop;
    round.close();
  };
}

/** A login in this process has just stored an alert: send it now rather than at the next poll. */
export function wakeLoginAlerts(): void {
  wakeCurrent?.();
}

export async function stopLoginAlerts(): Promise<void> {
  shutDown = true;
  const stop = stopCurrent;
  stopCurrent = undefined;
  wakeCurrent = undefined;
  await stop?.();
}
