import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { open, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { ffprobe, firstLine, inspect, type Inspection } from "./inspect.server";
import { videoLimits, type VideoEncodeFailure } from "./limits";

/**
 * The site's one video transcoder (docs/decisions/0040-ffmpeg-for-video.md): a phone clip made into a 720p H.264 + AAC
 * MP4 with its index at the front, and a PNG poster frame, by Debian's ffmpeg. Only the picture and the sound are
 * kept: the phone's location, make, model, software, dates, chapters and extra tracks are left behind, and the
 * result is checked for them (checkStripped). One clip at a time per process, at the lowest CPU priority, with
 * bounded threads, memory and time.
 */

export interface EncodedClip {
  clipPath: string;
  /** A frame about 1 s in (10 % of the way for clips under 10 s), at the clip's size, PNG without metadata. */
  posterPath: string;
  width: number;
  height: number;
  durationMs: number;
  byteSize: number;
}

export interface EncodeOptions {
  /** How far the clip's encoding is, 0 to 1 (1 once the poster is written too). */
  onProgress?(fraction: number): void;
  /** Aborting kills ffmpeg and rejects with the signal's reason (an AbortError). */
  signal?: AbortSignal;
  /** What the clip and its poster may take together (videoLimits.encodeTimeoutMs by default). */
  timeoutMs?: number;
}

export class VideoEncodeFailed extends Error {
  constructor(
    readonly reason: VideoEncodeFailure,
    readonly detail: string,
  ) {
    super(`video encoding failed (${reason}): ${detail}`);
    this.name = "VideoEncodeFailed";
  }
}

/**
 * The output's settings (the ADR gives the measurements). veryfast: on 2 shared cores a 60-s 1080p clip takes about
 * 70 s of CPU; slower presets buy little at 2.5 Mbit/s for 720p. Two threads for the decoder and two for x264: more
 * would only take the cores from the site's requests, and every frame thread holds its own frames. A lookahead of 10
 * frames (veryfast's own) keeps x264's queue of 720p frames small.
 */
export const videoSettings = {
  threads: 2,
  preset: "veryfast",
  lookahead: 10,
  videoBitrate: "2500k",
  bufferSize: "5000k",
  audioBitrate: "128k",
  maxFps: 60,
} as const;

/**
 * What runs ffmpeg: at the lowest CPU priority, so a clip's encoding never slows the pages, and with a parent-death
 * signal, so a server killed with -9 takes its ffmpeg along (else it would encode on, orphaned, up to its time cap,
 * while another instance takes the clip over). Both exec, so the PID is ffmpeg's. util-linux is essential in Debian.
 */
const launcher = [
  ...(existsSync("/usr/bin/setpriv") ? ["/usr/bin/setpriv", "--pdeathsig", "KILL", "--"] : []),
  ...(existsSync("/usr/bin/nice") ? ["/usr/bin/nice", "-n", "19"] : []),
];

/** How much of ffmpeg's error output is kept: its first lines (the error's cause) and its last 8 KB. */
const stderrHeadChars = 2048;
const stderrTailChars = 8192;

let queue: Promise<unknown> = Promise.resolve();

/**
 * Encodes `inputPath` into `outDir`/clip.mp4 and `outDir`/poster.png. Refuses what inspectVideo refuses (VideoRefused);
 * fails with VideoEncodeFailed on a time-out or damage found while decoding; plain Errors are the server's own faults
 * (ffmpeg missing, disk full, ffmpeg killed from outside). Calls in one process wait for each other.
 */
export function encodeClip(inputPath: string, outDir: string, options: EncodeOptions = {}): Promise<EncodedClip> {
  const turn = queue.then(() => encodeNow(inputPath, outDir, options));
  queue = turn.catch(() => undefined);
  return turn;
}

async function encodeNow(inputPath: string, outDir: string, options: EncodeOptions): Promise<EncodedClip> {
  options.signal?.throwIfAborted();
  const inspection = await inspect(inputPath);
  const { header } = inspection;
  const timeoutMs = options.timeoutMs ?? videoLimits.encodeTimeoutMs;
  const run = { inputPath, deadline: Date.now() + timeoutMs, timeoutMs, signal: options.signal };
  const clipPath = join(outDir, "clip.mp4");
  const posterPath = join(outDir, "poster.png");
  let reported = 0;
  const report = (fraction: number) => {
    if (fraction <= reported) return;
    reported = fraction;
    options.onProgress?.(fraction);
  };
  try {
    await runFfmpeg(clipArgs(inputPath, clipPath, inspection), {
      ...run,
      onOutTimeUs: (us) => report(Math.min(0.99, us / 1000 / header.durationMs)),
    });
    const encoded = await ffprobe(clipPath);
    const video = encoded.streams?.find((s) => s.codec_type === "video");
    const seconds = Number(encoded.format?.duration);
    if (video?.codec_name !== "h264" || !video.width || !video.height || !Number.isFinite(seconds))
      throw new Error("ffmpeg wrote no H.264 clip");
    await checkStripped(clipPath, encoded, inspection);

    const at = Math.min(1, header.durationMs / 10_000);
    await runFfmpeg(posterArgs(inputPath, posterPath, inspection, at, video.width, video.height), run);
    const poster = await stat(posterPath).catch(() => undefined);
    if (!poster?.size) throw new VideoEncodeFailed("damaged", `no picture ${at.toFixed(1)} s in`);
    report(1);
    return {
      clipPath,
      posterPath,
      width: video.width,
      height: video.height,
      durationMs: Math.round(seconds * 1000),
      byteSize: (await stat(clipPath)).size,
    };
  } catch (error) {
    await Promise.all([rm(clipPath, { force: true }), rm(posterPath, { force: true })]);
    throw error;
  }
}

function clipArgs(input: string, output: string, { header, videoIndex, audioIndex }: Inspection): string[] {
  const s = videoSettings;
  const height = videoLimits.outputMaxHeight;
  return [
    ...["-hide_banner", "-nostdin", "-v", "error", "-nostats", "-progress", "pipe:1"],
    // Any decoding error stops the run: a clip with damage is refused, not served with grey blocks.
    "-xerror",
    ...["-threads", String(s.threads), "-i", input],
    // Only the picture and the sound: no data, subtitle or timecode tracks, no chapters, no tags at all.
    ...["-map", `0:${videoIndex}`],
    ...(audioIndex === undefined ? ["-an"] : ["-map", `0:${audioIndex}`]),
    ...["-map_metadata", "-1", "-map_chapters", "-1"],
    // ffmpeg turns the picture upright itself (autorotate) and then writes no rotation; at most 720 high, never
    // upscaled, even sides; 8-bit 4:2:0, the only H.264 every browser plays (a 10-bit HEVC would give High 10).
    ...["-vf", `scale=w=-2:h='trunc(min(${height},ih)/2)*2',format=yuv420p`, "-fpsmax", String(s.maxFps)],
    ...["-c:v", "libx264", "-preset", s.preset, "-profile:v", "high", "-rc-lookahead", String(s.lookahead)],
    ...["-b:v", s.videoBitrate, "-maxrate", s.videoBitrate, "-bufsize", s.bufferSize, "-threads", String(s.threads)],
    // x264 writes its name, version and options into the first frame (an SEI unit): dropped. The compressor name
    // ffmpeg puts in the sample description ("Lavc libx264") is replaced by a blank.
    ...["-bsf:v", "filter_units=remove_types=6", "-metadata:s:v:0", "encoder= "],
    ...(header.hasAudio ? ["-c:a", "aac", "-b:a", s.audioBitrate, "-ac", "2"] : []),
    // No encoder name or version (Lavf, Lavc) and no creation time in the file.
    ...["-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact"],
    ...["-movflags", "+faststart", "-f", "mp4", "-y", output],
  ];
}

function posterArgs(
  input: string,
  output: string,
  { videoIndex }: Inspection,
  atSeconds: number,
  width: number,
  height: number,
): string[] {
  return [
    ...["-hide_banner", "-nostdin", "-v", "error", "-nostats", "-xerror"],
    ...["-threads", String(videoSettings.threads), "-ss", atSeconds.toFixed(3), "-i", input],
    ...["-map", `0:${videoIndex}`, "-frames:v", "1", "-vf", `scale=${width}:${height},format=rgb24`],
    ...["-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact"],
    ...["-c:v", "png", "-f", "image2", "-update", "1", "-y", output],
  ];
}

interface Run {
  inputPath: string;
  deadline: number;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  onOutTimeUs?(microseconds: number): void;
}

/** Runs ffmpeg to its end; kills it (SIGKILL) at the deadline or on abort, and settles only once it has exited. */
function runFfmpeg(args: string[], run: Run): Promise<void> {
  return new Promise((resolve, reject) => {
    const [command, ...rest] = [...launcher, "ffmpeg", ...args] as [string, ...string[]];
    const child = spawn(command, rest, { stdio: ["ignore", "pipe", "pipe"] });
    let stopped: Error | undefined;
    let failedToStart: Error | undefined;
    const stop = (error: Error) => {
      stopped ??= error;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(
      () => stop(new VideoEncodeFailed("timeout", `ffmpeg ran over ${Math.round(run.timeoutMs / 1000)} s`)),
      Math.max(0, run.deadline - Date.now()),
    );
    const onAbort = () => stop(abortError(run.signal));
    run.signal?.addEventListener("abort", onAbort, { once: true });
    if (run.signal?.aborted) onAbort();

    let head = "";
    let tail = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (head.length < stderrHeadChars) head += chunk.slice(0, stderrHeadChars - head.length);
      tail = (tail + chunk).slice(-stderrTailChars);
    });
    // -progress writes "key=value" lines; only out_time_us is used.
    let partial = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const lines = (partial + chunk).split("\n");
      partial = (lines.pop() ?? "").slice(-256);
      for (const line of lines) {
        const match = /^out_time_us=(\d+)/.exec(line);
        if (match) run.onOutTimeUs?.(Number(match[1]));
      }
    });

    child.on("error", (error) => (failedToStart = error));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      run.signal?.removeEventListener("abort", onAbort);
      if (stopped) return reject(stopped);
      if (failedToStart) return reject(new Error(`ffmpeg could not start: ${failedToStart.message}`));
      if (code === 0) return resolve();
      // The launcher's own exit code when the command is missing.
      if (code === 127 && launcher.length > 0)
        return reject(new Error("ffmpeg is not installed (Debian package ffmpeg)"));
      if (signal) return reject(new Error(`ffmpeg was killed by ${signal} (out of memory?)`));
      const cause = firstLine(head, run.inputPath).replace(/ @ 0x[0-9a-f]+\]/, "]");
      // The server's faults, not the clip's: worth another try later.
      if (/No space left on device|Cannot allocate memory|Permission denied/.test(tail))
        return reject(new Error(`ffmpeg failed: ${cause}`));
      reject(new VideoEncodeFailed("damaged", cause || `ffmpeg exited with ${code}`));
    });
  });
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException("The video's encoding was aborted", "AbortError");
}

/** The tags an encoded clip may carry: the file's brands and each track's language, handler and blank encoder. */
const structuralTags = new Set([
  "major_brand",
  "minor_version",
  "compatible_brands",
  "language",
  "handler_name",
  "vendor_id",
  "encoder",
]);

/**
 * What ffmpeg and x264 name themselves with, when not told otherwise; the longer forms are the ones looked for in the
 * media data (x264's SEI, the AAC encoder's "Lavc59.37.100").
 */
const toolNames = ["Lavf", "Lavc", "x264", "FFmpeg", "x264 - core", "Lavc5", "Lavc6", "Lavf5", "Lavf6"];

/**
 * Checks, after encoding, that nothing of the phone's and no tool's name reached the clip: by ffprobe (its tags,
 * rotation) and by its bytes (the original's tag values, the tools' names). Failing is a bug of this module, so it
 * throws a plain Error rather than serve the clip.
 */
async function checkStripped(path: string, probe: Awaited<ReturnType<typeof ffprobe>>, inspection: Inspection) {
  const tagSets = [probe.format?.tags, ...(probe.streams ?? []).map((s) => s.tags)];
  const kept = new Set<string>();
  for (const tags of tagSets)
    for (const [key, value] of Object.entries(tags ?? {})) {
      if (!structuralTags.has(key)) throw new Error(`the encoded clip carries the tag ${key}`);
      if (key === "encoder" && value.trim() !== "") throw new Error(`the encoded clip names its encoder: ${value}`);
      kept.add(value);
    }
  for (const stream of probe.streams ?? [])
    if (stream.side_data_list?.some((d) => d.side_data_type === "Display Matrix"))
      throw new Error("the encoded clip carries a rotation");
  if (probe.streams?.length !== (inspection.header.hasAudio ? 2 : 1))
    throw new Error(`the encoded clip has ${probe.streams?.length ?? 0} streams`);

  // The original's own values (a handler name the output shares, like "SoundHandler", is no leak); four bytes or
  // more, so short codes like "und" are skipped.
  const needles = [...new Set([...inspection.tagValues.map((v) => v.trim()), ...toolNames])].filter(
    (v) => v.length >= 4 && !kept.has(v),
  );
  const found = await bytesContain(path, needles);
  if (found !== undefined) throw new Error(`the encoded clip's bytes contain "${found}"`);
}

/**
 * The first needle found in the file's bytes. Every box but the media data is searched for them all; the media data
 * (compressed, so random-looking) only for needles of 5 bytes or more, so a 4-byte needle matching by chance in
 * 28 MB of it (about 1 in 150) never fails a clip. Read in 1-MB pieces, so memory stays small.
 */
export async function bytesContain(path: string, needles: string[]): Promise<string | undefined> {
  const file = await open(path, "r");
  try {
    const size = (await file.stat()).size;
    const header = Buffer.alloc(16);
    for (let at = 0; at + 8 <= size;) {
      await file.read(header, 0, 16, at);
      let length = header.readUInt32BE(0);
      const type = header.toString("latin1", 4, 8);
      if (length === 1) length = Number(header.readBigUInt64BE(8));
      else if (length === 0) length = size - at;
      if (length < 8) length = size - at;
      const end = Math.min(size, at + length);
      const inRange = type === "mdat" ? needles.filter((n) => Buffer.byteLength(n) >= 5) : needles;
      const found = await searchRange(file, at, end, inRange);
      if (found !== undefined) return found;
      at = end;
    }
    return undefined;
  } finally {
    await file.close();
  }
}

async function searchRange(
  file: Awaited<ReturnType<typeof open>>,
  start: number,
  end: number,
  needles: string[],
): Promise<string | undefined> {
  if (needles.length === 0) return undefined;
  const patterns = needles.map((n) => ({ needle: n, bytes: Buffer.from(n) }));
  const overlap = Math.max(...patterns.map((p) => p.bytes.length)) - 1;
  const piece = Buffer.alloc(1024 * 1024 + overlap);
  for (let at = start; at < end;) {
    const want = Math.min(piece.length, end - at);
    const { bytesRead } = await file.read(piece, 0, want, at);
    if (bytesRead === 0) break;
    const view = piece.subarray(0, bytesRead);
    for (const { needle, bytes } of patterns) if (view.includes(bytes)) return needle;
    if (at + bytesRead >= end) break;
    at += Math.max(1, bytesRead - overlap);
  }
  return undefined;
}
