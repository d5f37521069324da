import { describe, expect, it } from "vitest";
import { canonicalPath } from "~/http/canonical-path";

describe("canonicalPath", () => {
  it.each([
    ["/", "/"],
    ["/about", "/about"],
    ["/ABOUT", "/about"],
    ["/about/", "/about"],
    ["/about///", "/about"],
    ["//about", "/about"],
    ["/%61bout", "/about"],
    ["/%41BOUT", "/about"],
    ["/x/../about", "/about"],
    ["/./about/.", "/about"],
    ["/../..", "/"],
    ["/about.data", "/about.data"],
    ["/caf%c3%a9", "/caf%C3%A9"],
    ["/a%2fb", "/a%2Fb"],
  ])("%s -> %s", (path, canonical) => {
    expect(canonicalPath(path)).toBe(canonical);
    expect(canonicalPath(canonical)).toBe(canonical); // a fixed point: no redirect loop
  });
});
