import { backgroundLoop } from "~/background-loop.server";
import { defaultRetention, type RetentionConfig } from "~/config.server";
import type { PurgeResult } from "~/store/deletion.types";
import type { DeletionStore } from "~/store/deletion.types";
import type { WaitlistStore } from "~/store/waitlist.types";
import { log } from "~/log.server";

/**
 * Retention: enquiries are kept RETENTION_DAYS (default 365), spam SPAM_RETENTION_DAYS (default 30); older ones are
 * deleted with their notifications and activity, at start and then daily (one instance at a time on PostgreSQL: the
 * store's advisory lock), and by `npm run inbox -- purge`. The same pass deletes the waitlist's addresses never
 * confirmed whose 7-day link ended (docs/waitlist.md).
 */

const dayMs = 24 * 60 * 60_000;
export const purgeIntervalMs = dayMs;

export function purgeOld(store: DeletionStore, retention: RetentionConfig = defaultRetention, now = new Date()) {
  return store.purge(
    {
      enquiriesBefore: new Date(now.getTime() - retention.retentionDays * dayMs),
      spamBefore: new Date(now.getTime() - retention.spamRetentionDays * dayMs),
    },
    now,
  );
}

export function describePurge(result: PurgeResult): string {
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  return (
    `Deleted ${plural(result.enquiries, "enquiry", "enquiries")} and ${plural(result.spam, "spam enquiry", "spam enquiries")} ` +
    `past their retention, with ${plural(result.notifications, "notification", "notifications")} and ` +
    `${plural(result.activity, "activity entry", "activity entries")}; ${plural(result.formTokens, "expired form token", "expired form tokens")} forgotten.`
  );
}

/** Purges now and every day until stopped; a failure is logged and tried again the next day. */
export function schedulePurge(
  store: DeletionStore & Pick<WaitlistStore, "purgeUnconfirmedWaitlist">,
  retention: RetentionConfig | undefined,
): () => void {
  const loop = backgroundLoop({
    intervalMs: purgeIntervalMs,
    pass: async () => {
      const result = await purgeOld(store, retention);
      if (result.enquiries + result.spam > 0) log.info(`inbox: ${describePurge(result)}`);
      const unconfirmed = await store.purgeUnconfirmedWaitlist();
      if (unconfirmed > 0) log.info(`inbox: deleted ${unconfirmed} waitlist address(es) never confirmed within 7 days`);
    },
    onError: (error) => log.error(`inbox: PURGE FAILED: ${(error as Error).message}; tried again in 24 h`),
  });
  loop.start();
  // The store closes right after: a purge still running ends with it, as it always has.
  return () => void loop.stop();
}
