import { backgroundLoop } from "~/background-loop.server";
import type { Config } from "~/config.server";
import { resolvePhotos } from "~/site-content/public-photos.server";
import { resolveWork } from "~/site-content/public-work.server";
import { contentFromJson, defaultSiteContent } from "~/site-content/schema.server";
import { defaultSnapshot, type SiteSnapshot } from "~/site-content/snapshot.server";
import type { PhotoStore } from "~/store/photos.types";
import type { SiteStore } from "~/store/site-versions.types";
import type { VideoStore } from "~/store/videos.types";
import { log } from "~/log.server";

/**
 * The process's copy of the published site content (ADR 0030): read when the database opens, then the newest version's
 * number polled every second, so a publish on any instance shows on this one within a second or two (and at once on
 * the instance that published it). The pages never wait on the database for their words: while it does not answer,
 * the last version read is served; until it has been read once, the defaults are served and no page is kept.
 *
 * The same poll counts the ready photo renditions and video clips: one encoded after the publish (on any instance) is
 * resolved into the snapshot by itself, so it goes public within a second or two everywhere. Each change of what the pages show
 * makes a new snapshot generation, which retires the page cache's pages.
 */

const pollMs = 1_000;

let snapshot: SiteSnapshot = defaultSnapshot;
/** The poll of the open store (none before it opens, after the shutdown, or with API_HOST). */
let poll: { refresh(): Promise<void>; stop(): Promise<void> } | undefined;

export const currentSite = (): SiteSnapshot => snapshot;

/** Reads the newest version and its photos if either changed (one read at a time; a poll during one joins it). */
export function refreshSite(): Promise<void> {
  return poll?.refresh() ?? Promise.resolve();
}

function pollSite(from: PhotoStore & SiteStore & VideoStore): NonNullable<typeof poll> {
  /** The ready renditions and clips counted when the snapshot's photos and work were last resolved. */
  let readySeen = "";
  let reading: Promise<void> | undefined;
  let failing = false;

  function refresh(): Promise<void> {
    reading ??= (async () => {
      try {
        const [{ version: latest, readyRenditions }, readyVideos] = await Promise.all([
          from.siteState(),
          from.readyVideoCount(),
        ]);
        const ready = `${readyRenditions}/${readyVideos}`;
        const newVersion = latest !== snapshot.version || !snapshot.known;
        if (newVersion || ready !== readySeen) {
          let { version: number, content } = snapshot;
          if (newVersion) {
            const version = latest === 0 ? null : await from.publishedSite();
            number = version?.number ?? 0;
            content = version ? contentFromJson(version.content) : defaultSiteContent;
          }
          const [photos, work] = await Promise.all([resolvePhotos(from, content), resolveWork(from, content)]);
          // A rendition or clip made for a draft or another place changes nothing shown: the kept pages stay.
          const changed =
            JSON.stringify(photos) !== JSON.stringify(snapshot.photos) ||
            JSON.stringify(work) !== JSON.stringify(snapshot.work);
          if (newVersion || changed) {
            snapshot = { version: number, content, photos, work, known: true, generation: snapshot.generation + 1 };
          }
          readySeen = ready;
        }
        if (failing) log.info("site content: the database answers again");
        failing = false;
      } catch (error) {
        // Keep serving what was read last; say so once per outage.
        if (!failing) log.error(`site content: cannot read the published version: ${(error as Error).message}`);
        failing = true;
      } finally {
        reading = undefined;
      }
    })();
    return reading;
  }

  const loop = backgroundLoop({
    intervalMs: pollMs,
    pass: refresh,
    // A read of a few rows: one that hangs on a database gone away does not hold the shutdown.
    stopWaitMs: pollMs,
    onError: (error) => log.error(`site content: ${(error as Error).message}`),
  });
  loop.start();
  return { refresh, stop: () => loop.stop() };
}

/** From the moment the inbox's database is open. With API_HOST there is none: the defaults are all there is. */
export function startSiteContent(config: Config, opened?: PhotoStore & SiteStore & VideoStore): void {
  if (config.apiHost || !opened) {
    snapshot = { ...defaultSnapshot, known: true, generation: defaultSnapshot.generation + 1 };
    return;
  }
  void poll?.stop();
  poll = pollSite(opened);
}

export async function stopSiteContent(): Promise<void> {
  const stopping = poll;
  poll = undefined;
  await stopping?.stop();
}
