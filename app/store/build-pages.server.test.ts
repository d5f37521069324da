import { describe, expect, it } from "vitest";
import {
  buildPhotoKey,
  buildRenditionPrefix,
  hashBuildToken,
  newBuildToken,
  reachedStages,
} from "~/store/build-pages.server";

const day = (n: number) => new Date(Date.UTC(2026, 9, n));

describe("the stages a customer is shown", () => {
  it("New, then each stage reached up to the current one, with when it was last entered", () => {
    const changes = [
      { at: day(2), to: "replied" },
      { at: day(3), to: "quoted" },
      { at: day(5), to: "deposit" },
      { at: day(4), to: "quoted" },
    ];
    expect(reachedStages(day(1), "deposit", changes)).toEqual([
      { stage: "new", at: day(1) },
      { stage: "replied", at: day(2) },
      { stage: "quoted", at: day(4) },
      { stage: "deposit", at: day(5) },
    ]);
  });

  it("leaves out stages skipped and stages past the current one (a stage set back), and never Lost", () => {
    const changes = [
      { at: day(2), to: "deposit" },
      { at: day(3), to: "building" },
      { at: day(4), to: "lost" },
      { at: day(5), to: "deposit" },
    ];
    expect(reachedStages(day(1), "deposit", changes).map((s) => s.stage)).toEqual(["new", "deposit"]);
  });

  it("shows the current stage set without a timeline line, dated by stage_at or not at all", () => {
    expect(reachedStages(day(1), "building", [], day(9))).toEqual([
      { stage: "new", at: day(1) },
      { stage: "building", at: day(9) },
    ]);
    expect(reachedStages(day(1), "deposit", [])).toEqual([
      { stage: "new", at: day(1) },
      { stage: "deposit", at: null },
    ]);
  });
});

describe("tokens and photo keys", () => {
  it("a token is 256 random bits in lower-case hex, looked up by its SHA-256", () => {
    const token = newBuildToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(newBuildToken()).not.toBe(token);
    expect(hashBuildToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashBuildToken(token)).not.toBe(token);
  });

  it("an update photo's rendition key is marked as a build photo's", () => {
    expect(buildPhotoKey("abc")).toMatch(new RegExp(`^${buildRenditionPrefix}[0-9a-f]{24}$`));
  });
});
