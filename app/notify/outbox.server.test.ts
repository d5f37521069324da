import { describe, expect, it } from "vitest";
import { afterFailure, maxRetryMs, retryDelayMs, retryWindowMs } from "~/notify/outbox.server";

describe("the retry schedule", () => {
  it("retries the first failure within 10 s", () => {
    expect(retryDelayMs(1)).toBeGreaterThan(0);
    expect(retryDelayMs(1)).toBeLessThanOrEqual(10_000);
  });

  it("never more than doubles an interval, never shrinks one, and stops growing at 15 minutes", () => {
    for (let attempts = 2; attempts < 200; attempts++) {
      expect(retryDelayMs(attempts)).toBeLessThanOrEqual(2 * retryDelayMs(attempts - 1));
      expect(retryDelayMs(attempts)).toBeGreaterThanOrEqual(retryDelayMs(attempts - 1));
      expect(retryDelayMs(attempts)).toBeLessThanOrEqual(15 * 60_000);
    }
    expect(retryDelayMs(200)).toBe(maxRetryMs);
    expect(maxRetryMs).toBe(15 * 60_000);
  });

  it("keeps trying for at least 24 hours after the enquiry was stored, then gives up", () => {
    const stored = new Date("2026-10-01T00:00:00Z");
    // Walk the schedule as the outbox would, each attempt failing at once.
    let now = stored;
    let attempts = 1;
    for (;;) {
      const next = afterFailure(attempts, stored, now);
      if ("giveUp" in next) break;
      now = next.retryAt;
      attempts += 1;
    }
    expect(now.getTime() - stored.getTime()).toBeGreaterThanOrEqual(24 * 60 * 60_000);
    // ...and not much longer than a day: the last interval is at most 15 minutes.
    expect(now.getTime() - stored.getTime()).toBeLessThan(retryWindowMs + maxRetryMs);
    expect(attempts).toBeGreaterThan(90);
  });

  it("gives up at once on a failure more than 24 hours after the enquiry was stored", () => {
    const stored = new Date("2026-10-01T00:00:00Z");
    expect(afterFailure(3, stored, new Date("2026-10-02T00:00:01Z"))).toEqual({ giveUp: true });
    expect(afterFailure(3, stored, new Date("2026-10-01T23:59:59Z"))).toEqual({
      retryAt: new Date("2026-10-02T00:00:19Z"),
    });
  });
});
