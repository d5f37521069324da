import { getConfig } from "~/config.server";
import { startInbox, stopInbox } from "~/inbox/runtime.server";

/**
 * What the server process runs besides answering requests, started before it listens and stopped after the last
 * request has been answered (see server.mjs). Starting checks the environment: a bad value stops the start with a
 * message naming the variable.
 */

// How long the start waits for the inbox database before serving pages anyway (it keeps retrying in the background).
const inboxStartWaitMs = 5_000;

export async function startServices(): Promise<void> {
  const config = getConfig();
  if (!config.publicUrlSet) {
    console.warn(
      `[config] PUBLIC_URL is not set: sitemap.xml, robots.txt and canonical links use ${config.publicUrl}. ` +
        "Set it to the site's public origin, e.g. https://haunt.example.",
    );
  }
  if (config.apiHost) return; // enquiries go to the API: no embedded inbox
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, inboxStartWaitMs);
  });
  await Promise.race([startInbox(config, []), waited]);
  clearTimeout(timer);
}

export async function stopServices(): Promise<void> {
  await stopInbox();
}
