import { describe, expect, it } from "vitest";
import { readPlace, readWaitlistPlace, waitlistPages, waitlistPlaceQuery } from "~/owner/query";

const at = (query: string) => new URL(`http://site.example/inbox/waitlist${query}`);

describe("the Waitlist page's place", () => {
  it("reads the state and the page; anything else is all of the list's first page", () => {
    expect(readWaitlistPlace(at(""))).toEqual({ state: "all", page: 1 });
    expect(readWaitlistPlace(at("?state=confirmed&page=3"))).toEqual({ state: "confirmed", page: 3 });
    for (const bad of ["?page=0", "?page=-2", "?page=abc", "?page=", "?page=1e9", "?page=100001", "?state=DROP"])
      expect(readWaitlistPlace(at(bad))).toEqual({ state: "all", page: 1 });
    // The inbox reads its page the same way.
    expect(readPlace(at("?page=abc")).page).toBe(1);
    expect(readPlace(at("?page=7")).page).toBe(7);
  });

  it("writes only what differs from the defaults, then what follows", () => {
    expect(waitlistPlaceQuery({ state: "all", page: 1 })).toBe("");
    expect(waitlistPlaceQuery({ state: "pending", page: 2 })).toBe("?state=pending&page=2");
    expect(waitlistPlaceQuery({ state: "all", page: 1 }, { erased: "1" })).toBe("?erased=1");
    expect(waitlistPlaceQuery({ state: "all", page: 3 }, { erased: "0" })).toBe("?page=3&erased=0");
  });

  it("counts the pages, at least one", () => {
    expect([0, 1, 100, 101, 250].map(waitlistPages)).toEqual([1, 1, 1, 2, 3]);
  });
});
