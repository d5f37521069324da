import { describe, expect, it } from "vitest";
import { isCrossSite, isCrossSiteRequest } from "./cross-site";

describe("isCrossSite: what the browser says about the request, never PUBLIC_URL", () => {
  const host = "127.0.0.1:3000";
  it.each([
    ["same-origin, own Origin", "same-origin", "http://127.0.0.1:3000"],
    ["same-origin alone", "same-origin", undefined],
    ["the user's own action", "none", undefined],
    ["own Origin alone (an older browser)", undefined, "http://127.0.0.1:3000"],
    ["neither header: not a browser", undefined, undefined],
  ])("%s passes", (_what, fetchSite, origin) => {
    expect(isCrossSite({ fetchSite, origin, host })).toBe(false);
  });

  it.each([
    ["cross-site", "cross-site", undefined],
    ["same-site (a sibling sub-domain)", "same-site", "http://www.example.com"],
    ["another Origin", undefined, "http://evil.example"],
    ["the PUBLIC_URL's name when the request came to another", undefined, "http://localhost:3000"],
    ["Origin null", undefined, "null"],
    ["garbage Origin", undefined, "not an origin"],
    ["own Origin but cross-site", "cross-site", "http://127.0.0.1:3000"],
    ["same-origin but another Origin (both must agree)", "same-origin", "http://evil.example"],
  ])("%s is refused", (_what, fetchSite, origin) => {
    expect(isCrossSite({ fetchSite, origin, host })).toBe(true);
  });

  it("a Request's own host is its URL's", () => {
    const post = (headers: Record<string, string>) =>
      new Request("http://localhost:3000/inbox/login", { method: "POST", headers });
    expect(isCrossSiteRequest(post({ Origin: "http://localhost:3000" }))).toBe(false);
    expect(isCrossSiteRequest(post({ Origin: "http://127.0.0.1:3000" }))).toBe(true);
  });
});
