import sharp from "sharp";
import { backgroundLoop, loopSlot, type BackgroundLoop } from "~/background-loop.server";
import { photoEncodingWords } from "~/wording/photo-encoding";
import { encodeRendition, PhotoRefused } from "~/photos/encoder.server";
import { decodeCost, photoLimits, pixelHeader } from "~/photos/limits";
import { photoTurn } from "~/photos/turns.server";
import { collectGarbage } from "~/store/memory.server";
import type { ClaimedRendition } from "~/store/photos.types";
import type { PhotoStore } from "~/store/photos.types";
import { log as logger } from "~/log.server";

/**
 * The process's background photo encoder (docs/photos.md): started when the inbox database opens, it claims ONE
 * pending rendition at a time (any instance's upload; the database gives each to one instance), encodes it with the
 * site's one encoder, stores each file as it is made (the owner's page counts them) and marks it ready with its entry
 * or failed with the reason spelled out. Woken at once by an upload here, it also looks every 2 s for other instances'.
 * A process that dies while encoding leaves its claim to run out; another instance (or the next start) takes it over,
 * and nothing is served until a rendition is ready.
 */

const pollMs = 2_000;
/** Claims of one rendition before it is given up: unexpected errors, or holders that died or stopped on it. */
const maxAttempts = 3;
/** How long the shutdown waits for the file being encoded before leaving the claim to run out. */
const stopWaitMs = 4_000;

/**
 * sharp in the server process: one libvips thread per operation and no operation cache, so encoding a 12-megapixel
 * photo stays within the memory budget (256 MiB for the whole process) while the pages are served.
 */
export function limitSharp(): void {
  sharp.concurrency(1);
  sharp.cache(false);
}

/** Stopping while a file was being encoded: the claim is let go for the next holder. */
class Stopped extends Error {}
/** Another instance took the claim over (this one was too slow): its work is the one that counts. */
class ClaimLost extends Error {}

const running = loopSlot();

const log = (message: string) => logger.info(`photos: ${message}`);

/** The reason spelled out for a photo the encoder refused. */
function refusedWords(error: PhotoRefused): string {
  if (error.reason === "not-image") return photoEncodingWords.notImage;
  if (error.reason === "too-large" && error.width) return photoEncodingWords.tooLarge(error.width, error.height);
  return photoEncodingWords.damaged;
}

export function startPhotoEncoder(store: PhotoStore, { leaseMs = 60_000 }: { leaseMs?: number } = {}): void {
  running.start(() => encoderLoop(store, leaseMs));
}

function encoderLoop(store: PhotoStore, leaseMs: number): BackgroundLoop {
  let failing = false;

  async function settle(claim: ClaimedRendition, result: { entry: string } | { error: string }) {
    if (!(await store.finishRendition(claim, result))) log(`${claim.key}: another instance took it over`);
  }

  async function encode(claim: ClaimedRendition, stopping: AbortSignal): Promise<void> {
    if (claim.attempts > maxAttempts) {
      log(`${claim.key}: interrupted ${maxAttempts} times; given up`);
      return settle(claim, { error: photoEncodingWords.interrupted });
    }
    const started = Date.now();
    let files = 0;
    try {
      // Uploads are checked for this before they are stored; one stored before the limit existed is refused here.
      const cost = decodeCost(pixelHeader(await sharp(claim.original, { limitInputPixels: false }).metadata()));
      if (cost.bytes > photoLimits.maxDecodeBytes) {
        log(`${claim.key}: upload ${claim.uploadId} refused (decoding it would hold ${cost.bytes} bytes)`);
        return settle(claim, { error: photoEncodingWords.tooCostly(cost.bytes, photoLimits.maxDecodeBytes) });
      }
      const entry = await encodeRendition(
        claim.original,
        claim.shape,
        claim.focus,
        async (file, total) => {
          if (stopping.aborted) throw new Stopped();
          if (!(await store.addRenditionFile(claim, file, total, leaseMs))) throw new ClaimLost();
          files++;
        },
        {
          // The original (up to 25 MB) is given back before the AV1 encoder's 50 MB are taken: together with the
          // server's own memory they came within a few MiB of the 256 MiB budget.
          afterDecode: () => {
            claim.original = new Uint8Array(0);
            collectGarbage();
          },
        },
      );
      await settle(claim, { entry: JSON.stringify(entry) });
      log(
        `${claim.key}: ${claim.shape} of upload ${claim.uploadId} ready (${files} files, ${Date.now() - started} ms)`,
      );
    } catch (error) {
      if (error instanceof ClaimLost) return log(`${claim.key}: another instance took it over`);
      if (error instanceof Stopped) {
        await store.releaseRendition(claim, new Date());
        return;
      }
      if (error instanceof PhotoRefused) {
        log(`${claim.key}: upload ${claim.uploadId} refused (${error.message})`);
        return settle(claim, { error: refusedWords(error) });
      }
      const detail = String((error as Error)?.message ?? error).split("\n")[0]!;
      logger.error(`photos: ${claim.key}: attempt ${claim.attempts} failed: ${detail}`);
      if (claim.attempts >= maxAttempts) return settle(claim, { error: photoEncodingWords.failed(detail) });
      await store.releaseRendition(claim, new Date(Date.now() + 10_000 * claim.attempts));
    }
  }

  const loop = backgroundLoop({
    intervalMs: pollMs,
    pass: async (stopping) => {
      let claim: ClaimedRendition | null = null;
      try {
        // In the process's photo turn (app/photos/turns.server.ts): an upload being checked and a rendition being
        // encoded never decode side by side; claimed in the turn, so no claim runs out while it waits.
        await photoTurn(
          async () => {
            claim = await store.claimRendition(leaseMs);
            if (failing) log("the database answers again");
            failing = false;
            if (claim) await encode(claim, stopping);
          },
          // A collection after each photo encoded: the original (25 MB at most), the working copy and the files are
          // garbage then. Not after a poll that found nothing: an idle server would collect every 2 s.
          { queueLimit: false, release: () => claim !== null },
        );
      } catch (error) {
        // The database is down (or went away mid-encode): the claim runs out and is taken again later.
        if (!failing) logger.error(`photos: cannot encode: ${(error as Error).message}`);
        failing = true;
      }
      // One encoded: look for the next at once.
      return claim ? 0 : pollMs;
    },
    onError: (error) => logger.error(`photos: cannot encode: ${(error as Error).message}`),
    // A file being encoded cannot be interrupted: wait a little for it, then leave its claim to run out.
    stopWaitMs,
  });
  loop.start();
  return loop;
}

/** After an upload or a publish here: look for pending renditions now rather than at the next poll. */
export const wakePhotoEncoder = running.wake;

export const stopPhotoEncoder = running.stop;
