import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import type { Config } from "~/config.server";
import { importProblem, withoutControls } from "~/enquiry/validate.server";
import { schedulePurge } from "~/inbox/retention.server";
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
let stopPurge: (() => void) | undefined;

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
      stopPurge = schedulePurge(opened, config.retention);
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
  stopPurge?.();
  stopPurge = undefined;
  const open = store;
  store = undefined;
  opening = undefined;
  await open?.close();
}

/**
 * Imports the v1 JSON-lines inbox when it exists. A file imported to the end is remembered (size, modification time,
 * content hash) and not read again at later starts; one with the same content but a new time is hashed, not parsed.
 * Each line is imported once (its id comes from its content), so a start interrupted half-way finishes the job the
 * next time; lines that are not valid enquiries, and those of erased addresses, are skipped. The file is left there.
 */
export async function importV1Inbox(target: InboxStore, file: string): Promise<number> {
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  const seen = { size: info.size, mtimeMs: info.mtimeMs };
  if (await target.v1FileImported(seen)) return 0;
  const bytes = await readFile(file);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (await target.v1FileImported({ ...seen, sha256 })) {
    await target.rememberV1File({ path: file, ...seen, sha256 });
    return 0;
  }
  const records: V1Record[] = [];
  new TextDecoder()
    .decode(bytes)
    .split("\n")
    .forEach((line, index) => {
      if (line.trim() === "") return;
      const parsed = parseV1Line(line);
      if (typeof parsed === "string") console.error(`inbox: ${file}:${index + 1}: not imported: ${parsed}`);
      else records.push(parsed);
    });
  const added = await target.importV1(records);
  await target.rememberV1File({ path: file, ...seen, sha256 });
  console.log(
    `inbox: imported ${added} enquiries from ${file} (v1); it will not be read again and can be archived now`,
  );
  return added;
}

/** A v1 record, checked by the rules of a new enquiry; or why not. */
function parseV1Line(line: string): V1Record | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return "not JSON";
  }
  if (typeof value !== "object" || value === null) return "not an enquiry";
  const fields = value as Record<string, unknown>;
  const text = (field: string) => (typeof fields[field] === "string" ? withoutControls(fields[field]) : fields[field]);
  const receivedAt = text("receivedAt");
  if (typeof receivedAt !== "string" || Number.isNaN(Date.parse(receivedAt))) return "receivedAt: not a date";
  const candidate = { name: text("name"), email: text("email"), message: text("message") };
  const problem = importProblem(candidate);
  if (problem) return problem;
  const trimmed = (field: "name" | "email" | "message") => (candidate[field] as string).trim();
  return { receivedAt, name: trimmed("name"), email: trimmed("email"), message: trimmed("message") };
}
