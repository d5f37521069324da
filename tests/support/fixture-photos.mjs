// Three 12-megapixel "camera photos" for the photo tests and the bench, made on demand instead of committed: layered
// noise (soft shapes, mid detail, fine grain) compresses about like a real photo. Each is stored sideways (3024 x 4032)
// with EXIF Orientation 6 (shown 4032 x 3024) and GPS tags, so the build's rotate and strip steps mean something.
// Seeded: the same bytes every time, so the build's photo cache recognises them.
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMainThread, Worker, workerData } from "node:worker_threads";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";

const stored = { width: 3024, height: 4032 };

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Noise of `w` x `h` cells scaled up to the photo's size and softened. */
async function noiseLayer(next, w, h, sigma) {
  const cells = Buffer.alloc(w * h * 3);
  for (let i = 0; i < cells.length; i++) cells[i] = (next() * 256) | 0;
  return sharp(cells, { raw: { width: w, height: h, channels: 3 } })
    .resize(stored.width, stored.height, { kernel: "cubic" })
    .blur(sigma)
    .raw()
    .toBuffer();
}

export const fixturePhotos = [
  { name: "slide-1", seed: 1, tint: [1.0, 0.55, 0.25], alt: "Fixture photo one: an orange-lit animatronic" },
  { name: "slide-2", seed: 2, tint: [0.45, 0.85, 0.35], alt: "Fixture photo two: a pneumatic prop under green light" },
  { name: "slide-3", seed: 3, tint: [0.55, 0.5, 0.9], alt: "Fixture photo three: a small prop on a workbench" },
];

async function makePhoto({ seed, tint }, file) {
  const next = random(seed);
  const coarse = await noiseLayer(next, 12, 16, 30);
  const mid = await noiseLayer(next, 190, 250, 2);
  const fine = await noiseLayer(next, stored.width / 2, stored.height / 2, 0.6);
  const pixels = Buffer.alloc(coarse.length);
  for (let i = 0; i < pixels.length; i++) {
    const value = coarse[i] * 0.8 + (mid[i] - 128) * 0.35 + (fine[i] - 128) * 0.1 + 10;
    pixels[i] = Math.max(0, Math.min(255, value * tint[i % 3]));
  }
  await sharp(pixels, { raw: { ...stored, channels: 3 } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "FixtureCam", Model: "12MP test camera" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "51/1 30/1 1234/100",
        GPSLongitudeRef: "W",
        GPSLongitude: "0/1 7/1 3900/100",
      },
    })
    .toFile(`${file}.part`);
  // Whole or not at all: a run stopped half-way leaves no photo that later runs would take as made.
  renameSync(`${file}.part`, file);
}

/** Makes one photo in a thread of its own: the noise is drawn in JavaScript, so photos side by side use every core. */
function makePhotoInThread(photo, file) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { fixturePhoto: { photo, file } } });
    worker.once("error", reject);
    worker.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`fixture photo ${photo.name}: its thread exited with ${code}`)),
    );
  });
}
if (workerData?.fixturePhoto) await makePhoto(workerData.fixturePhoto.photo, workerData.fixturePhoto.file);

/** Writes the fixture photos and their sidecars into `dir` (kept when already there); returns `dir`. */
export async function makeFixturePhotos(dir) {
  mkdirSync(dir, { recursive: true });
  await Promise.all(
    fixturePhotos.map(async (photo) => {
      const file = join(dir, `${photo.name}.jpg`);
      if (!existsSync(file)) await makePhotoInThread(photo, file);
      // Off-centre focal points: the 16:9 crop follows them.
      writeFileSync(join(dir, `${photo.name}.json`), JSON.stringify({ alt: photo.alt, focus: [0.5, 0.4] }, null, 2));
    }),
  );
  return dir;
}

/** A small noisy JPEG (`width` x `height`), as a phone would send it. */
export async function smallJpeg(width = 1200, height = 900, seed = 7) {
  const next = random(seed);
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (next() * 256) | 0;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A JPEG cut short, as an interrupted copy leaves it: the first `fraction` of its bytes. */
export async function truncatedJpeg(fraction = 0.5) {
  const whole = await smallJpeg();
  return whole.subarray(0, Math.floor(whole.length * fraction));
}

/**
 * A PNG whose header claims `width` x `height` (30,000 x 30,000 is 900 megapixels) with one short row of data: a
 * few hundred bytes that a decoder would have to expand to gigabytes.
 */
export function hugePngHeader(width = 30_000, height = 30_000) {
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const row = deflateSync(Buffer.alloc(1 + width * 3));
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", row), chunk("IEND", Buffer.alloc(0))]);
}

if (isMainThread && import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: node tests/support/fixture-photos.mjs DIR");
  await makeFixturePhotos(dir);
  console.log(`fixture photos in ${dir}`);
}

/**
 * A camera JPEG as a phone sends it, shown `width` x `height`: red-tinted noise in its top half and blue-tinted in its
 * bottom half, stored sideways with EXIF Orientation 6, and carrying what must never reach the web: GPS position,
 * camera make and model, dates (EXIF) and an XMP packet naming the place. An output that is upright has red at the
 * top and blue at the bottom.
 */
export async function cameraJpeg({ width = 1600, height = 1200, seed = 11 } = {}) {
  const next = random(seed);
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const [r, g, b] = y < height / 2 ? [200, 40, 30] : [30, 50, 200];
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const grain = (next() - 0.5) * 60;
      pixels[i] = Math.max(0, Math.min(255, r + grain));
      pixels[i + 1] = Math.max(0, Math.min(255, g + grain));
      pixels[i + 2] = Math.max(0, Math.min(255, b + grain));
    }
  }
  // Stored turned a quarter to the left: Orientation 6 tells a viewer to turn it a quarter to the right.
  const stored = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .rotate(270)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return sharp(stored.data, { raw: stored.info })
    .jpeg({ quality: 88 })
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "FixtureCam", Model: "Workshop Phone 12", DateTime: "2026:10:01 18:30:00" },
      IFD2: { DateTimeOriginal: "2026:10:01 18:30:00", LensModel: "Fixture lens 4.2mm" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "51/1 30/1 1234/100",
        GPSLongitudeRef: "W",
        GPSLongitude: "0/1 7/1 3900/100",
      },
    })
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
        '<rdf:Description xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" photoshop:City="Secret Workshop Town"/>' +
        "</rdf:RDF></x:xmpmeta>",
    )
    .toBuffer();
}

/**
 * A large high-entropy camera JPEG (the upload memory attack): `width` x `height` of fine grain over a
 * gradient at quality 95, so it really is as large as a 24-megapixel phone photo at its best quality (6000 x 4400 is
 * about 25 MB, 3200 x 2300 about 6.6 MB), stored with EXIF Orientation 6 as phones do. Seeded: the same bytes every
 * time for one seed, different ones across seeds (so uploads of several are several photos).
 */
export async function largeCameraJpeg({ width = 6000, height = 4400, seed = 1 } = {}) {
  const next = random(seed);
  const pixels = Buffer.alloc(width * height * 3);
  let i = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let c = 0; c < 3; c++, i++) pixels[i] = (((next() * 128) | 0) + ((x + y + c * 50) >> 4)) & 255;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/**
 * A decompression bomb under the pixel cap: an interlaced (Adam7) 16-bit RGBA PNG of `width` x `height`
 * of one flat colour. 7000 x 7000 is 49 megapixels, a few hundred KB on disk, and 392 MB once decoded: an interlaced
 * PNG cannot be decoded row by row, so a decoder holds all of it.
 */
export function interlaced16BitPng(width = 7000, height = 7000) {
  return sharp({ create: { width, height, channels: 4, background: { r: 90, g: 20, b: 120, alpha: 0.8 } } })
    .toColourspace("rgb16")
    .png({ progressive: true, compressionLevel: 9 })
    .toBuffer();
}
