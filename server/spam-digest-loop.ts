import { backgroundLoop, loopSlot } from "~/background-loop.server";
import type { Config } from "~/config.server";
import { createDigestRound } from "~/notify/digest/digest.server";
import type { DigestStore } from "~/store/digests.types";
import { configuredChannels, publishedSender } from "./outbox-loop";
import { log } from "~/log.server";

/**
 * The daily spam digest's timer in this process: started once the inbox database is open (beside the outbox), a round
 * at once and then every minute (sooner when a retry comes due), stopped at the shutdown signal. Each instance runs
 * one; the database lets one of them send each day's digest (app/notify/digest/digest.server.ts).
 */

/** How often a round looks whether the day's hour has come, or another instance left a send to take over. */
export const digestCheckMs = 60_000;

const running = loopSlot();

export function startSpamDigest(store: DigestStore, config: Config): void {
  running.start(() => {
    const digest = config.spamDigest;
    if (!digest || !config.notify || configuredChannels(config.notify).length === 0) return undefined;
    if (digest.hour === null) {
      log.info("notify: the daily spam digest is off (SPAM_DIGEST_HOUR=off)");
      return undefined;
    }
    const round = createDigestRound({
      store,
      notify: config.notify,
      digest,
      publicUrl: config.publicUrl,
      sender: publishedSender(config.publicUrl),
    });
    const loop = backgroundLoop({
      intervalMs: digestCheckMs,
      // A round reports its own failures; it looks again sooner when a retry comes due.
      pass: async (signal) => {
        const next = await round.run(signal);
        return next ? Math.min(digestCheckMs, Math.max(1_000, next.getTime() - Date.now())) : digestCheckMs;
      },
      onError: (error) => log.error(`notify: spam digest: ${(error as Error).message}`),
    });
    loop.start();
    log.info(
      `notify: a digest of what was kept aside as spam goes out daily from ${String(digest.hour).padStart(2, "0")}:00 ` +
        `${digest.timeZone}, when there is any`,
    );
    return {
      stop: async () => {
        await loop.stop();
        round.close();
      },
    };
  });
}

export const stopSpamDigest = running.stop;
