import { describe, expect, it } from "vitest";
import { shownToOwner } from "~/owner/shown";

describe("shownToOwner", () => {
  it("shows every bidi, direction-mark and control character as U+FFFD and keeps line breaks", () => {
    const live = "Bob\u202Egnp.exe \u202A\u202B\u202C\u202D \u2066\u2067\u2068\u2069 \u200E\u200F \u061C \u0007";
    expect(shownToOwner(live)).toBe(
      "Bob\uFFFDgnp.exe \uFFFD\uFFFD\uFFFD\uFFFD \uFFFD\uFFFD\uFFFD\uFFFD \uFFFD\uFFFD \uFFFD \uFFFD",
    );
    expect(shownToOwner("one\r\ntwo\rthree\nfour\tfive")).toBe("one\ntwo\nthree\nfour\tfive");
  });

  it("reaches every string of a loader's data, and leaves dates, numbers and nulls as they are", () => {
    const at = new Date("2026-10-31T20:00:00Z");
    const shown = shownToOwner({
      operator: "owner@example.com",
      items: [{ id: "a1", name: "Eve\u202E", receivedAt: at, count: 2, spamReasons: ["x\u2066"], note: null }],
    });
    expect(shown).toEqual({
      operator: "owner@example.com",
      items: [{ id: "a1", name: "Eve\uFFFD", receivedAt: at, count: 2, spamReasons: ["x\uFFFD"], note: null }],
    });
    expect(shown.items[0]!.receivedAt).toBeInstanceOf(Date);
  });
});
