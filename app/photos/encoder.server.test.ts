import sharp from "sharp";
import { describe, expect, it } from "vitest";
import {
  cropAround,
  encodeRendition,
  inspectPhoto,
  verifyPhoto,
  maxPixels,
  PhotoRefused,
  storedBox,
  uploadFileName,
  uploadFileNamePattern,
  upright,
} from "./encoder.server";
import { hugePngHeader } from "../../tests/support/fixture-photos.mjs";
import { photoLimits } from "./limits";

describe("the photo encoder's rules", () => {
  it("decodes at most as many pixels as an upload may have", () => {
    expect(maxPixels).toBe(photoLimits.maxPixels);
  });

  it("crops around the focal point as far as the edges allow", () => {
    expect(cropAround({ width: 4032, height: 3024 }, 16 / 9, { x: 0.5, y: 0.4 })).toEqual({
      left: 0,
      top: 76,
      width: 4032,
      height: 2268,
    });
    expect(cropAround({ width: 3000, height: 1000 }, 3 / 2, { x: 1, y: 0 })).toEqual({
      left: 1500,
      top: 0,
      width: 1500,
      height: 1000,
    });
  });

  it("names an upload's files so the server can tell a name that cannot be one", () => {
    const size = uploadFileName({ kind: "size", width: 720, format: "avif", hash: "0123456789" });
    const social = uploadFileName({ kind: "social", hash: "abcdef0123" });
    expect([size, social]).toEqual(["p-0123456789-720.avif", "p-abcdef0123-social.jpg"]);
    for (const name of [size, social]) expect(name).toMatch(uploadFileNamePattern);
    for (const name of ["p-0123456789-720.gif", "p-012345678-720.avif", "slide-1-720-0123456789.avif", "../p-0123456789-720.avif", "p-0123456789-0720.jpeg"])
      expect(name).not.toMatch(uploadFileNamePattern);
  });

  it("reads only the header: type and upright size; refuses what is not a photo", async () => {
    const sideways = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#804020" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    await expect(inspectPhoto(sideways)).resolves.toEqual({
      contentType: "image/jpeg",
      width: 30,
      height: 40,
      storedWidth: 40,
      storedHeight: 30,
      orientation: 6,
    });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    await expect(inspectPhoto(svg)).rejects.toMatchObject({ reason: "not-image" });
    await expect(inspectPhoto(Buffer.from("<html><body>hello</body></html>"))).rejects.toBeInstanceOf(PhotoRefused);
  });

  it("refuses a decompression bomb from its header and a photo cut short once decoded", async () => {
    const whole = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#335577" } })
      .jpeg()
      .toBuffer();
    await expect(verifyPhoto(whole)).resolves.toMatchObject({ contentType: "image/jpeg", width: 900, height: 600 });
    const cut = whole.subarray(0, Math.floor(whole.length / 2));
    await expect(inspectPhoto(cut)).resolves.toMatchObject({ width: 900 });
    await expect(verifyPhoto(cut)).rejects.toMatchObject({ reason: "damaged" });
    // A PNG of a few hundred bytes whose header claims 30,000 x 30,000.
    const bomb = hugePngHeader();
    await expect(verifyPhoto(bomb)).rejects.toMatchObject({ reason: "too-large", width: 30_000, height: 30_000 });
  });

  it("cuts the crop out of the stored pixels and turns only it upright, as sharp's own rotate() would (all 8 orientations)", async () => {
    const W = 7;
    const H = 5;
    const pixels = Buffer.alloc(W * H * 3);
    for (let i = 0; i < W * H; i++) pixels.set([i * 7, 255 - i * 7, (i * 37) % 256], i * 3);
    for (let orientation = 1; orientation <= 8; orientation++) {
      const png = await sharp(pixels, { raw: { width: W, height: H, channels: 3 } })
        .png()
        .withMetadata({ orientation })
        .toBuffer();
      const up = orientation >= 5 ? { width: H, height: W } : { width: W, height: H };
      const crop = { left: 1, top: 2, width: up.width - 2, height: up.height - 3 };
      const expected = await sharp(png).rotate().extract(crop).raw().toBuffer();
      const stored = await sharp(png).extract(storedBox(crop, { width: W, height: H }, orientation)).png().toBuffer();
      const turned = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
      const actual = await upright(sharp(turned.data, { raw: turned.info }), orientation).raw().toBuffer();
      expect(actual.equals(expected), `orientation ${orientation}`).toBe(true);
    }
  });

  it("encodes a sideways camera photo upright: red at the top, blue at the bottom", async () => {
    // Stored 60 x 80 sideways (Orientation 6: the stored left edge is the photo's top): red on the left, blue on the right.
    const stored = Buffer.alloc(80 * 60 * 3);
    for (let y = 0; y < 60; y++)
      for (let x = 0; x < 80; x++) stored.set(x < 40 ? [220, 20, 20] : [20, 20, 220], (y * 80 + x) * 3);
    const photo = await sharp(stored, { raw: { width: 80, height: 60, channels: 3 } })
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const files: Buffer[] = [];
    const entry = await encodeRendition(photo, "about", { x: 0.5, y: 0.5 }, (file) => void files.push(file.bytes), {
      social: false,
    });
    expect(entry.width).toBe(60);
    const jpeg = files.find((file) => file[0] === 0xff && file[1] === 0xd8)!;
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    expect(at(30, 2)[0]).toBeGreaterThan(150);
    expect(at(30, info.height - 3)[2]).toBeGreaterThan(150);
  });
});
