import { getConfig } from "~/config.server";

/**
 * What the server process runs besides answering requests, started before it listens and stopped after the last
 * request has been answered (see server.mjs). Starting checks the environment: a bad value stops the start with a
 * message naming the variable.
 */
export async function startServices(): Promise<void> {
  getConfig();
}

export async function stopServices(): Promise<void> {}
