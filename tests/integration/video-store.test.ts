import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectGarbage } from "~/store/memory.server";
import { migrations } from "~/store/migrations.server";
import { openPostgres } from "~/store/postgres.server";
import type { SqlClient } from "~/store/sql.server";
import { openSqlite } from "~/store/sqlite.server";
import { createInboxStore } from "~/store/store.server";
import type { InboxStore } from "~/store/store.types";
import { videoChunkBytes } from "~/store/video-chunks.server";
import type { NewVideo } from "~/store/videos.types";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { useTempDir } from "../support/temp-dir";

/**
 * The owner's video clips in the database, on SQLite and PostgreSQL: bytes through 1 MiB chunks and back unchanged,
 * uploads claimed once under a lease, a lost claim that can change nothing, and a 60 MiB clip saved and read back
 * without the process's memory growing by anything like its size.
 */

const temp = useTempDir("haunt-video-store-");
let postgres: TestDatabases | undefined;
beforeAll(async () => {
  if (postgresAvailable) postgres = await sharedPostgres();
}, 60_000);
afterAll(() => postgres?.stop());

const backends: { name: string; open: () => Promise<SqlClient> }[] = [
  { name: "SQLite", open: async () => openSqlite(temp.file("videos.db"), { timeoutMs: 10_000 }) },
  {
    name: "PostgreSQL",
    open: async () => openPostgres(await postgres!.createDatabase(), { timeoutMs: 10_000 }),
  },
];

const MiB = 1024 * 1024;

const video = (id: string): NewVideo => ({
  id,
  fileName: "IMG_4242.MOV",
  contentType: "video/quicktime",
  durationMs: 12_500,
  width: 1920,
  height: 1080,
  uploadedBy: "ann@example.com",
});

/** A file of random bytes written 1 MiB at a time (never whole in memory); its SHA-256. */
async function randomFile(path: string, size: number): Promise<string> {
  const hash = createHash("sha256");
  const handle = await open(path, "w");
  try {
    for (let done = 0; done < size; done += MiB) {
      const bytes = randomBytes(Math.min(MiB, size - done));
      hash.update(bytes);
      await handle.write(bytes);
    }
  } finally {
    await handle.close();
  }
  return hash.digest("hex");
}

const fileHash = async (path: string) => {
  const hash = createHash("sha256");
  for await (const bytes of createReadStream(path)) hash.update(bytes as Buffer);
  return hash.digest("hex");
};

/** The process's resident memory, sampled while `work` runs: its highest growth over what it was before. */
async function rssGrowth(work: () => Promise<unknown>): Promise<number> {
  // What is there before it, without the garbage of what ran before (the random file written, the tests before).
  collectGarbage();
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage.rss()) - before;
}

for (const backend of backends) {
  describe.skipIf(backend.name === "PostgreSQL" && !postgresAvailable)(`videos on ${backend.name}`, () => {
    let db: SqlClient;
    let store: InboxStore;
    /** Runs before the clip chunk of this number is written (a test's hook into the middle of a finish). */
    let beforeClipChunk: { seq: number; run: () => Promise<void> } | undefined;
    beforeAll(async () => {
      const client = await backend.open();
      await client.migrate(migrations);
      db = {
        ...client,
        dialect: client.dialect,
        transaction: async (statements) => {
          const chunk = statements.find((s) => s.sql.includes("INSERT INTO video_chunks"))?.params;
          if (beforeClipChunk && chunk?.[0] === "clip" && chunk[1] === beforeClipChunk.seq) {
            const hook = beforeClipChunk;
            beforeClipChunk = undefined;
            await hook.run();
          }
          return client.transaction(statements);
        },
      };
      store = createInboxStore(db);
    });
    afterAll(() => store.close());

    const chunkCount = async (id: string, kind: "original" | "clip") =>
      Number(
        (await db.query("SELECT COUNT(*) AS n FROM video_chunks WHERE video_id = ? AND kind = ?", [id, kind]))[0]!.n,
      );
    const clipOutcome = (clipPath: string, clipName: string, posterUpload: string | null = null) => ({
      clipPath,
      clipName,
      width: 1280,
      height: 720,
      durationMs: 12_480,
      posterUpload,
    });

    it("keeps an original once, byte for byte through its chunks; its clip likewise, whole or in part", async () => {
      const dir = temp.dir();
      const original = randomBytes(5 * MiB + 123);
      const clip = randomBytes(5 * MiB - 7);
      await writeFile(`${dir}/original.mov`, original);
      await writeFile(`${dir}/clip.mp4`, clip);
      const id = "a".repeat(24);
      expect(await store.saveVideoUpload(video(id), `${dir}/original.mov`, new Date(1_000))).toBe(true);
      expect(await store.saveVideoUpload(video(id), `${dir}/original.mov`)).toBe(false);
      expect(await chunkCount(id, "original")).toBe(6);
      const listed = { ...video(id), byteSize: original.byteLength, uploadedAt: new Date(1_000), state: "pending" };
      expect(await store.getVideo(id)).toEqual({
        ...listed,
        progress: 0,
        attempts: 0,
        error: null,
        clip: null,
        readyAt: null,
      });
      expect(await store.listVideos()).toMatchObject([listed]);
      expect(await store.listVideos([id, "b".repeat(24)])).toMatchObject([listed]);
      expect(await store.listVideos([])).toEqual([]);
      expect([await store.pendingVideoCount(), await store.readyVideoCount()]).toEqual([1, 0]);

      const claim = (await store.claimVideo(60_000))!;
      expect(claim).toMatchObject({ id, attempts: 1, progress: 0, leaseMs: 60_000 });
      expect(await store.copyOriginalToFile(claim, `${dir}/copy.mov`)).toBe(true);
      expect((await readFile(`${dir}/copy.mov`)).equals(original)).toBe(true);
      expect(await store.reportVideoProgress(claim, 40, 60_000)).toBe(true);
      expect((await store.getVideo(id))?.progress).toBe(40);
      // The poster frame is a photo upload, encoded as photos are.
      const poster = "f".repeat(24);
      const frame = { contentType: "image/jpeg", width: 1280, height: 720, byteSize: 3, fileName: "poster.jpg" };
      await store.saveUpload({ ...frame, id: poster, original: new Uint8Array([1, 2, 3]), uploadedBy: "encoder" });
      const name = `${"c".repeat(24)}.mp4`;
      expect(await store.finishVideo(claim, clipOutcome(`${dir}/clip.mp4`, name, poster), new Date(5_000))).toBe(true);
      expect(await store.getVideo(id)).toMatchObject({
        state: "ready",
        progress: 100,
        readyAt: new Date(5_000),
        clip: { name, size: clip.byteLength, width: 1280, height: 720, durationMs: 12_480, posterUpload: poster },
      });
      expect(await chunkCount(id, "clip")).toBe(5);
      expect([await store.pendingVideoCount(), await store.readyVideoCount()]).toEqual([0, 1]);
      expect(await store.claimVideo(60_000)).toBeNull();

      expect(await store.videoClip(name)).toEqual({
        name,
        videoId: id,
        size: clip.byteLength,
        contentType: "video/mp4",
      });
      expect(await store.videoClip("d".repeat(24) + ".mp4")).toBeNull();
      expect(await store.copyClipToFile(name, `${dir}/served.mp4`)).toBe(true);
      expect((await readFile(`${dir}/served.mp4`)).equals(clip)).toBe(true);
      expect(await store.copyClipToFile("d".repeat(24) + ".mp4", `${dir}/none.mp4`)).toBe(false);
      const [start, end] = [videoChunkBytes - 10, 2 * videoChunkBytes + 5];
      const parts: Uint8Array[] = [];
      for await (const part of store.clipBytes(name, { start, end })) parts.push(part);
      expect(parts.map((part) => part.byteLength)).toEqual([10, videoChunkBytes, 5]);
      expect(Buffer.concat(parts).equals(clip.subarray(start, end))).toBe(true);

      // Originals are kept after encoding; deleting takes everything.
      expect(await store.copyOriginalToFile(id, `${dir}/again.mov`)).toBe(true);
      expect(await store.deleteVideo(id)).toBe(true);
      expect([await chunkCount(id, "original"), await chunkCount(id, "clip")]).toEqual([0, 0]);
      expect([await store.getVideo(id), await store.videoClip(name), await store.readyVideoCount()]).toEqual([
        null,
        null,
        0,
      ]);
      expect(await store.deleteVideo(id)).toBe(false);
    });

    it("starts over a save that died while receiving; a receiving upload is never claimed", async () => {
      const dir = temp.dir();
      const id = "e".repeat(24);
      const original = randomBytes(2 * MiB + 1);
      await writeFile(`${dir}/original.mov`, original);
      // What a process that died mid-save leaves: a receiving row and some of its chunks (one past the end, too).
      await db.query(
        `INSERT INTO video_uploads (id, file_name, content_type, byte_size, uploaded_at, uploaded_by, state, claim_token,
           created_at) VALUES (?, 'old.mov', 'video/mp4', 0, 1, 'ann', 'receiving', 'dead', 1)`,
        [id],
      );
      for (const seq of [0, 7])
        await db.query(`INSERT INTO video_chunks (video_id, kind, seq, bytes) VALUES (?, 'original', ?, ?)`, [
          id,
          seq,
          randomBytes(100),
        ]);
      expect(await store.claimVideo(60_000)).toBeNull();
      expect((await store.getVideo(id))?.state).toBe("receiving");
      expect(await store.copyOriginalToFile(id, `${dir}/copy.mov`)).toBe(false);
      expect(await store.saveVideoUpload(video(id), `${dir}/original.mov`)).toBe(true);
      expect(await store.getVideo(id)).toMatchObject({
        state: "pending",
        fileName: "IMG_4242.MOV",
        byteSize: 2 * MiB + 1,
      });
      expect(await chunkCount(id, "original")).toBe(3);
      expect(await store.copyOriginalToFile(id, `${dir}/copy.mov`)).toBe(true);
      expect((await readFile(`${dir}/copy.mov`)).equals(original)).toBe(true);
      expect(await store.deleteVideo(id)).toBe(true);
    });

    it("gives two claimers at once different uploads, and the same one never twice", async () => {
      const dir = temp.dir();
      const ids = ["1", "2"].map((digit) => digit.repeat(24));
      for (const id of ids) {
        await writeFile(`${dir}/${id}`, randomBytes(10_000));
        expect(await store.saveVideoUpload(video(id), `${dir}/${id}`)).toBe(true);
      }
      const claims = await Promise.all([store.claimVideo(60_000), store.claimVideo(60_000), store.claimVideo(60_000)]);
      expect(
        claims
          .filter((claim) => claim !== null)
          .map((claim) => claim.id)
          .sort(),
      ).toEqual(ids);
      expect(await store.claimVideo(60_000)).toBeNull();
      for (const id of ids) expect(await store.deleteVideo(id)).toBe(true);
    });

    it("takes over an upload whose lease ran out; the lost claim can neither report, finish nor release", async () => {
      const dir = temp.dir();
      const id = "3".repeat(24);
      await writeFile(`${dir}/original.mov`, randomBytes(10_000));
      await writeFile(`${dir}/clip.mp4`, randomBytes(10_000));
      await store.saveVideoUpload(video(id), `${dir}/original.mov`);
      const start = Date.now();
      const old = (await store.claimVideo(1_000, new Date(start - 5_000)))!;
      const taken = (await store.claimVideo(60_000, new Date(start)))!;
      expect([old.id, taken.id, old.attempts, taken.attempts]).toEqual([id, id, 1, 2]);
      expect(await store.reportVideoProgress(old, 50, 60_000)).toBe(false);
      expect(await store.finishVideo(old, clipOutcome(`${dir}/clip.mp4`, "late.mp4"))).toBe(false);
      expect(await store.finishVideo(old, { error: "late" })).toBe(false);
      expect(await store.releaseVideo(old, new Date(start))).toBe(false);
      expect(await chunkCount(id, "clip")).toBe(0);
      // Progress renews the lease: past the first one, nobody else takes it.
      expect(await store.reportVideoProgress(taken, 40, 60_000, new Date(start + 30_000))).toBe(true);
      expect(await store.claimVideo(60_000, new Date(start + 70_000))).toBeNull();
      expect(await store.getVideo(id)).toMatchObject({ state: "pending", progress: 40 });
      // Released: claimable again from its retry time, from 0 %.
      expect(await store.releaseVideo(taken, new Date(start + 100_000))).toBe(true);
      expect(await store.claimVideo(60_000, new Date(start + 99_000))).toBeNull();
      expect(await store.claimVideo(60_000, new Date(start + 100_000))).toMatchObject({ id, attempts: 3, progress: 0 });
      expect(await store.deleteVideo(id)).toBe(true);
    });

    it("keeps nothing of a clip whose claim was lost while it was being written", async () => {
      const dir = temp.dir();
      const id = "4".repeat(24);
      const clip = randomBytes(4 * MiB + 5);
      await writeFile(`${dir}/original.mov`, randomBytes(10_000));
      await writeFile(`${dir}/late.mp4`, randomBytes(4 * MiB));
      await writeFile(`${dir}/clip.mp4`, clip);
      await store.saveVideoUpload(video(id), `${dir}/original.mov`);
      const start = Date.now();
      const old = (await store.claimVideo(1_000, new Date(start - 60_000)))!;
      let taken: Awaited<ReturnType<InboxStore["claimVideo"]>> = null;
      let writtenBefore = 0;
      // Two chunks of the old claim's clip are in when another instance takes the upload over.
      beforeClipChunk = {
        seq: 2,
        run: async () => {
          writtenBefore = await chunkCount(id, "clip");
          taken = await store.claimVideo(60_000, new Date(start));
        },
      };
      expect(await store.finishVideo(old, clipOutcome(`${dir}/late.mp4`, "late.mp4"), new Date(start - 60_000))).toBe(
        false,
      );
      expect(writtenBefore).toBe(2);
      expect(taken).toMatchObject({ id, attempts: 2 });
      expect(await chunkCount(id, "clip")).toBe(0);
      expect(await store.videoClip("late.mp4")).toBeNull();
      expect(await store.finishVideo(taken!, clipOutcome(`${dir}/clip.mp4`, "new.mp4"))).toBe(true);
      expect(await store.copyClipToFile("new.mp4", `${dir}/served.mp4`)).toBe(true);
      expect((await readFile(`${dir}/served.mp4`)).equals(clip)).toBe(true);
      expect(await store.deleteVideo(id)).toBe(true);
    });

    it("retries a failed upload from zero attempts, and only a failed one", async () => {
      const dir = temp.dir();
      const id = "5".repeat(24);
      await writeFile(`${dir}/original.mov`, randomBytes(10_000));
      await store.saveVideoUpload(video(id), `${dir}/original.mov`);
      expect(await store.retryVideo(id)).toBe(false);
      const claim = (await store.claimVideo(60_000))!;
      expect(await store.finishVideo(claim, { error: "ffmpeg: moov atom not found" })).toBe(true);
      expect(await store.getVideo(id)).toMatchObject({ state: "failed", error: "ffmpeg: moov atom not found" });
      expect([await store.pendingVideoCount(), await store.claimVideo(60_000)]).toEqual([0, null]);
      expect(await store.retryVideo(id)).toBe(true);
      expect(await store.getVideo(id)).toMatchObject({ state: "pending", attempts: 0, error: null });
      expect(await store.pendingVideoCount()).toBe(1);
      expect(await store.claimVideo(60_000)).toMatchObject({ id, attempts: 1 });
      expect(await store.deleteVideo(id)).toBe(true);
    });

    it("saves and copies out a 60 MiB clip without the process's memory growing by its size", async () => {
      const dir = temp.dir();
      const size = 60 * MiB;
      const hash = await randomFile(`${dir}/big.mov`, size);
      const id = hash.slice(0, 24);
      const saving = await rssGrowth(async () => {
        expect(await store.saveVideoUpload(video(id), `${dir}/big.mov`)).toBe(true);
      });
      const copying = await rssGrowth(async () => {
        expect(await store.copyOriginalToFile(id, `${dir}/copy.mov`)).toBe(true);
      });
      expect(await fileHash(`${dir}/copy.mov`)).toBe(hash);
      expect((await store.getVideo(id))?.byteSize).toBe(size);
      const grew = `RSS grew by ${(saving / MiB).toFixed(1)} MiB saving, ${(copying / MiB).toFixed(1)} MiB copying`;
      expect(Math.max(saving, copying), grew).toBeLessThan(40 * MiB);
      expect(await store.deleteVideo(id)).toBe(true);
    }, 30_000);
  });
}
