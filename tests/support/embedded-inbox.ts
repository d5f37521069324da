import { afterAll, beforeAll } from "vitest";
import { parseConfig, type Config } from "~/config.server";
import { currentInbox, startInbox, stopInbox } from "../../server/database";
import type { Channel, ListedEnquiry } from "~/store/records";
import { testServices } from "./services";
import { useTempDir } from "./temp-dir";

/**
 * The embedded inbox of this test file's process, on a real SQLite file in a temp dir, opened before the file's tests
 * and closed after them (server/database.ts, as the server runs it). `stored()` lists what it holds, newest first.
 */
export function useEmbeddedInbox(channels: readonly Channel[] = ["email"]) {
  const temp = useTempDir("haunt-embedded-");
  const config: Config = parseConfig({ DATABASE_URL: `file:${temp.file("enquiries.db")}`, INBOX_FILE: temp.file() });
  beforeAll(() => startInbox(config, channels));
  afterAll(() => stopInbox());
  return {
    config,
    channels,
    /** What the app's loaders and actions get from the server wing, on this inbox. */
    services: testServices(config, { inbox: currentInbox, channels }),
    async stored(): Promise<ListedEnquiry[]> {
      const items: ListedEnquiry[] = [];
      for await (const item of currentInbox().list()) items.push(item);
      return items;
    },
  };
}
