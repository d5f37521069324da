import { describe, expect, it } from "vitest";
import { notificationCopy } from "~/wording/notifications";
import { fitText } from "~/notify/channels/webhook-formats/text";

const note = notificationCopy.truncated;
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("fitText", () => {
  it("leaves text within the limit as it is (escaped)", () => {
    expect(fitText("a<b", { maxLength: 10 }, (t) => t.replace(/</g, "&lt;"))).toBe("a&lt;b");
  });

  it("cuts on a grapheme boundary: no lone surrogate, no half of a family emoji or flag", () => {
    for (const unit of ["🎃", "👨‍👩‍👧‍👦", "🇳🇱", "é"]) {
      for (let max = note.length + 1; max < note.length + 40; max++) {
        const out = fitText(`x${unit.repeat(200)}`, { maxLength: max });
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out.endsWith(note)).toBe(true);
        expect(out).not.toMatch(loneSurrogate);
        const kept = out.slice(1, -note.length);
        expect(kept.length % unit.length).toBe(0);
        expect(kept).toBe(unit.repeat(kept.length / unit.length));
      }
    }
  });

  it("never splits an escape: each character is escaped whole or not at all", () => {
    const out = fitText("<".repeat(100), { maxLength: note.length + 10 }, (t) => t.replace(/</g, "&lt;"));
    expect(out).toBe(`${"&lt;".repeat(2)}${note}`);
  });

  it("holds a byte limit as well (UTF-8)", () => {
    const out = fitText("👻".repeat(1_000), { maxLength: 10_000, maxBytes: 400 });
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(400);
    expect(out.endsWith(note)).toBe(true);
  });
});
