import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createEmailChannel } from "~/notify/channels/email.server";
import { createOutbox, type Outbox, type OutboxOptions } from "~/notify/outbox-round.server";
import { migrations } from "~/store/migrations.server";
import { openSqlite } from "~/store/sqlite.server";
import { claimLeaseMs } from "~/store/notifications.server";
import { createInboxStore, openInboxStore } from "~/store/store.server";
import type { ListedEnquiry } from "~/store/records";
import type { InboxStore } from "~/store/store.types";
import { waitFor } from "../support/site-server";
import { startSmtpSink, type SmtpSink } from "../support/smtp-sink";
import { useTempDir } from "../support/temp-dir";

/**
 * A delivery whose outcome cannot be written (the database is locked, or the disk is full) is kept in memory and
 * written once the database takes it, never sent again. Real SQLite files, a real SMTP server on 127.0.0.1; the
 * disk fills up through SQLite's own limit (PRAGMA max_page_count: SQLITE_FULL, no privileges needed) and, where this
 * machine lets a test mount one, a real tmpfs that runs out of space.
 */

const temp = useTempDir("haunt-outbox-unrecorded-");
const owners = ["owner@grimforge.example"];
const from = "site@grimforge.example";
let sink: SmtpSink;
const outboxes: Outbox[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.stop());
beforeEach(() => {
  vi.spyOn(console, "log").mockImplementation(() => {});
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(async () => {
  await Promise.all(outboxes.splice(0).map((o) => o.stop()));
  for (const close of closers.splice(0)) await close();
  sink.setDelay(0);
  vi.restoreAllMocks();
});

function startOutbox(options: Omit<OutboxOptions, "channels">): Outbox {
  const outbox = createOutbox({
    channels: [createEmailChannel({ smtpUrl: sink.url, to: owners, from })],
    pollMs: 200,
    ...options,
  });
  outboxes.push(outbox);
  outbox.start();
  return outbox;
}

let counter = 0;
const enquiry = () => {
  counter += 1;
  return { name: `Visitor ${counter}`, email: `u${counter}@example.com`, message: `A haunted mirror (${counter}).` };
};

async function listAll(store: InboxStore): Promise<ListedEnquiry[]> {
  const items: ListedEnquiry[] = [];
  for await (const item of store.list()) items.push(item);
  return items;
}

const logged = (outcome: string) =>
  [...vi.mocked(console.log).mock.calls, ...vi.mocked(console.error).mock.calls]
    .map(([line]) => String(line))
    .filter((line) => line.includes(`"outcome":"${outcome}"`));

async function openStore(path: string, timeoutMs = 1_000): Promise<InboxStore> {
  // Migrated first with time to spare (a new file takes every migration, seconds on a loaded machine); the short
  // timeout is for what the tests hold the lock against, not for making the schema.
  await (await openInboxStore({ kind: "sqlite", path }, { timeoutMs: 30_000 })).close();
  const store = await openInboxStore({ kind: "sqlite", path }, { timeoutMs });
  closers.push(() => store.close());
  return store;
}

/** Another process's connection holding the write lock: every write of the outbox fails (SQLITE_BUSY) meanwhile. */
function holdWriteLock(path: string): () => void {
  const blocker = new DatabaseSync(path, { timeout: 0 });
  blocker.exec("BEGIN IMMEDIATE");
  return () => {
    blocker.exec("ROLLBACK");
    blocker.close();
  };
}

/** The notifications' states as the file holds them, read by a connection of the test's own (WAL: never blocked). */
function statesOnDisk(path: string): string[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db
      .prepare("SELECT state FROM notifications")
      .all()
      .map((row) => String(row.state));
  } finally {
    db.close();
  }
}

describe("a delivery whose outcome cannot be written", () => {
  it(
    "is kept in memory and written once the database takes writes again: one e-mail",
    { timeout: 40_000 },
    async () => {
      const path = temp.file("enquiries.db");
      const store = await openStore(path);
      const { id } = await store.save(enquiry(), ["email"]);
      sink.setDelay(1_000);
      const connections = sink.connections();
      const outbox = startOutbox({ store, recordRetryMs: 500 });
      await waitFor(() => sink.connections() > connections, "the send under way");
      const release = holdWriteLock(path);
      try {
        await waitFor(() => outbox.unrecorded() === 1, "the delivery kept in memory", 20_000);
        expect(sink.forEnquiry(id)).toHaveLength(1);
        // Read beside the store: its worker may be busy waiting for the lock (a write, or its disk probe).
        expect(statesOnDisk(path)).toEqual(["pending"]);
      } finally {
        release();
      }
      // The sent mark that timed out behind the lock may land by itself once the lock is gone: then the kept delivery
      // finds it settled at its next write (within recordRetryMs). Either way: written once, and nothing sent again.
      await waitFor(
        async () => (await listAll(store))[0]!.notifications[0]!.state === "sent" && outbox.unrecorded() === 0,
        "marked sent and nothing kept in memory",
        10_000,
      );
      expect(sink.forEnquiry(id)).toHaveLength(1);
      expect(logged("recorded")).toHaveLength(1);
    },
  );

  it(
    "claimed again after its lease ran out (by this process): recorded, not sent again",
    { timeout: 40_000 },
    async () => {
      const path = temp.file("enquiries.db");
      const store = await openStore(path);
      const { id } = await store.save(enquiry(), ["email"]);
      sink.setDelay(1_000);
      let offsetMs = 0;
      const connections = sink.connections();
      // Writing it again by itself waits a minute: the new claim comes first.
      const outbox = startOutbox({ store, recordRetryMs: 60_000, now: () => new Date(Date.now() + offsetMs) });
      await waitFor(() => sink.connections() > connections, "the send under way");
      const release = holdWriteLock(path);
      try {
        await waitFor(() => outbox.unrecorded() === 1, "the delivery kept in memory", 20_000);
      } finally {
        offsetMs = claimLeaseMs + 1_000; // its lease is over: the notification is due for a claim again
        release();
      }
      outbox.wake();
      await waitFor(async () => (await listAll(store))[0]!.notifications[0]!.state === "sent", "marked sent", 10_000);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(sink.forEnquiry(id)).toHaveLength(1);
      expect(sink.connections() - connections).toBe(1);
      // Sent once: written with the new claim (attempts 2), or by a write of the old one that had timed out in the
      // caller while queued behind the lock, and landed once it was released (attempts 1). Never a second send.
      expect((await listAll(store))[0]!.notifications[0]).toMatchObject({ state: "sent" });
    },
  );
});

describe("disk full, then space back (SQLite's max_page_count)", () => {
  it("e-mails == stored enquiries, each once", { timeout: 60_000 }, async () => {
    const path = temp.file("enquiries.db");
    // The test holds the outbox's own connection: max_page_count is a setting of one connection.
    const client = openSqlite(path, { timeoutMs: 2_000 });
    await client.migrate(migrations);
    const store = createInboxStore(client);
    closers.push(() => store.close());
    const outbox = startOutbox({ store, recordRetryMs: 500 });
    const stored: string[] = [];
    let refused = 0;
    const postFor = async (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        try {
          const { id } = await store.save(enquiry(), ["email"]);
          stored.push(id);
          outbox.wake();
        } catch {
          refused += 1; // the visitor is told to try again later; nothing was stored
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await postFor(1_000);
    const [{ page_count: pages }] = (await client.query("PRAGMA page_count")) as [{ page_count: number }];
    await client.query(`PRAGMA max_page_count = ${pages}`); // the disk is full
    await postFor(3_000);
    await client.query("PRAGMA max_page_count = 1073741823"); // space is back
    await postFor(500);
    await waitFor(
      async () => (await listAll(store)).every((e) => e.notifications.every((n) => n.state === "sent")),
      "every notification sent",
      30_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    const items = await listAll(store);
    expect(items.map((e) => e.id).sort()).toEqual([...stored].sort());
    const mails = stored.reduce((sum, id) => sum + sink.forEnquiry(id).length, 0);
    console.info(
      `max_page_count: ${stored.length} stored, ${refused} refused while full, ${mails} e-mails, ` +
        `${logged("error").filter((l) => l.includes("could not record")).length} outcomes kept in memory`,
    );
    expect(refused).toBeGreaterThan(0);
    expect(mails).toBe(stored.length);
    for (const id of stored) expect(sink.forEnquiry(id)).toHaveLength(1);
  });
});

/** A real small tmpfs, where this machine lets a test mount one (root with CAP_SYS_ADMIN); else skipped. */
function tryMountTmpfs(dir: string, size: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
const tmpfsDir = temp.file("tmpfs-probe");
const canMount = process.getuid?.() === 0 && tryMountTmpfs(tmpfsDir, "64k");
if (canMount) execFileSync("umount", [tmpfsDir]);

describe.skipIf(!canMount)("disk full, then space back (a real tmpfs)", () => {
  it(
    "a send made just before the disk filled is recorded once there is room, not sent again",
    { timeout: 40_000 },
    async () => {
      const dir = temp.file("small-disk");
      expect(tryMountTmpfs(dir, "4m")).toBe(true);
      closers.push(async () => {
        execFileSync("umount", ["-l", dir]);
      });
      const store = await openStore(`${dir}/enquiries.db`, 2_000);
      const { id } = await store.save(enquiry(), ["email"]);
      sink.setDelay(1_000);
      const connections = sink.connections();
      const outbox = startOutbox({ store, recordRetryMs: 500 });
      await waitFor(() => sink.connections() > connections, "the send under way");
      // Fill the disk to the last byte.
      const filler = `${dir}/filler`;
      const block = Buffer.alloc(64 * 1024);
      let written = 0;
      try {
        for (;;) {
          writeFileSync(filler, block, { flag: "a" });
          written += block.length;
        }
      } catch {
        for (const size of [4096, 512, 1]) {
          try {
            for (;;) writeFileSync(filler, Buffer.alloc(size), { flag: "a" });
          } catch {
            // this size no longer fits
          }
        }
      }
      expect(written).toBeGreaterThan(0);
      await waitFor(() => outbox.unrecorded() === 1, "the delivery kept in memory", 20_000);
      expect(sink.forEnquiry(id)).toHaveLength(1);
      rmSync(filler); // space is back
      await waitFor(async () => (await listAll(store))[0]!.notifications[0]!.state === "sent", "marked sent", 10_000);
      expect(outbox.unrecorded()).toBe(0);
      expect(sink.forEnquiry(id)).toHaveLength(1);
    },
  );
});
