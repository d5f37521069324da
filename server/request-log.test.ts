import { describe, expect, it } from "vitest";
import { requestIdFor, saneRequestId } from "./request-log";

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("a request id from the proxy", () => {
  it("is taken when it looks like an id", () => {
    for (const id of ["abc", "0f8e1c2d-aaaa-4bbb-8ccc-1234567890ab", "edge-01:42", "A.b_c-D:9", "x".repeat(128)])
      expect(saneRequestId(id)).toBe(id);
  });

  it("is refused when empty, too long, repeated or not an id", () => {
    for (const id of [
      undefined,
      "",
      "x".repeat(129),
      ["a", "b"],
      "has space",
      "a\nforged line",
      '{"level":"info"}',
      "x@example.com",
      "/path?q=1",
      "ünïcode",
    ])
      expect(saneRequestId(id)).toBeUndefined();
  });
});

describe("the id a request goes by", () => {
  it("is the trusted proxy's when sane", () => {
    expect(requestIdFor("edge-7", 1)).toBe("edge-7");
  });

  it("is made here without a trusted proxy, whatever the client sent", () => {
    expect(requestIdFor("edge-7", 0)).toMatch(uuid);
  });

  it("is made here when the proxy's is not sane", () => {
    expect(requestIdFor("not sane", 1)).toMatch(uuid);
    expect(requestIdFor(undefined, 2)).toMatch(uuid);
  });

  it("is new for every request", () => {
    expect(requestIdFor(undefined, 0)).not.toBe(requestIdFor(undefined, 0));
  });
});
