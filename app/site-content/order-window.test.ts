import { describe, expect, it } from "vitest";
import { localDate, orderWindow, seasonIsOver, startOfDay } from "~/site-content/order-window";

const season = { year: 2026, ordersOpen: true, closesOn: "2026-09-01", closedLine: "" };

describe("the order window", () => {
  it("is open before the close date and closed from its midnight in the business's time zone", () => {
    const tz = "America/New_York"; // UTC-4 in September
    expect(orderWindow(season, new Date("2026-09-01T03:59:59Z"), tz).open).toBe(true);
    expect(orderWindow(season, new Date("2026-09-01T04:00:00Z"), tz).open).toBe(false);
    // In UTC the same instants are both already 1 September.
    expect(orderWindow(season, new Date("2026-09-01T03:59:59Z"), "UTC").open).toBe(false);
  });

  it("says when it closes by itself: the close date's midnight there", () => {
    const window = orderWindow(season, new Date("2026-08-01T12:00:00Z"), "Europe/Berlin");
    expect(window).toEqual({ open: true, changesAt: Date.parse("2026-08-31T22:00:00Z") });
    expect(orderWindow({ ...season, closesOn: null }, new Date(), "UTC")).toEqual({ open: true, changesAt: null });
  });

  it("is closed when the owner switched it off, or by any close date in the past", () => {
    expect(orderWindow({ ...season, ordersOpen: false }, new Date("2026-01-01T00:00:00Z"), "UTC")).toEqual({
      open: false,
      changesAt: null,
    });
    expect(orderWindow({ ...season, closesOn: "2001-01-01" }, new Date(), "UTC").open).toBe(false);
  });

  it("finds a day's first instant across daylight-saving changes, also where midnight does not exist", () => {
    expect(new Date(startOfDay("2026-03-29", "Europe/London")).toISOString()).toBe("2026-03-29T00:00:00.000Z");
    expect(new Date(startOfDay("2026-10-25", "Europe/London")).toISOString()).toBe("2026-10-24T23:00:00.000Z");
    expect(new Date(startOfDay("2026-07-01", "Pacific/Auckland")).toISOString()).toBe("2026-06-30T12:00:00.000Z");
    // Santiago moves its clocks forward at midnight: 2026-09-06 begins at 01:00 local time.
    const santiago = startOfDay("2026-09-06", "America/Santiago");
    expect(localDate(new Date(santiago), "America/Santiago")).toBe("2026-09-06");
    expect(localDate(new Date(santiago - 1), "America/Santiago")).toBe("2026-09-05");
  });

  it("calls the season over once Halloween of its year has passed there", () => {
    expect(seasonIsOver(2025, new Date("2025-10-31T23:00:00Z"), "UTC")).toBe(false);
    expect(seasonIsOver(2025, new Date("2025-11-01T00:00:00Z"), "UTC")).toBe(true);
    expect(seasonIsOver(2025, new Date("2025-11-01T03:00:00Z"), "America/Los_Angeles")).toBe(false);
  });
});
