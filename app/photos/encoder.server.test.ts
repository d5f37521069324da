import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { cropAround, inspectPhoto, maxPixels, PhotoRefused, uploadFileName, uploadFileNamePattern } from "./encoder.server";
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
});
