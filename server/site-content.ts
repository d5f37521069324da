import type { Config } from "~/config.server";
import { defaultSnapshot, type SiteSnapshot } from "~/site-content/snapshot.server";
import { contentFromJson } from "~/site-content/schema.server";
import type { InboxStore } from "~/store/types";

/**
 * The process's copy of the published site content (ADR 0030): read when the database opens, then the newest version's
 * number polled every second, so a publish on any instance shows on this one within a second or two (and at once on
 * the instance that published it). The pages never wait on the database for their words: while it does not answer,
 * the last version read is served; until it has been read once, the defaults are served and no page is kept.
 */

const pollMs = 1_000;

let snapshot: SiteSnapshot = defaultSnapshot;
let store: InboxStore | undefined;
let timer: NodeJS.Timeout | undefined;
let reading: Promise<void> | undefined;
let failing = false;

export const currentSite = (): SiteSnapshot => snapshot;

/** Reads the newest version if it is not the one held (one read at a time; a poll during one joins it). */
export function refreshSite(): Promise<void> {
  if (!store) return Promise.resolve();
  const from = store;
  reading ??= (async () => {
    try {
      const latest = await from.latestSiteVersion();
      if (latest !== snapshot.version || !snapshot.known) {
        const version = latest === 0 ? null : await from.publishedSite();
        snapshot = version
          ? { version: version.number, content: contentFromJson(version.content), known: true }
          : { ...defaultSnapshot, known: true };
      }
      if (failing) console.log("site content: the database answers again");
      failing = false;
    } catch (error) {
      // Keep serving what was read last; say so once per outage.
      if (!failing) console.error(`site content: cannot read the published version: ${(error as Error).message}`);
      failing = true;
    } finally {
      reading = undefined;
    }
  })();
  return reading;
}

/** From the moment the inbox's database is open. With API_HOST there is none: the defaults are all there is. */
export function startSiteContent(config: Config, opened?: InboxStore): void {
  if (config.apiHost || !opened) {
    snapshot = { ...defaultSnapshot, known: true };
    return;
  }
  store = opened;
  void refreshSite();
  timer ??= setInterval(() => void refreshSite(), pollMs);
  timer.unref();
}

export function stopSiteContent(): void {
  clearInterval(timer);
  timer = undefined;
  store = undefined;
}
