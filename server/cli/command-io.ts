import type { Readable, Writable } from "node:stream";
import { describeDatabase, type Config } from "~/config.server";
import { openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { getConfig } from "../environment";

/**
 * What a command of `npm run inbox` reads and writes: the process's streams when run as the CLI. `config` is given
 * when the command runs inside another process (the tests), which has its own environment; the CLI reads its own.
 */
export interface CommandIo {
  stdout: Writable;
  stderr: Writable;
  stdin?: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  config?: Config;
}

/** The configuration the command runs with. */
export const commandConfig = (io: CommandIo): Config => io.config ?? getConfig();

/**
 * The inbox database for one command: opened from the configuration, with at least 10 s to answer (a command is not a
 * visitor waiting), or null after saying on stderr why it could not be opened.
 */
export async function openStoreForCommand(io: CommandIo): Promise<InboxStore | null> {
  const config = commandConfig(io);
  try {
    return await openInboxStore(config.database, {
      timeoutMs: Math.max(config.storeTimeoutMs, 10_000),
      secretsKey: config.secretsKey,
    });
  } catch (error) {
    io.stderr.write(`inbox: cannot open ${describeDatabase(config.database)}: ${(error as Error).message}\n`);
    return null;
  }
}
