import { describe, expect, it } from "vitest";
import { multiLine, oneLine } from "./safety";

describe("encoded words and cuts", () => {
  it("leaves RFC 2047 encoded words inert in one-line and body text, as it does control characters", () => {
    const word = "=?UTF-8?B?DQpCY2M6IHg=?=";
    expect(oneLine(`Eve ${word}`)).toBe("Eve = ?UTF-8?B?DQpCY2M6IHg=? =");
    expect(multiLine(`a\n=?iso-8859-1?q?=0A?=\nb`)).toBe("a\n= ?iso-8859-1?q?=0A? =\nb");
    expect(oneLine("a = ? b ?= c, 1+1=2?")).toBe("a = ? b ?= c, 1+1=2?");
  });

  it("cuts a one-line text on a code point, never half an emoji", () => {
    const cut = oneLine(`${"a".repeat(8)}🎃🎃`, 10);
    expect(cut).toBe(`${"a".repeat(8)}…`);
    expect(oneLine("🎃".repeat(10), 6)).toBe("🎃🎃…");
  });
});
