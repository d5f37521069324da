import { execFile } from "node:child_process";
import { fileTypeFromFile } from "file-type";
import { videoLimits, type VideoContentType, type VideoRefusal } from "./limits";

/**
 * What an uploaded clip is, judged by its bytes (never its name or the browser's type): its magic bytes first
 * (file-type), then ffprobe's reading of its container and streams. A file that cannot become a portfolio clip is
 * refused with a reason the owner's words name (app/wording/video-encoding.ts).
 */

export interface VideoHeader {
  contentType: VideoContentType;
  /** The container, as file-type names it: "mp4", "mov" or "webm". */
  container: string;
  /** The first video stream's codec, as ffprobe names it: "h264", "hevc", "vp9", "vp8", "av1"… */
  videoCodec: string;
  /** The picture as shown, the phone's rotation applied. */
  width: number;
  height: number;
  durationMs: number;
  hasAudio: boolean;
}

export class VideoRefused extends Error {
  constructor(
    readonly reason: VideoRefusal,
    readonly detail: string,
  ) {
    super(`video refused (${reason}): ${detail}`);
    this.name = "VideoRefused";
  }
}

/** ffprobe gets this long: reading a header takes well under a second, even on a busy machine. */
const probeTimeoutMs = 20_000;
/** ffprobe's JSON for a clip is a few KB; a file with thousands of streams is not a phone clip. */
const probeMaxOutputBytes = 1024 * 1024;

/**
 * What file-type may say for a clip. Audio-only MP4/M4A and WebM are let through to ffprobe, so the owner hears "no
 * picture, only sound" instead of "not a video"; they are refused there, having no video stream.
 */
const containers: Record<string, { contentType: VideoContentType; container: string }> = {
  "video/mp4": { contentType: "video/mp4", container: "mp4" },
  "video/quicktime": { contentType: "video/quicktime", container: "mov" },
  "video/webm": { contentType: "video/webm", container: "webm" },
  "audio/mp4": { contentType: "video/mp4", container: "mp4" },
  "audio/x-m4a": { contentType: "video/mp4", container: "mp4" },
  "audio/webm": { contentType: "video/webm", container: "webm" },
};

interface ProbeStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number }[];
}
interface Probe {
  streams?: ProbeStream[];
  format?: { duration?: string; tags?: Record<string, string> };
}

/** What the encoder needs beyond the header: which streams to map, and every tag the original carries. */
export interface Inspection {
  header: VideoHeader;
  videoIndex: number;
  audioIndex: number | undefined;
  /** Every tag value of the container and its streams, so the encoder can check that none reaches its output. */
  tagValues: string[];
}

export async function inspectVideo(path: string): Promise<VideoHeader> {
  return (await inspect(path)).header;
}

/** inspectVideo, with the stream indexes and tags the encoder uses. */
export async function inspect(path: string): Promise<Inspection> {
  const type = await fileTypeFromFile(path).catch(() => undefined);
  const known = type && containers[type.mime];
  if (!known) throw new VideoRefused("not-video", type ? `the bytes are ${type.mime}` : "the bytes are no known type");

  const probe = await ffprobe(path);
  const streams = probe.streams ?? [];
  // A cover picture in an audio file is a "video" stream to ffprobe, but no clip.
  const video = streams.find((s) => s.codec_type === "video" && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === "audio");
  if (!video) throw new VideoRefused("no-video-stream", audio ? "audio only" : "no video or audio stream");
  if (!video.codec_name || !video.width || !video.height)
    throw new VideoRefused("damaged", `video stream without ${video.codec_name ? "a size" : "a known codec"}`);

  const seconds = Number(probe.format?.duration ?? video.duration);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new VideoRefused("damaged", "no duration");
  const durationMs = Math.round(seconds * 1000);
  if (durationMs > videoLimits.maxDurationMs) throw new VideoRefused("too-long", `${durationMs} ms`);

  const turned = Math.abs(rotation(video)) % 180 === 90;
  const width = turned ? video.height : video.width;
  const height = turned ? video.width : video.height;
  if (Math.max(width, height) > videoLimits.maxLongSide || Math.min(width, height) > videoLimits.maxShortSide)
    throw new VideoRefused("too-large-frame", `${width} x ${height}`);

  const tagValues = [probe.format?.tags, ...streams.map((s) => s.tags)].flatMap((tags) => Object.values(tags ?? {}));
  return {
    header: { ...known, videoCodec: video.codec_name, width, height, durationMs, hasAudio: audio !== undefined },
    videoIndex: video.index,
    audioIndex: audio?.index,
    tagValues,
  };
}

/** The rotation a phone stored, in degrees: a display matrix (what ffprobe 5 reports), or the older `rotate` tag. */
function rotation(stream: ProbeStream): number {
  const matrix = stream.side_data_list?.find((d) => d.side_data_type === "Display Matrix");
  const degrees = matrix?.rotation ?? Number(stream.tags?.rotate ?? 0);
  return Number.isFinite(degrees) ? Math.round(degrees) : 0;
}

/** ffprobe's JSON for a file; refuses what ffprobe cannot read, throws a plain Error when ffprobe itself is missing. */
export function ffprobe(path: string): Promise<Probe> {
  const args = ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", "--", path];
  return new Promise((resolve, reject) => {
    execFile(
      "ffprobe",
      args,
      { timeout: probeTimeoutMs, killSignal: "SIGKILL", maxBuffer: probeMaxOutputBytes, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "ENOENT") return reject(new Error("ffprobe is not installed (Debian package ffmpeg)"));
          if (code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER")
            return reject(new VideoRefused("damaged", "ffprobe's report is too long"));
          if (error.killed) return reject(new VideoRefused("damaged", `ffprobe took over ${probeTimeoutMs / 1000} s`));
          if (/moov atom not found/i.test(stderr)) return reject(new VideoRefused("no-index", "moov atom not found"));
          return reject(new VideoRefused("damaged", firstLine(stderr, path) || `ffprobe exited with ${String(code)}`));
        }
        try {
          resolve(JSON.parse(stdout) as Probe);
        } catch {
          reject(new VideoRefused("damaged", "ffprobe's report is not JSON"));
        }
      },
    );
  });
}

/** The first non-empty line of a tool's error output, without the file's path (ffmpeg starts some lines with it). */
export function firstLine(text: string, path: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.split(`${path}: `).join("").trim().slice(0, 300);
}
