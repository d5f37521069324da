import type pg from "pg";
import { describeDatabase, type Config } from "~/config.server";
import { createPostgresPool } from "~/store/postgres.server";
import { isSecretsKeyError } from "~/store/sealed-secrets.server";
import { StoreUnavailableError } from "~/store/sql.server";
import { openInboxStore } from "~/store/store.server";
import type { Channel } from "~/store/records";
import type { InboxStore } from "~/store/store.types";
import { schedulePurge } from "./retention";
import { importV1Inbox } from "./v1-import";
import { log } from "~/log.server";

/**
 * The server process's inbox: opened at start, kept open, closed at shutdown. A database that cannot be reached at
 * start (PostgreSQL not up yet) is retried in the background with a log line per attempt, while the pages are
 * served; until it opens, /readyz fails and an enquiry is answered with the "try again later" message.
 */

let store: InboxStore | undefined;
let opening: Promise<void> | undefined;
let stopped = false;
let notifyChannels: readonly Channel[] = [];
let stopPurge: (() => void) | undefined;
let pool: pg.Pool | undefined;

const retryDelaysMs = [1_000, 2_000, 3_000, 5_000, 10_000, 30_000];

/** The open store; throws StoreUnavailableError while it is not (yet) open. */
export function currentInbox(): InboxStore {
  if (!store) throw new StoreUnavailableError("the inbox database is not open (yet)");
  return store;
}

/**
 * The process's one PostgreSQL pool when the inbox is on PostgreSQL (none with API_HOST): the store's statements and
 * the shared rate limits' counts go through it. Made on first use; connections open only when a statement needs one.
 */
export function postgresPool(config: Config): pg.Pool | undefined {
  if (config.apiHost || config.database.kind !== "postgres") return undefined;
  return (pool ??= createPostgresPool(config.database.url, { timeoutMs: config.storeTimeoutMs }));
}

/** The channels every new enquiry is to be announced on (chosen by the configuration at start). */
export const inboxChannels = (): readonly Channel[] => notifyChannels;

/** Opens the store (retrying until it opens or the server stops); resolves once it is open. */
export function startInbox(
  config: Config,
  channels: readonly Channel[],
  onOpen?: (store: InboxStore) => void,
): Promise<void> {
  notifyChannels = channels;
  stopped = false;
  opening ??= (async () => {
    const where = describeDatabase(config.database);
    for (let attempt = 1; !stopped; attempt++) {
      let opened: InboxStore;
      try {
        opened = await openInboxStore(config.database, {
          timeoutMs: config.storeTimeoutMs,
          postgresPool: postgresPool(config),
          secretsKey: config.secretsKey,
          onSecrets: ({ sealedNow, clear }) => {
            // Once per process: the store opens once.
            if (!config.secretsKey)
              log.warn(
                `[secrets] SECRETS_KEY is not set: one-time-code secrets (${clear} now) are kept in clear in the ` +
                  "database and its copies (docs/operating.md#secrets-key)",
              );
            else if (sealedNow > 0) log.info(`[secrets] ${sealedNow} stored secret(s) sealed with SECRETS_KEY`);
          },
        });
      } catch (error) {
        if (stopped) return; // the shutdown ended the pool under this attempt
        if (isSecretsKeyError(error)) {
          // Not retried: a missing or wrong key is the operator's to fix, and a server without it would fail logins.
          log.error(`${error.message} The site will not start.`);
          process.exit(1);
        }
        const delay = retryDelaysMs[Math.min(attempt - 1, retryDelaysMs.length - 1)]!;
        log.error(
          `inbox: cannot open ${where} (attempt ${attempt}): ${(error as Error).message}; retrying in ${delay / 1000} s`,
        );
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        continue;
      }
      if (stopped) {
        await opened.close();
        return;
      }
      store = opened;
      log.info(`inbox: storing enquiries in ${where}`);
      // Neither a v1 file that cannot be imported nor anything else may keep the notifications from starting.
      try {
        await importV1Inbox(opened, config.inboxFile);
      } catch (error) {
        log.error(
          `inbox: IMPORT FAILED for ${config.inboxFile}: ${(error as Error).message}; the file is left as it is and tried again at the next start`,
        );
      }
      // After the import: imported enquiries past their retention go at once.
      stopPurge = schedulePurge(opened, config.retention);
      try {
        onOpen?.(opened);
      } catch (error) {
        log.error(`inbox: NOTIFICATIONS NOT STARTED: ${(error as Error).message}`);
      }
      return;
    }
  })();
  return opening;
}

export async function stopInbox(): Promise<void> {
  stopped = true;
  stopPurge?.();
  stopPurge = undefined;
  const open = store;
  store = undefined;
  opening = undefined;
  await open?.close();
  // After the store: the pool is the process's, shared by the store and the rate limits, which are done by now.
  const shared = pool;
  pool = undefined;
  await shared?.end();
}
