import { randomBytes } from "node:crypto";
import exifr from "exifr";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "~/config.server";
import { photoEncodingWords } from "~/wording/photo-encoding";
import type { RenditionEntry } from "~/photos/encoder.server";
import { renditionKey } from "~/site-content/photo-renditions.server";
import { openInboxStore } from "~/store/store.server";
import type { PhotoRendition, PhotoShape } from "~/store/photos.types";
import type { InboxStore } from "~/store/store.types";
import { cameraJpeg, hugePngHeader, truncatedJpeg } from "../support/fixture-photos.mjs";
import { postgresAvailable, type TestDatabases } from "../support/postgres";
import { sharedPostgres } from "../support/shared-postgres";
import { ensureBuilt, startSite, waitFor, type SiteServer } from "../support/site-server";

/**
 * The owner's uploads made fit for the web by the built server's background encoder (server/photo-encoder-loop.ts) and
 * served from its database (server/photo-files.ts): an upload and a placement's rendition are written straight into
 * the server's database, as the Photos page does; the server encodes it on its own, and every file it serves is
 * immutable, upright and free of the camera's metadata. Files it cannot use fail with words; on one PostgreSQL several
 * instances encode each rendition once, and one killed mid-encode is taken over by another.
 */

let postgres: TestDatabases | undefined;
const sites: SiteServer[] = [];
const stores: InboxStore[] = [];

beforeAll(async () => {
  await ensureBuilt();
  if (postgresAvailable) postgres = await sharedPostgres();
});
afterAll(() => postgres?.stop());
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.stop()));
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function site(env: Record<string, string> = {}): Promise<SiteServer> {
  const started = await startSite({ API_HOST: "", ...env });
  sites.push(started);
  return started;
}

async function storeOf(databaseUrl: string): Promise<InboxStore> {
  const store = await openInboxStore(parseDatabaseUrl(databaseUrl)!, { timeoutMs: 10_000 });
  stores.push(store);
  return store;
}

/** Saves `bytes` as an upload and asks for its rendition for `shape`; resolves with the rendition's key. */
async function upload(
  store: InboxStore,
  bytes: Buffer,
  { shape = "slide" as PhotoShape, focus = { x: 0.5, y: 0.4 }, width = 1600, height = 1200 } = {},
): Promise<string> {
  const id = randomBytes(12).toString("hex");
  await store.saveUpload({
    id,
    original: bytes,
    contentType: "image/jpeg",
    width,
    height,
    byteSize: bytes.byteLength,
    fileName: "IMG_0042.JPG",
    uploadedBy: "owner@example.com",
  });
  const key = renditionKey(id, shape, focus);
  await store.requestRendition(key, id, shape, focus);
  return key;
}

async function settled(store: InboxStore, key: string, timeoutMs = 50_000): Promise<PhotoRendition> {
  let rendition: PhotoRendition | undefined;
  await waitFor(
    async () => {
      [rendition] = await store.renditions([key]);
      return rendition?.state !== "pending";
    },
    `rendition ${key} encoded`,
    timeoutMs,
  );
  return rendition!;
}

const sources = (entry: RenditionEntry) => [
  ...entry.avif,
  ...entry.webp,
  ...entry.jpeg,
  ...(entry.social ? [{ width: entry.social.width, src: entry.social.src }] : []),
];

/** The mean colour of a small square around (fx, fy) of an image, as [r, g, b]. */
async function colourAt(bytes: Buffer, fx: number, fy: number): Promise<number[]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const cx = Math.round(fx * (info.width - 1));
  const cy = Math.round(fy * (info.height - 1));
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = Math.max(0, cy - 3); y <= Math.min(info.height - 1, cy + 3); y++)
    for (let x = Math.max(0, cx - 3); x <= Math.min(info.width - 1, cx + 3); x++, n++)
      for (let c = 0; c < 3; c++) sum[c]! += data[(y * info.width + x) * info.channels + c]!;
  return sum.map((value) => value / n);
}

describe("an uploaded camera photo, encoded by the server in the background", () => {
  it(
    "is served at every width and format, immutable, upright, without GPS, camera, dates, XMP or IPTC",
    { timeout: 60_000 },
    async () => {
      const server = await site();
      const store = await storeOf(server.databaseUrl);
      const original = await cameraJpeg();
      // The fixture does carry what must not reach the web.
      expect(await exifr.parse(original, { gps: true, xmp: true })).toMatchObject({
        Model: "Workshop Phone 12",
        latitude: expect.any(Number),
        City: "Secret Workshop Town",
      });

      const key = await upload(store, original);
      const rendition = await settled(store, key);
      expect(rendition).toMatchObject({ state: "ready", error: null, done: 13, total: 13 });
      const entry = JSON.parse(rendition.entry!) as RenditionEntry;
      // 1600 x 1200 upright, cropped to 16:9: 1600 x 900, so every width up to 1600.
      expect(entry).toMatchObject({ width: 1600, height: 900 });
      expect(entry.avif.map((source) => source.width)).toEqual([480, 720, 1080, 1280]);
      expect(entry.placeholder).toMatch(/^data:image\/webp;base64,/);
      expect(entry.social).toMatchObject({ width: 1200, height: 630 });

      const types = { avif: "image/avif", webp: "image/webp", jpeg: "image/jpeg", jpg: "image/jpeg" };
      for (const { src, width } of sources(entry)) {
        expect(src).toMatch(/^\/photos\/p-[0-9a-f]{10}-(\d+\.(avif|webp|jpeg)|social\.jpg)$/);
        const response = await fetch(server.url + src);
        expect(response.status, src).toBe(200);
        expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expect(response.headers.get("content-type")).toBe(types[src.split(".").at(-1) as keyof typeof types]);
        const bytes = Buffer.from(await response.arrayBuffer());
        expect(Number(response.headers.get("content-length"))).toBe(bytes.byteLength);

        const metadata = await sharp(bytes).metadata();
        expect(metadata.width, src).toBe(width);
        expect(metadata.width! > metadata.height!, `${src} is landscape`).toBe(true);
        expect([metadata.exif, metadata.xmp, metadata.iptc, metadata.orientation], src).toEqual([
          undefined,
          undefined,
          undefined,
          undefined,
        ]);
        // exifr reads JPEG and AVIF (not WebP); the bytes of every format are searched too.
        if (!src.endsWith(".webp")) {
          const found = await exifr.parse(bytes, { tiff: true, exif: true, gps: true, xmp: true, iptc: true });
          expect(found ?? {}, src).toEqual({});
        }
        const secrets = [
          "Exif\0\0",
          "x:xmpmeta",
          "Photoshop 3.0",
          "FixtureCam",
          "Workshop Phone",
          "Secret Workshop",
          "2026:10:01",
        ];
        for (const secret of secrets)
          expect(bytes.includes(Buffer.from(secret)), `${src} holds "${secret}"`).toBe(false);

        // Upright: red at the top, blue at the bottom, on both sides.
        for (const x of [0.1, 0.9]) {
          const [topRed, , topBlue] = await colourAt(bytes, x, 0.1);
          const [bottomRed, , bottomBlue] = await colourAt(bytes, x, 0.9);
          expect(topRed! > topBlue! + 60 && bottomBlue! > bottomRed! + 60, `${src} upright at x=${x}`).toBe(true);
        }
      }
    },
  );

  it("answers 304 to its ETag and HEAD without a body; a name that is no upload's is a 404", async () => {
    const server = await site();
    const store = await storeOf(server.databaseUrl);
    const key = await upload(store, await cameraJpeg({ width: 800, height: 600 }), { shape: "about" });
    const entry = JSON.parse((await settled(store, key)).entry!) as RenditionEntry;
    expect(entry.social).toBeUndefined();
    const src = entry.avif[0]!.src;

    const first = await fetch(server.url + src);
    const etag = first.headers.get("etag");
    expect(etag).toBe(`"${src.slice("/photos/".length)}"`);
    const size = (await first.arrayBuffer()).byteLength;
    const again = await fetch(server.url + src, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");

    const head = await fetch(server.url + src, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("image/avif");
    expect(Number(head.headers.get("content-length"))).toBe(size);
    expect(await head.text()).toBe("");

    for (const name of [
      "p-0123456789-720.avif",
      "p-0123456789-720.gif",
      "p-zz-720.avif",
      "a/b.avif",
      "..%2Fpackage.json",
    ]) {
      const response = await fetch(`${server.url}/photos/${name}`);
      expect(response.status, name).toBe(404);
      expect(response.headers.get("cache-control"), name).not.toMatch(/immutable/);
    }
  });
});

describe("files the encoder cannot use fail at once, with the reason spelled out", () => {
  it(
    "a decompression bomb (a tiny PNG declaring 30,000 x 30,000) and a JPEG cut short",
    { timeout: 60_000 },
    async () => {
      const server = await site();
      const store = await storeOf(server.databaseUrl);
      const bomb = await upload(store, hugePngHeader(), { width: 30_000, height: 30_000 });
      const cut = await upload(store, await truncatedJpeg());
      expect(await settled(store, bomb)).toMatchObject({
        state: "failed",
        error: photoEncodingWords.tooLarge(30_000, 30_000),
        done: 0,
        entry: null,
      });
      expect(await settled(store, cut)).toMatchObject({
        state: "failed",
        error: photoEncodingWords.damaged,
        entry: null,
      });
      expect(server.output()).toMatch(/refused/);
      expect(server.output()).not.toMatch(/attempt \d failed/);
    },
  );
});

describe.skipIf(!postgresAvailable)("several instances on one PostgreSQL database", () => {
  it("encode each rendition once, and each serves the files any of them made", { timeout: 60_000 }, async () => {
    const databaseUrl = await postgres!.createDatabase();
    const [a, b] = await Promise.all([site({ DATABASE_URL: databaseUrl }), site({ DATABASE_URL: databaseUrl })]);
    const store = await storeOf(databaseUrl);
    const keys = [];
    for (const seed of [21, 22, 23])
      keys.push(await upload(store, await cameraJpeg({ width: 1200, height: 900, seed })));
    for (const key of keys) {
      const rendition = await settled(store, key, 40_000);
      expect(rendition.state).toBe("ready");
      const readyLines = () =>
        [a, b].flatMap((server) =>
          server
            .output()
            .split("\n")
            .filter((line) => line.startsWith(`photos: ${key}: `) && line.includes("ready")),
        );
      // The encoder marks the rendition ready, then logs it: the line may reach the pipe a moment after the row.
      await waitFor(() => readyLines().length > 0, `${key}'s ready line`, 10_000);
      expect(readyLines(), key).toHaveLength(1);
      for (const server of [a, b]) {
        const src = (JSON.parse(rendition.entry!) as RenditionEntry).webp[0]!.src;
        expect((await fetch(server.url + src)).status, `${src} from ${server.url}`).toBe(200);
      }
    }
    for (const server of [a, b]) expect(server.output()).not.toMatch(/took it over|attempt \d failed/);
  });

  it(
    "a server killed mid-encode leaves the photo pending; another instance takes it over once the lease runs out",
    { timeout: 60_000 },
    async () => {
      const databaseUrl = await postgres!.createDatabase();
      const lease = { DATABASE_URL: databaseUrl, PHOTO_LEASE_MS: "3000" };
      const first = await site(lease);
      const store = await storeOf(databaseUrl);
      // 12 megapixels: many seconds of encoding, so the kill lands in the middle.
      const key = await upload(store, await cameraJpeg({ width: 4032, height: 3024, seed: 31 }), {
        width: 4032,
        height: 3024,
      });
      let midway: PhotoRendition | undefined;
      await waitFor(
        async () => {
          [midway] = await store.renditions([key]);
          return midway!.done >= 1;
        },
        "the first file written",
        25_000,
      );
      await first.kill("SIGKILL");
      const [left] = await store.renditions([key]);
      expect(left).toMatchObject({ state: "pending", entry: null });
      expect(left!.done).toBeLessThan(left!.total);

      const second = await site(lease);
      const rendition = await settled(store, key, 30_000);
      // WebP and JPEG at five widths, AVIF at four (up to 1600), the link preview.
      expect(rendition).toMatchObject({ state: "ready", done: 15, total: 15 });
      expect(first.output()).not.toMatch(new RegExp(`${key}: .*ready`));
      // The encoder marks the rendition ready, then logs it: the line may reach the pipe a moment after the row.
      const readyLine = new RegExp(`photos: ${key}: slide of upload \\w+ ready`);
      await waitFor(() => readyLine.test(second.output()), `${key}'s ready line`, 10_000);
      const entry = JSON.parse(rendition.entry!) as RenditionEntry;
      expect(entry.width).toBe(2400);
      for (const { src } of sources(entry)) expect((await fetch(second.url + src)).status, src).toBe(200);
    },
  );
});
