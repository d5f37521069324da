import { describe, expect, it } from "vitest";
import { afterFailure, maxRetryMs, retryDelayMs, retryWindowMs } from "~/notify/outbox-round.server";

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
    expect(afterFailure(3, stored, new Date("2026-10-01T23:59:59Z"), { random: () => 0.999_999_9 })).toEqual({
      retryAt: new Date("2026-10-02T00:00:19Z"),
    });
  });

  it("spreads retries between half and all of the backoff, so failures that came together do not return together", () => {
    const stored = new Date("2026-10-01T00:00:00Z");
    const now = new Date("2026-10-01T01:00:00Z");
    const waits = Array.from({ length: 200 }, () => {
      const next = afterFailure(5, stored, now);
      if ("giveUp" in next) throw new Error("gave up");
      return next.retryAt.getTime() - now.getTime();
    });
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(retryDelayMs(5) / 2);
      expect(wait).toBeLessThanOrEqual(retryDelayMs(5));
    }
    expect(new Set(waits).size).toBeGreaterThan(150);
  });

  it("honours the pause a service asked for (Retry-After), even beyond the backoff", () => {
    const stored = new Date("2026-10-01T00:00:00Z");
    const now = new Date("2026-10-01T00:00:10Z");
    const next = afterFailure(1, stored, now, { retryAfterMs: 120_000, random: () => 0.5 });
    expect(next).toEqual({ retryAt: new Date(now.getTime() + 120_500) });
  });

  it("gives up at once on a permanent refusal", () => {
    const stored = new Date("2026-10-01T00:00:00Z");
    expect(afterFailure(1, stored, new Date("2026-10-01T00:00:01Z"), { permanent: true })).toEqual({ giveUp: true });
  });
});
