/**
 * Why an uploaded video clip was refused or could not be made ready for the site, as the owner sees it beside the
 * clip: one sentence per reason of app/video/limits.ts's VideoRefusal and VideoEncodeFailure.
 */

/** "45 s", "1 min 31 s", "2 min". */
const length = (ms: number) => {
  const seconds = Math.round(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (minutes === 0) return `${rest} s`;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
};

export const videoEncodingWords = {
  notVideo:
    "This file is not a video (whatever its name says: it may be a zip archive, a web page or a photo). Please choose an MP4, MOV or WebM clip.",
  noVideoStream:
    "This file has no picture, only sound (or nothing at all). Please choose the video clip itself, as the phone recorded it.",
  tooLong: (durationMs: number, maxDurationMs: number) =>
    `This clip is ${length(durationMs)} long; clips can be at most ${Math.round(maxDurationMs / 1000)} seconds. Trim it on the phone (Edit, then drag the ends) and upload it again.`,
  tooLargeFrame: (width: number, height: number) =>
    `This clip is larger than 4K (${width} x ${height} pixels). Please record it at 4K or less (1080p is plenty for the site), or export a smaller copy, and upload it again.`,
  noIndex:
    "This clip's index is missing, which happens when a copy is interrupted. Please copy it from the phone again and upload it again.",
  damaged:
    "This clip is damaged (part of it cannot be read), so it cannot be shown. Please copy it from the phone again and upload it again.",
  timeout: (timeoutMs: number) =>
    `Encoding took longer than ${Math.round(timeoutMs / 60_000)} minutes and was stopped. Please upload a shorter clip, or one recorded at 1080p instead of 4K.`,
  /** The encoding was cut off three times (servers restarted or died while encoding it). */
  interrupted:
    "Encoding this clip was interrupted three times (the server restarted while encoding it). Press Retry to try again.",
  /** The upload was removed while it waited. */
  gone: "This clip's upload is gone. Please upload it again.",
  /** A fault of the server (ffmpeg missing, disk full), not of the clip: it is tried again later. */
  failed: (detail: string) =>
    `This clip could not be made ready for the site (${detail}). It will be tried again; if this stays, tell the site's maintainer.`,
};
