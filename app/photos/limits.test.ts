import { describe, expect, it } from "vitest";
import { decodeCost, photoLimits, pixelHeader } from "./limits";

describe("what a photo may cost to decode", () => {
  const header = (over: Partial<Parameters<typeof pixelHeader>[0]>) =>
    pixelHeader({ format: "png", width: 7000, height: 7000, channels: 4, depth: "ushort", ...over });

  it("counts an interlaced PNG whole: width x height x channels x bytes per sample", () => {
    const bomb = decodeCost(header({ isProgressive: true }));
    expect(bomb).toEqual({ kind: "whole-png", bytes: 392_000_000 });
    expect(bomb.bytes).toBeGreaterThan(photoLimits.maxDecodeBytes);
    expect(decodeCost(header({ isProgressive: true, width: 2500, height: 2500 })).bytes).toBeLessThanOrEqual(
      photoLimits.maxDecodeBytes,
    );
    expect(decodeCost(header({ isProgressive: true, depth: "uchar", channels: 3, width: 4000, height: 4000 }))).toEqual({
      kind: "whole-png",
      bytes: 48_000_000,
    });
  });

  it("counts a plain PNG and a baseline JPEG by a strip, since they are decoded a strip at a time", () => {
    expect(decodeCost(header({ isProgressive: false }))).toEqual({ kind: "strips", bytes: 7000 * 4 * 2 });
    const camera = decodeCost(pixelHeader({ format: "jpeg", width: 8000, height: 6000, channels: 3, depth: "uchar" }));
    expect(camera.kind).toBe("strips");
    expect(camera.bytes).toBeLessThan(photoLimits.maxDecodeBytes);
  });

  it("counts a progressive JPEG by its coefficients (16 bits, chroma as subsampled), WebP and AVIF whole", () => {
    const progressive = (width: number, height: number, chromaSubsampling: string) =>
      decodeCost(pixelHeader({ format: "jpeg", width, height, channels: 3, isProgressive: true, chromaSubsampling }));
    expect(progressive(4000, 3000, "4:2:0")).toEqual({ kind: "whole-jpeg", bytes: 36_000_000 });
    expect(progressive(4000, 3000, "4:4:4")).toEqual({ kind: "whole-jpeg", bytes: 72_000_000 });
    expect(progressive(8000, 6000, "4:2:0").bytes).toBeGreaterThan(photoLimits.maxDecodeBytes);
    expect(decodeCost(pixelHeader({ format: "heif", width: 4000, height: 3000, channels: 3, bitsPerSample: 10 }))).toEqual({
      kind: "whole",
      bytes: 72_000_000,
    });
    expect(decodeCost(pixelHeader({ format: "webp", width: 4000, height: 3000, channels: 4, depth: "uchar" })).bytes).toBe(
      48_000_000,
    );
  });
});
