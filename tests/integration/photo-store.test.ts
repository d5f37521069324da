import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseLocation } from "~/config.server";
import { migrations } from "~/store/migrations.server";
import { openPostgres } from "~/store/postgres.server";
import { openSqlite } from "~/store/sqlite.server";
import { createInboxStore, openInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { useTempDir } from "../support/temp-dir";

/** The owner's photos in the database: bytes in and out unchanged, renditions claimed once, on both. */

const temp = useTempDir("haunt-photo-store-");
let postgres: TestDatabases | undefined;
beforeAll(async () => {
  if (postgresAvailable) postgres = await sharedPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

const backends: { name: string; fresh: () => Promise<DatabaseLocation> }[] = [
  { name: "SQLite", fresh: async () => ({ kind: "sqlite", path: temp.file("photos.db") }) },
  { name: "PostgreSQL", fresh: async () => ({ kind: "postgres", url: await postgres!.createDatabase() }) },
];

for (const backend of backends) {
  describe.skipIf(backend.name === "PostgreSQL" && !postgresAvailable)(`photos on ${backend.name}`, () => {
    let store: InboxStore;
    beforeAll(async () => {
      store = await openInboxStore(await backend.fresh(), { timeoutMs: 10_000 });
    });
    afterAll(() => store.close());
    const original = randomBytes(3 * 1024 * 1024);
    const upload = {
      id: "a".repeat(24),
      original,
      contentType: "image/jpeg",
      width: 4000,
      height: 3000,
      byteSize: original.byteLength,
      fileName: "IMG_0001.JPG",
      alt: "A werewolf in the barn",
      uploadedBy: "ann@example.com",
    };

    it("keeps an upload's bytes once and lists it", async () => {
      expect(await store.saveUpload(upload, new Date(1_000))).toBe(true);
      expect(await store.saveUpload(upload)).toBe(false);
      expect(await store.listUploads()).toEqual(
        [{ ...upload, original: undefined, uploadedAt: new Date(1_000) }].map(({ original: _bytes, ...rest }) => rest),
      );
    });

    it("claims a pending rendition once, with the original's bytes unchanged; files and progress; ready", async () => {
      const key = "k".repeat(24);
      expect(await store.requestRendition(key, upload.id, "slide", { x: 0.5, y: 0.4 })).toMatchObject({
        state: "pending",
        done: 0,
      });
      const [first, second] = await Promise.all([store.claimRendition(60_000), store.claimRendition(60_000)]);
      const claim = (first ?? second)!;
      expect([first, second].filter(Boolean)).toHaveLength(1);
      expect(Buffer.from(claim.original).equals(original)).toBe(true);
      const bytes = randomBytes(200_000);
      expect(await store.addRenditionFile(claim, { name: "p-1-480.avif", contentType: "image/avif", bytes }, 3)).toBe(
        true,
      );
      expect((await store.renditions([key]))[0]).toMatchObject({ done: 1, total: 3, state: "pending" });
      expect(await store.finishRendition(claim, { entry: '{"width":480}' })).toBe(true);
      expect((await store.renditions([key]))[0]).toMatchObject({ state: "ready", entry: '{"width":480}' });
      expect(await store.readyRenditionCount()).toBe(1);
      const file = await store.photoFile("p-1-480.avif");
      expect(file?.contentType).toBe("image/avif");
      expect(Buffer.from(file!.bytes).equals(bytes)).toBe(true);
      expect(await store.claimRendition(60_000)).toBeNull();
      // The same rendition asked for again is the one that exists.
      expect((await store.requestRendition(key, upload.id, "slide", { x: 0.5, y: 0.4 })).state).toBe("ready");
    });

    it("takes over a rendition whose lease ran out; the old holder can no longer settle it", async () => {
      const key = "m".repeat(24);
      await store.requestRendition(key, upload.id, "about", { x: 0.5, y: 0.5 });
      const old = (await store.claimRendition(1_000, new Date(Date.now() - 5_000)))!;
      const taken = (await store.claimRendition(60_000))!;
      expect(taken.key).toBe(key);
      expect([old.attempts, taken.attempts]).toEqual([1, 2]);
      expect(await store.finishRendition(old, { error: "late" })).toBe(false);
      expect(await store.finishRendition(taken, { error: "cut short" })).toBe(true);
      expect((await store.renditions([key]))[0]).toMatchObject({ state: "failed", error: "cut short" });
    });

    it("renews a lease with each file; a released claim waits until its retry time, then is claimed again", async () => {
      const key = "r".repeat(24);
      await store.requestRendition(key, upload.id, "about", { x: 0.2, y: 0.5 });
      const start = Date.now();
      const claim = (await store.claimRendition(1_000, new Date(start)))!;
      const file = { name: "p-2-480.webp", contentType: "image/webp", bytes: randomBytes(1000) };
      expect(await store.addRenditionFile(claim, file, 12, 60_000, new Date(start + 500))).toBe(true);
      // Past the first lease, within the renewed one: nobody else can take it.
      expect(await store.claimRendition(60_000, new Date(start + 5_000))).toBeNull();
      expect(await store.releaseRendition(claim, new Date(start + 10_000))).toBe(true);
      expect(await store.claimRendition(60_000, new Date(start + 9_000))).toBeNull();
      const again = (await store.claimRendition(60_000, new Date(start + 10_000)))!;
      expect(again).toMatchObject({ key, attempts: 2, done: 0 });
      expect(await store.releaseRendition(claim, new Date(start))).toBe(false);
      expect(await store.finishRendition(again, { entry: "{}" })).toBe(true);
    });

    it("keeps an original in 1 MiB chunks, and moves one stored whole before them into a chunk", async () => {
      const location = await backend.fresh();
      const client =
        location.kind === "sqlite"
          ? openSqlite(location.path, { timeoutMs: 10_000 })
          : openPostgres(location.url, { timeoutMs: 10_000 });
      try {
        await client.migrate(migrations.filter((migration) => migration.version <= 18));
        const before = randomBytes(2 * 1024 * 1024 + 5);
        await client.query(
          `INSERT INTO photo_uploads (id, original, content_type, width, height, byte_size, file_name, alt,
             uploaded_at, uploaded_by) VALUES (?, ?, 'image/jpeg', 10, 10, ?, 'old.jpg', '', 1, 'ann@example.com')`,
          ["b".repeat(24), before, before.byteLength],
        );
        await client.migrate(migrations);
        const migrated = createInboxStore(client);
        const after = randomBytes(2 * 1024 * 1024 + 7);
        expect(
          await migrated.saveUpload({ ...upload, id: "c".repeat(24), original: after, byteSize: after.byteLength }),
        ).toBe(true);
        const chunks = await client.query(
          "SELECT upload_id, seq, LENGTH(bytes) AS size FROM photo_chunks ORDER BY upload_id, seq",
        );
        expect(chunks.map((row) => [String(row.upload_id)[0], Number(row.seq), Number(row.size)])).toEqual([
          ["b", 0, before.byteLength],
          ["c", 0, 1024 * 1024],
          ["c", 1, 1024 * 1024],
          ["c", 2, 7],
        ]);
        const originals = await client.query("SELECT LENGTH(original) AS size FROM photo_uploads");
        expect(originals.map((row) => Number(row.size))).toEqual([0, 0]);
        for (const [id, bytes] of [
          ["b".repeat(24), before],
          ["c".repeat(24), after],
        ] as const) {
          await migrated.requestRendition(`${id[0]}`.repeat(24).replace(/./, "r"), id, "slide", { x: 0.5, y: 0.5 });
          const claim = (await migrated.claimRendition(60_000))!;
          expect(claim.uploadId).toBe(id);
          expect(Buffer.from(claim.original).equals(bytes)).toBe(true);
          await migrated.finishRendition(claim, { entry: "{}" });
        }
      } finally {
        await client.close();
      }
    });
  });
}
