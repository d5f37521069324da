import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { encodeClip, VideoEncodeFailed } from "~/video/encode.server";
import { inspectVideo, VideoRefused } from "~/video/inspect.server";
import { videoLimits, type VideoRefusal } from "~/video/limits";
import { videoEncodingWords } from "~/wording/video-encoding";
import { useTempDir } from "../support/temp-dir";

/**
 * The site's video transcoder (app/video) with the real ffmpeg and ffprobe of Debian's package: clips made at test
 * time from ffmpeg's own test sources, small and short. A phone's clip comes out as 720p H.264 + AAC with its index
 * first, upright, with none of the phone's location, make, model or dates and no tool's name in its bytes; files that
 * are no clip, too long, too large, cut short or damaged are refused with their reason; the time cap and an abort
 * kill ffmpeg.
 */

const run = promisify(execFile);
const temp = useTempDir("haunt-video-");
const fixtures = temp.dir();
const at = (name: string) => join(fixtures, name);

/** ffmpeg for the fixtures: quiet, overwriting. */
const ffmpeg = (...args: string[]) => run("ffmpeg", ["-hide_banner", "-v", "error", "-nostdin", "-y", ...args]);
const lavfi = (source: string) => ["-f", "lavfi", "-i", source];
const picture = (size: string, seconds: number, rate = 30) =>
  lavfi(`testsrc2=size=${size}:rate=${rate}:duration=${seconds}`);
const sound = (seconds: number) => lavfi(`sine=frequency=440:sample_rate=48000:duration=${seconds}`);
const fastH264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"];

async function probe(path: string) {
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    "-print_format",
    "json",
    "-show_format",
    "-show_streams",
    path,
  ]);
  return JSON.parse(stdout) as {
    streams: {
      codec_type: string;
      codec_name: string;
      width?: number;
      height?: number;
      channels?: number;
      tags?: Record<string, string>;
      side_data_list?: unknown[];
    }[];
    format: { duration: string; tags?: Record<string, string> };
  };
}

/** The top-level boxes of an MP4/MOV file, in order, read from its bytes. */
function boxes(bytes: Buffer): string[] {
  const types: string[] = [];
  for (let at = 0; at + 8 <= bytes.length;) {
    let size = bytes.readUInt32BE(at);
    if (size === 1) size = Number(bytes.readBigUInt64BE(at + 8));
    if (size === 0) size = bytes.length - at;
    types.push(bytes.toString("latin1", at + 4, at + 8));
    at += Math.max(8, size);
  }
  return types;
}

/** The processes whose command line names `text` (here: an encoding's own output directory). */
function processesNaming(text: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "latin1").includes(text)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

const alive = (pid: number) => {
  try {
    readFileSync(`/proc/${pid}/cmdline`);
    return true;
  } catch {
    return false;
  }
};

/** A one-entry zip archive ("PK\3\4", a stored file, its central directory), as a .zip named .mp4 would be. */
function zipBytes(): Buffer {
  const name = Buffer.from("a.txt");
  const data = Buffer.from("hello\n");
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(local.length + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}

/** What an iPhone writes beside the picture, as mov tags (use_metadata_tags writes the keys as given). */
const phoneTags = [
  ...["-metadata", "location=+40.7128-074.0060/"],
  ...["-metadata", "com.apple.quicktime.location.ISO6709=+40.7128-074.0060+010.000/"],
  ...["-metadata", "make=Apple", "-metadata", "model=iPhone 15", "-metadata", "software=17.0.3"],
  ...["-metadata", "creation_time=2026-10-01T12:00:00Z", "-metadata:s:v:0", "creation_time=2026-10-01T12:00:00Z"],
];

beforeAll(async () => {
  writeFileSync(at("zip.mp4"), zipBytes());
  writeFileSync(
    at("page.mp4"),
    "<!DOCTYPE html>\n<html><head><title>Clip</title></head><body><p>Not here</p></body></html>\n",
  );
  await Promise.all([
    // A landscape 1080p recording held upright: a rotation of 90 degrees, set while copying (ffmpeg 5.1 takes the
    // `rotate` tag only when copying), and a timecode track as a camera writes.
    ffmpeg(
      ...picture("1920x1080", 1),
      ...sound(1),
      ...fastH264,
      "-c:a",
      "aac",
      "-ac",
      "2",
      ...phoneTags,
      "-timecode",
      "12:00:00:00",
      "-movflags",
      "use_metadata_tags",
      at("phone-upright.mov"),
    ).then(() =>
      ffmpeg(
        "-i",
        at("phone-upright.mov"),
        "-map",
        "0",
        "-c",
        "copy",
        "-map_metadata",
        "0",
        "-metadata:s:v:0",
        "rotate=90",
        "-movflags",
        "use_metadata_tags",
        at("phone.mov"),
      ),
    ),
    ffmpeg(...sound(1), "-c:a", "aac", "-f", "ipod", at("audio.mp4")),
    ffmpeg(...picture("16x16", 91, 1), ...fastH264, at("long.mp4")),
    ffmpeg(...picture("4200x2400", 1, 1), ...fastH264, at("huge.mp4")),
    // Without faststart the index is written last: the first half of the file has none.
    ffmpeg(...picture("320x240", 2), ...fastH264, at("whole.mp4")).then(() => {
      const bytes = readFileSync(at("whole.mp4"));
      writeFileSync(at("cut.mp4"), bytes.subarray(0, bytes.length >> 1));
    }),
    // Index first, then its middle third overwritten: the header reads, the pictures do not decode.
    ffmpeg(...picture("320x240", 2), ...fastH264, "-movflags", "+faststart", at("silent.mp4")).then(() => {
      const bytes = readFileSync(at("silent.mp4"));
      const third = Math.floor(bytes.length / 3);
      randomBytes(third).copy(bytes, third);
      writeFileSync(at("damaged.mp4"), bytes);
    }),
    ffmpeg(
      ...picture("640x360", 1),
      ...sound(1),
      "-c:v",
      "libx265",
      "-preset",
      "ultrafast",
      "-x265-params",
      "log-level=error",
      "-tag:v",
      "hvc1",
      "-c:a",
      "aac",
      at("hevc.mp4"),
    ),
    ffmpeg(
      ...picture("320x240", 1),
      ...sound(1),
      "-c:v",
      "libvpx-vp9",
      "-deadline",
      "realtime",
      "-cpu-used",
      "8",
      "-b:v",
      "300k",
      "-c:a",
      "libopus",
      at("vp9.webm"),
    ),
    ffmpeg(
      ...picture("320x240", 1),
      ...sound(1),
      "-c:v",
      "libvpx",
      "-deadline",
      "realtime",
      "-cpu-used",
      "8",
      "-b:v",
      "300k",
      "-c:a",
      "libvorbis",
      at("vp8.webm"),
    ),
    // Long enough that encoding it takes seconds, for the time cap and the abort.
    ffmpeg(...picture("640x360", 20), ...fastH264, at("slow.mp4")),
  ]);
}, 60_000);

describe("a phone's clip", () => {
  it("is read by its bytes, upright, with its sound", async () => {
    expect(await inspectVideo(at("phone.mov"))).toEqual({
      contentType: "video/quicktime",
      container: "mov",
      videoCodec: "h264",
      width: 1080,
      height: 1920,
      durationMs: expect.closeTo(1000, -2),
      hasAudio: true,
    });
    // The fixture does carry what must not reach the site.
    const original = readFileSync(at("phone.mov"));
    for (const text of ["+40.7128", "ISO6709", "Apple", "iPhone", "2026", "Lavf"])
      expect(original.includes(text), text).toBe(true);
  });

  it(
    "is encoded to 720p H.264 + AAC, index first, upright, with none of the phone's metadata or a tool's name",
    { timeout: 60_000 },
    async () => {
      const out = temp.dir();
      const progress: number[] = [];
      const clip = await encodeClip(at("phone.mov"), out, { onProgress: (f) => progress.push(f) });
      expect(clip).toMatchObject({ clipPath: join(out, "clip.mp4"), posterPath: join(out, "poster.png") });
      // Turned upright (1080 x 1920 as shown), then at most 720 high, both sides even.
      expect(clip.height).toBe(720);
      expect(clip.width).toBeLessThan(clip.height);
      expect(clip.width % 2).toBe(0);
      expect(clip.durationMs).toBeGreaterThan(900);
      expect(clip.durationMs).toBeLessThan(1100);
      expect(progress.at(-1)).toBe(1);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));

      const probed = await probe(clip.clipPath);
      expect(probed.streams.map((s) => s.codec_name)).toEqual(["h264", "aac"]);
      expect(probed.streams[0]).toMatchObject({ width: clip.width, height: clip.height });
      expect(probed.streams[0]!.side_data_list).toBeUndefined();
      expect(probed.streams[1]!.channels).toBe(2);
      expect(Object.keys(probed.format.tags ?? {}).sort()).toEqual([
        "compatible_brands",
        "major_brand",
        "minor_version",
      ]);
      for (const stream of probed.streams) {
        expect(
          Object.keys(stream.tags ?? {}).every((k) => ["language", "handler_name", "vendor_id", "encoder"].includes(k)),
        ).toBe(true);
        expect(stream.tags?.encoder?.trim() ?? "").toBe("");
      }

      const bytes = readFileSync(clip.clipPath);
      expect(bytes.byteLength).toBe(clip.byteSize);
      const order = boxes(bytes);
      expect(order.indexOf("moov")).toBeGreaterThanOrEqual(0);
      expect(order.indexOf("moov")).toBeLessThan(order.indexOf("mdat"));
      for (const text of [
        ...["+40.7128", "40.7128", "074.0060", "ISO6709", "location", "Apple", "iPhone", "17.0.3", "2026-10-01"],
        ...["Lavf", "Lavc", "x264", "libx264", "FFmpeg", "videolan", "creation_time"],
      ])
        expect(bytes.includes(text), text).toBe(false);
      // The movie's and tracks' creation and modification times are zero (1904), not the encoding's day.
      const mvhd = bytes.indexOf("mvhd");
      expect(bytes.readUInt32BE(mvhd + 8)).toBe(0);
      expect(bytes.readUInt32BE(mvhd + 12)).toBe(0);

      // The poster: a PNG at the clip's size, with no text or EXIF chunk.
      const png = readFileSync(clip.posterPath);
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([clip.width, clip.height]);
      for (const chunk of ["tEXt", "iTXt", "zTXt", "eXIf", "tIME"]) expect(png.includes(chunk), chunk).toBe(false);
    },
  );

  it("without sound is encoded without an audio track", { timeout: 60_000 }, async () => {
    const clip = await encodeClip(at("silent.mp4"), temp.dir());
    expect((await probe(clip.clipPath)).streams.map((s) => s.codec_name)).toEqual(["h264"]);
    expect([clip.width, clip.height]).toEqual([320, 240]);
  });
});

describe("other clips a phone or browser makes", () => {
  it("HEVC is read and encoded to H.264", { timeout: 60_000 }, async () => {
    expect(await inspectVideo(at("hevc.mp4"))).toMatchObject({ contentType: "video/mp4", videoCodec: "hevc" });
    const clip = await encodeClip(at("hevc.mp4"), temp.dir());
    expect((await probe(clip.clipPath)).streams.map((s) => s.codec_name)).toEqual(["h264", "aac"]);
    expect([clip.width, clip.height]).toEqual([640, 360]);
  });

  it.each([
    ["vp9.webm", "vp9"],
    ["vp8.webm", "vp8"],
  ])("WebM (%s) is read and encoded to H.264 + AAC", { timeout: 60_000 }, async (name, codec) => {
    expect(await inspectVideo(at(name))).toMatchObject({
      contentType: "video/webm",
      videoCodec: codec,
      hasAudio: true,
    });
    const clip = await encodeClip(at(name), temp.dir());
    expect((await probe(clip.clipPath)).streams.map((s) => s.codec_name)).toEqual(["h264", "aac"]);
  });
});

describe("files that cannot become a clip are refused by their bytes, with a reason", () => {
  const refused = async (name: string): Promise<VideoRefused> => {
    const error: unknown = await inspectVideo(at(name)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoRefused);
    return error as VideoRefused;
  };

  it.each<[string, string, VideoRefusal]>([
    ["a zip archive named .mp4", "zip.mp4", "not-video"],
    ["a web page named .mp4", "page.mp4", "not-video"],
    ["sound only (an .m4a renamed .mp4)", "audio.mp4", "no-video-stream"],
    ["a clip of 91 s", "long.mp4", "too-long"],
    ["a 4200 x 2400 picture", "huge.mp4", "too-large-frame"],
    ["a copy cut short before its index", "cut.mp4", "no-index"],
  ])("%s", async (_, name, reason) => {
    expect((await refused(name)).reason).toBe(reason);
  });

  it("and encodeClip refuses them the same way, writing nothing", async () => {
    const out = temp.dir();
    await expect(encodeClip(at("long.mp4"), out)).rejects.toMatchObject({ reason: "too-long", detail: "91000 ms" });
    expect(readdirSync(out)).toEqual([]);
  });

  it("a damaged clip is refused by its header or fails while decoding", { timeout: 60_000 }, async () => {
    const out = temp.dir();
    const error: unknown = await encodeClip(at("damaged.mp4"), out).catch((e: unknown) => e);
    if (error instanceof VideoRefused) expect(error.reason).toBe("damaged");
    else {
      expect(error).toBeInstanceOf(VideoEncodeFailed);
      expect((error as VideoEncodeFailed).reason).toBe("damaged");
      expect((error as VideoEncodeFailed).detail).not.toBe("");
    }
    expect(readdirSync(out)).toEqual([]);
  });

  it("the owner reads each reason in plain words", () => {
    expect(videoEncodingWords.tooLong(134_000, videoLimits.maxDurationMs)).toContain("2 min 14 s long");
    expect(videoEncodingWords.tooLong(91_000, videoLimits.maxDurationMs)).toContain("at most 90 seconds");
    expect(videoEncodingWords.tooLargeFrame(4200, 2400)).toContain("4200 x 2400");
    expect(videoEncodingWords.timeout(videoLimits.encodeTimeoutMs)).toContain("15 minutes");
  });
});

describe("ffmpeg is stopped", () => {
  it("at the time cap: reason timeout, no ffmpeg left, nothing written", { timeout: 30_000 }, async () => {
    const out = temp.dir();
    let pid: number | undefined;
    const encoding = encodeClip(at("slow.mp4"), out, { timeoutMs: 400 });
    const watch = setInterval(() => (pid ??= processesNaming(out)[0]), 10);
    const error: unknown = await encoding.catch((e: unknown) => e);
    clearInterval(watch);
    expect(error).toBeInstanceOf(VideoEncodeFailed);
    expect((error as VideoEncodeFailed).reason).toBe("timeout");
    expect(pid).toBeDefined();
    expect(alive(pid!)).toBe(false);
    expect(processesNaming(out)).toEqual([]);
    expect(readdirSync(out)).toEqual([]);
  });

  it("on abort: an AbortError, no ffmpeg left", { timeout: 30_000 }, async () => {
    const out = temp.dir();
    const controller = new AbortController();
    let pid: number | undefined;
    const encoding = encodeClip(at("slow.mp4"), out, {
      signal: controller.signal,
      onProgress: () => {
        pid ??= processesNaming(out)[0];
        controller.abort();
      },
    });
    await expect(encoding).rejects.toMatchObject({ name: "AbortError" });
    expect(pid).toBeDefined();
    expect(alive(pid!)).toBe(false);
    expect(processesNaming(out)).toEqual([]);
  });
});
