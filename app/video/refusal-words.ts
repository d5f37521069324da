import { videoEncodingWords } from "~/wording/video-encoding";
import { videoLimits, type VideoEncodeFailure, type VideoRefusal } from "./limits";

/**
 * The owner's sentence for a clip that was refused (inspect.server.ts) or could not be encoded (encode.server.ts),
 * from the reason and the detail the checks give ("91000 ms", "4200 x 2400"). Type-only imports of those modules, so
 * the Work page's code can use it too.
 */

export function videoRefusalWords({ reason, detail }: { reason: VideoRefusal; detail: string }): string {
  const words = videoEncodingWords;
  switch (reason) {
    case "not-video":
      return words.notVideo;
    case "no-video-stream":
      return words.noVideoStream;
    case "too-long":
      return words.tooLong(
        Number(/^(\d+) ms$/.exec(detail)?.[1] ?? videoLimits.maxDurationMs),
        videoLimits.maxDurationMs,
      );
    case "too-large-frame": {
      const [, width = "0", height = "0"] = /^(\d+) x (\d+)$/.exec(detail) ?? [];
      return words.tooLargeFrame(Number(width), Number(height));
    }
    case "no-index":
      return words.noIndex;
    default:
      return words.damaged;
  }
}

export function videoFailureWords({ reason }: { reason: VideoEncodeFailure }, timeoutMs: number): string {
  return reason === "timeout" ? videoEncodingWords.timeout(timeoutMs) : videoEncodingWords.damaged;
}
