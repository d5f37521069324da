import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { refusal } from "../../tests/support/config-refusal";

describe("parseConfig: photos (PHOTO_LEASE_MS)", () => {
  it("reads PHOTO_LEASE_MS from 1 s to an hour, and refuses anything else naming it", () => {
    expect(parseConfig({ PHOTO_LEASE_MS: "1000" }).photoLeaseMs).toBe(1_000);
    expect(parseConfig({ PHOTO_LEASE_MS: "" }).photoLeaseMs).toBe(60_000);
    expect(parseConfig({ MEDIA_CACHE_DIR: "/var/cache/haunt" }).mediaCacheDir).toBe("/var/cache/haunt");
    expect(parseConfig({ MEDIA_CACHE_DIR: "" }).mediaCacheDir).toMatch(/haunt-media-cache$/);
    for (const bad of ["999", "3600001", "1.5", "a minute"])
      expect(refusal({ PHOTO_LEASE_MS: bad })).toContain("PHOTO_LEASE_MS");
  });
});
