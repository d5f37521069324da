import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { backgroundLoop, loopSlot, type BackgroundLoop } from "~/background-loop.server";
import { log as logger } from "~/log.server";
import { uploadId } from "~/photos/upload.server";
import { posterKey } from "~/site-content/photo-renditions.server";
import type { PhotoStore } from "~/store/photos.types";
import type { ClaimedVideo, VideoStore } from "~/store/videos.types";
import { encodeClip, VideoEncodeFailed } from "~/video/encode.server";
import { inspectVideo, VideoRefused } from "~/video/inspect.server";
import { videoFailureWords, videoRefusalWords } from "~/video/refusal-words";
import { videoEncodingWords } from "~/wording/video-encoding";
import { wakePhotoEncoder } from "./photo-encoder-loop";
import { scratchFolder } from "~/scratch.server";

/**
 * The process's background video encoder (docs/work.md): like the photo encoder, it claims ONE pending clip at a time
 * (any instance's upload; the database gives each to one instance under a lease), copies its original from the
 * database to a temporary file, judges it again, and has ffmpeg make the web clip and its poster frame at low CPU
 * priority (app/video/encode.server.ts). Progress renews the lease; the clip is stored in chunks and the poster goes to
 * the photo encoder as an upload. A process that dies mid-encode leaves its claim to run out and another instance
 * (or the next start) takes it over; a clip is given up after three interrupted attempts.
 */

const pollMs = 5_000;
const maxAttempts = 3;
/** How long an encode may run before it is stopped and the clip marked failed (a 90-s 4K HEVC clip needs far less). */
const encodeTimeoutMs = 15 * 60_000;
/** How long the shutdown waits for the clip being encoded before leaving its claim to run out. */
const stopWaitMs = 3_000;
/** Progress is written (and the lease renewed) at most this often. */
const progressEveryMs = 1_000;

const running = loopSlot();
const log = (message: string) => logger.info(`video: ${message}`);

class ClaimLost extends Error {}

/** The first 24 hex digits of the clip's SHA-256: its file name, so its address never serves other bytes. */
async function clipNameOf(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return `${hash.digest("hex").slice(0, 24)}.mp4`;
}

export interface VideoEncoderOptions {
  leaseMs?: number;
  timeoutMs?: number;
}

export function startVideoEncoder(store: VideoStore & PhotoStore, options: VideoEncoderOptions = {}): void {
  running.start(() => encoderLoop(store, options));
}

function encoderLoop(
  store: VideoStore & PhotoStore,
  { leaseMs = 60_000, timeoutMs = encodeTimeoutMs }: VideoEncoderOptions,
): BackgroundLoop {
  let failing = false;

  async function settle(claim: ClaimedVideo, outcome: Parameters<VideoStore["finishVideo"]>[1]) {
    if (!(await store.finishVideo(claim, outcome))) log(`${claim.id}: another instance took it over`);
  }

  /** The poster frame stored as a photo upload and its rendition asked for: the photo encoder makes AVIF, WebP, JPEG. */
  async function storePoster(claim: ClaimedVideo, posterPath: string, size: { width: number; height: number }) {
    const bytes = new Uint8Array(await readFile(posterPath));
    const id = uploadId(bytes);
    await store.saveUpload({
      id,
      original: bytes,
      contentType: "image/png",
      width: size.width,
      height: size.height,
      byteSize: bytes.byteLength,
      fileName: "poster.png",
      uploadedBy: claim.uploadedBy,
    });
    await store.requestRendition(posterKey(id), id, "poster", { x: 0.5, y: 0.5 });
    return id;
  }

  async function encode(claim: ClaimedVideo, stopping: AbortSignal): Promise<void> {
    if (claim.attempts > maxAttempts) {
      log(`${claim.id}: interrupted ${maxAttempts} times; given up`);
      return settle(claim, { error: videoEncodingWords.interrupted });
    }
    const started = Date.now();
    const dir = await scratchFolder("video-");
    const abort = new AbortController();
    const stop = () => abort.abort();
    stopping.addEventListener("abort", stop);
    try {
      const original = join(dir, "original");
      if (!(await store.copyOriginalToFile(claim, original))) return settle(claim, { error: videoEncodingWords.gone });
      await inspectVideo(original);
      let lastReport = 0;
      let reporting: Promise<unknown> = Promise.resolve();
      const encoded = await encodeClip(original, dir, {
        signal: abort.signal,
        timeoutMs,
        onProgress: (fraction) => {
          const now = Date.now();
          if (now - lastReport < progressEveryMs) return;
          lastReport = now;
          const percent = Math.min(99, Math.floor(fraction * 100));
          reporting = reporting
            .then(() => store.reportVideoProgress(claim, percent, leaseMs))
            .then((held) => {
              if (!held) {
                lostClaim = true;
                abort.abort();
              }
            });
        },
      });
      await reporting;
      if (lostClaim) throw new ClaimLost();
      const posterUpload = await storePoster(claim, encoded.posterPath, encoded);
      await settle(claim, {
        clipPath: encoded.clipPath,
        clipName: await clipNameOf(encoded.clipPath),
        width: encoded.width,
        height: encoded.height,
        durationMs: encoded.durationMs,
        posterUpload,
      });
      wakePhotoEncoder();
      log(
        `${claim.id}: ready (${encoded.width}x${encoded.height}, ${encoded.byteSize} bytes, ${Date.now() - started} ms)`,
      );
    } catch (error) {
      if (error instanceof ClaimLost || lostClaim) return log(`${claim.id}: another instance took it over`);
      if (stopping.aborted) {
        await store.releaseVideo(claim, new Date());
        return;
      }
      if (error instanceof VideoRefused) {
        log(`${claim.id}: refused (${error.message})`);
        return settle(claim, { error: videoRefusalWords(error) });
      }
      if (error instanceof VideoEncodeFailed) {
        log(`${claim.id}: failed (${error.message})`);
        return settle(claim, { error: videoFailureWords(error, timeoutMs) });
      }
      const detail = String((error as Error)?.message ?? error).split("\n")[0]!;
      logger.error(`video: ${claim.id}: attempt ${claim.attempts} failed: ${detail}`);
      if (claim.attempts >= maxAttempts) return settle(claim, { error: videoEncodingWords.failed(detail) });
      await store.releaseVideo(claim, new Date(Date.now() + 10_000 * claim.attempts));
    } finally {
      stopping.removeEventListener("abort", stop);
      await rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  }

  let lostClaim = false;
  const loop = backgroundLoop({
    intervalMs: pollMs,
    pass: async (stopping) => {
      let claim: ClaimedVideo | null = null;
      lostClaim = false;
      try {
        claim = await store.claimVideo(leaseMs);
        if (failing) log("the database answers again");
        failing = false;
        if (claim) await encode(claim, stopping);
      } catch (error) {
        if (!failing) logger.error(`video: cannot encode: ${(error as Error).message}`);
        failing = true;
      }
      return claim ? 0 : pollMs;
    },
    onError: (error) => logger.error(`video: cannot encode: ${(error as Error).message}`),
    stopWaitMs,
  });
  loop.start();
  return loop;
}

/** After an upload or a retry here: look for pending clips now rather than at the next poll. */
export const wakeVideoEncoder = running.wake;

export const stopVideoEncoder = running.stop;
