import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { cropAround, inspectPhoto, verifyPhoto, maxPixels, PhotoRefused, uploadFileName, uploadFileNamePattern } from "./encoder.server";
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
    await expect(inspectPhoto(sideways)).resolves.toEqual({ contentType: "image/jpeg", width: 30, height: 40 });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    await expect(inspectPhoto(svg)).rejects.toMatchObject({ reason: "not-image" });
    await expect(inspectPhoto(Buffer.from("<html><body>hello</body></html>"))).rejects.toBeInstanceOf(PhotoRefused);
  });

  it("refuses a decompression bomb from its header and a photo cut short once decoded", async () => {
    const whole = await sharp({ create: { width: 900, height: 600, channels: 3, background: "#335577" } })
      .jpeg()
      .toBuffer();
    await expect(verifyPhoto(whole)).resolves.toEqual({ contentType: "image/jpeg", width: 900, height: 600 });
    const cut = whole.subarray(0, Math.floor(whole.length / 2));
    await expect(inspectPhoto(cut)).resolves.toMatchObject({ width: 900 });
    await expect(verifyPhoto(cut)).rejects.toMatchObject({ reason: "damaged" });
    // A PNG of a few hundred bytes whose header claims 30,000 x 30,000.
    const bomb = hugePngHeader();
    await expect(verifyPhoto(bomb)).rejects.toMatchObject({ reason: "too-large", width: 30_000, height: 30_000 });
  });
});
