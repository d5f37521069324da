import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";

/**
 * Video clips for tests, made by ffmpeg at test time (nothing binary in the repository): a phone's clip as an iPhone
 * writes it — H.264 and AAC in a QuickTime file with where it was filmed, the make and model, a creation date and a
 * rotation — and the hostile files an upload form meets.
 */

const run = promisify(execFile);

/** Where the phone clip says it was filmed, and what else it says: none of it may reach a served byte. */
export const phoneClipSecrets = {
  location: "+42.5195-070.8967+003.000/",
  make: "Apple",
  model: "iPhone 15 Pro",
  date: "2026-10-01T18:30:00",
};

/** A `seconds`-long 1280 x 720 clip with a tone, its metadata as a phone writes it, rotated 90° for display. */
export async function phoneClip(dir: string, { seconds = 2, name = "IMG_0420.MOV" } = {}): Promise<string> {
  const path = join(dir, name);
  await run(
    "ffmpeg",
    [
      ...["-v", "error", "-y"],
      ...["-f", "lavfi", "-i", `testsrc2=size=1280x720:rate=30:duration=${seconds}`],
      ...["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k"],
      ...["-metadata", `location=${phoneClipSecrets.location}`],
      ...["-metadata", `com.apple.quicktime.location.ISO6709=${phoneClipSecrets.location}`],
      ...["-metadata", `com.apple.quicktime.make=${phoneClipSecrets.make}`],
      ...["-metadata", `com.apple.quicktime.model=${phoneClipSecrets.model}`],
      ...["-metadata", `creation_time=${phoneClipSecrets.date}Z`],
      ...["-metadata:s:v", "rotate=90"],
      ...["-movflags", "use_metadata_tags", "-f", "mov", path],
    ],
    { timeout: 60_000 },
  );
  return path;
}

/** Files that are not clips, named as clips: a zip and a web page. */
export async function notClips(dir: string): Promise<{ zip: string; html: string }> {
  const zip = join(dir, "holiday.mp4");
  // A local file header and an end-of-central-directory record: what file-type reads as a zip.
  const header = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00]);
  await writeFile(zip, Buffer.concat([header, Buffer.alloc(2048, 7), Buffer.from([0x50, 0x4b, 0x05, 0x06])]));
  const html = join(dir, "trailer.mp4");
  await writeFile(html, "<!doctype html><html><head><title>Free clip</title></head><body>video</body></html>\n");
  return { zip, html };
}

/** A clip whose index (the moov box, at the end as phones write it) was cut off: a copy interrupted part-way. */
export async function interruptedCopy(dir: string, clipPath: string): Promise<string> {
  const bytes = await readFile(clipPath);
  const moov = bytes.lastIndexOf(Buffer.from("moov"));
  const path = join(dir, "interrupted.mov");
  await writeFile(path, bytes.subarray(0, moov > 8 ? moov - 4 : Math.floor(bytes.length / 2)));
  return path;
}
