import type { Config } from "~/config.server";
import { createDigestRound } from "~/notify/digest/digest.server";
import type { DigestStore } from "~/store/digests.types";
import { configuredChannels, publishedSender } from "./outbox";
import { log } from "~/log.server";

/**
 * The daily spam digest's timer in this process: started once the inbox database is open (beside the outbox), a round
 * at once and then every minute (sooner when a retry comes due), stopped at the shutdown signal. Each instance runs
 * one; the database lets one of them send each day's digest (app/notify/digest/digest.server.ts).
 */

/** How often a round looks whether the day's hour has come, or another instance left a send to take over. */
export const digestCheckMs = 60_000;

let stopCurrent: (() => Promise<void>) | undefined;
let shutDown = false;

export function startSpamDigest(store: DigestStore, config: Config): void {
  if (stopCurrent || shutDown) return;
  const digest = config.spamDigest;
  if (!digest || !config.notify || configuredChannels(config.notify).length === 0) return;
  if (digest.hour === null) {
    log.info("notify: the daily spam digest is off (SPAM_DIGEST_HOUR=off)");
    return;
  }
  const round = createDigestRound({
    store,
    notify: config.notify,
    digest,
    publicUrl: config.publicUrl,
    sender: publishedSender(config.publicUrl),
  });
  const stopping = new AbortController();
  let wakeUp: (() => void) | undefined;
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      const next = await round.run(stopping.signal);
      const wait = next ? Math.min(digestCheckMs, Math.max(1_000, next.getTime() - Date.now())) : digestCheckMs;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();
  log.info(
    `notify: a digest of what was kept aside as spam goes out daily from ${String(digest.hour).padStart(2, "0")}:00 ` +
      `${digest.timeZone}, when there is any`,
  );
  stopCurrent = async () => {
    stopping.abort();
    wakeUp?.();
    await loop;
    round.close();
  };
}

export async function stopSpamDigest(): Promise<void> {
  shutDown = true;
  const stop = stopCurrent;
  stopCurrent = undefined;
  await stop?.();
}
