import type { Writable } from "node:stream";
import { describeDatabase } from "~/config.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { getConfig } from "../environment";

/**
 * The inbox database for one command: opened from the configuration, with at least 10 s to answer (a command is not a
 * visitor waiting), or null after saying on stderr why it could not be opened.
 */
export async function openStoreForCommand(stderr: Writable): Promise<InboxStore | null> {
  const config = getConfig();
  try {
    return await openInboxStore(config.database, {
      timeoutMs: Math.max(config.storeTimeoutMs, 10_000),
      secretsKey: config.secretsKey,
    });
  } catch (error) {
    stderr.write(`inbox: cannot open ${describeDatabase(config.database)}: ${(error as Error).message}\n`);
    return null;
  }
}
