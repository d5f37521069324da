import { describe, expect, it } from "vitest";
import { pipelineCopy, waitedFor } from "~/wording/pipeline";

const hour = 3_600_000;

describe("who is waiting, in words", () => {
  it("says how many wait and for how long the oldest has, in the largest whole unit", () => {
    expect(pipelineCopy.waiting(3, 4 * 24 * hour + 5 * hour)).toBe(
      "3 customers are waiting for a reply, the oldest for 4 days.",
    );
    expect(pipelineCopy.waiting(1, 24 * hour)).toBe("1 customer is waiting for a reply, the oldest for 1 day.");
    expect(waitedFor(5 * hour + 59 * 60_000)).toBe("5 hours");
    expect(waitedFor(hour)).toBe("1 hour");
    expect(waitedFor(59 * 60_000)).toBe("less than an hour");
  });
});
