import { readFile } from "node:fs/promises";
import type { Config } from "~/config.server";
import { withoutControls } from "~/enquiry/validate.server";
import { StoreUnavailableError } from "~/inbox/sql.server";
import { openInboxStore, type DatabaseLocation } from "~/inbox/store.server";
import type { Channel, InboxStore, V1Record } from "~/inbox/types";

/**
 * The server process's inbox: opened at start, kept open, closed at shutdown. A database that cannot be reached at
 * start (PostgreSQL not up yet) is retried in the background with a log line per attempt, while the pages are
 * served; until it opens, /readyz fails and an enquiry is answered with the "try again later" message.
 */

let store: InboxStore | undefined;
let opening: Promise<void> | undefined;
let stopped = false;
let notifyChannels: readonly Channel[] = [];

const retryDelaysMs = [1_000, 2_000, 3_000, 5_000, 10_000, 30_000];

/** The open store; throws StoreUnavailableError while it is not (yet) open. */
export function currentInbox(): InboxStore {
  if (!store) throw new StoreUnavailableError("the inbox database is not open (yet)");
  return store;
}

/** The channels every new enquiry is to be announced on (chosen by the configuration at start). */
export const inboxChannels = (): readonly Channel[] => notifyChannels;

export function describeDatabase(location: DatabaseLocation): string {
  if (location.kind === "sqlite") return `SQLite ${location.path}`;
  const url = new URL(location.url);
  return `PostgreSQL ${url.hostname}:${url.port || 5432}${url.pathname}`; // never the password
}

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
        opened = await openInboxStore(config.database, { timeoutMs: config.storeTimeoutMs });
      } catch (error) {
        const delay = retryDelaysMs[Math.min(attempt - 1, retryDelaysMs.length - 1)]!;
        console.error(
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
      console.log(`inbox: storing enquiries in ${where}`);
      // Neither a v1 file that cannot be imported nor anything else may keep the notifications from starting.
      try {
        await importV1Inbox(opened, config.inboxFile);
      } catch (error) {
        console.error(
          `inbox: IMPORT FAILED for ${config.inboxFile}: ${(error as Error).message}; the file is left as it is and tried again at the next start`,
        );
      }
      try {
        onOpen?.(opened);
      } catch (error) {
        console.error(`inbox: NOTIFICATIONS NOT STARTED: ${(error as Error).message}`);
      }
      return;
    }
  })();
  return opening;
}

export async function stopInbox(): Promise<void> {
  stopped = true;
  const open = store;
  store = undefined;
  opening = undefined;
  await open?.close();
}

/**
 * Imports the v1 JSON-lines inbox when it exists. Each line is imported once (its id comes from its content), so
 * running this at every start adds nothing twice, and a start interrupted half-way finishes the job the next time.
 * The file is left where it is.
 */
export async function importV1Inbox(target: InboxStore, file: string): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  const records: V1Record[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    const record = parseV1Line(line);
    if (record) records.push(record);
    else console.error(`inbox: ${file}:${index + 1}: not an enquiry, not imported`);
  });
  const added = await target.importV1(records);
  if (added > 0) console.log(`inbox: imported ${added} enquiries from ${file} (v1); it can be archived now`);
  return added;
}

function parseV1Line(line: string): V1Record | null {
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    const fields = ["receivedAt", "name", "email", "message"] as const;
    if (typeof value !== "object" || value === null || !fields.every((field) => typeof value[field] === "string"))
      return null;
    const clean = (field: (typeof fields)[number]) => withoutControls(value[field] as string);
    return { receivedAt: clean("receivedAt"), name: clean("name"), email: clean("email"), message: clean("message") };
  } catch {
    return null;
  }
}
