import { describe, expect, it } from "vitest";
import { addDays, dueAtOf, isDay, localDay } from "~/store/reminder-time";

const iso = (ms: number) => new Date(ms).toISOString();

describe("a reminder's due time: REMINDER_HOUR of the day in SITE_TIMEZONE", () => {
  it("is the hour of that day in the zone, on ordinary days", () => {
    expect(iso(dueAtOf("2026-11-27", 8, "UTC"))).toBe("2026-11-27T08:00:00.000Z");
    expect(iso(dueAtOf("2026-11-27", 8, "Europe/London"))).toBe("2026-11-27T08:00:00.000Z");
    expect(iso(dueAtOf("2026-07-01", 8, "Europe/London"))).toBe("2026-07-01T07:00:00.000Z");
    expect(iso(dueAtOf("2026-11-27", 8, "America/New_York"))).toBe("2026-11-27T13:00:00.000Z");
    expect(iso(dueAtOf("2026-11-27", 8, "Asia/Kolkata"))).toBe("2026-11-27T02:30:00.000Z");
    expect(iso(dueAtOf("2026-11-27", 8, "Etc/GMT-14"))).toBe("2026-11-26T18:00:00.000Z");
  });

  it("hour 0 and hour 23 stay on the chosen day in the zone, whichever UTC day that is", () => {
    expect(iso(dueAtOf("2026-11-27", 0, "Europe/Berlin"))).toBe("2026-11-26T23:00:00.000Z");
    expect(iso(dueAtOf("2026-11-27", 23, "Europe/Berlin"))).toBe("2026-11-27T22:00:00.000Z");
    expect(iso(dueAtOf("2026-11-27", 23, "America/Los_Angeles"))).toBe("2026-11-28T07:00:00.000Z");
    expect(iso(dueAtOf("2026-01-01", 0, "Pacific/Auckland"))).toBe("2025-12-31T11:00:00.000Z");
    for (const zone of ["Europe/Berlin", "America/Los_Angeles", "Pacific/Auckland", "Etc/GMT+12"]) {
      expect(localDay(new Date(dueAtOf("2026-03-08", 0, zone)), zone)).toBe("2026-03-08");
      expect(localDay(new Date(dueAtOf("2026-03-08", 23, zone)), zone)).toBe("2026-03-08");
    }
  });

  it("on the days the clocks change: before and after the change on the day, a skipped hour at the jump", () => {
    // Europe/Berlin: 29 March 2026 02:00 CET -> 03:00 CEST; 25 October 03:00 CEST -> 02:00 CET.
    expect(iso(dueAtOf("2026-03-29", 1, "Europe/Berlin"))).toBe("2026-03-29T00:00:00.000Z");
    expect(iso(dueAtOf("2026-03-29", 2, "Europe/Berlin"))).toBe("2026-03-29T01:00:00.000Z"); // skipped: 03:00 CEST
    expect(iso(dueAtOf("2026-03-29", 3, "Europe/Berlin"))).toBe("2026-03-29T01:00:00.000Z");
    expect(iso(dueAtOf("2026-03-29", 8, "Europe/Berlin"))).toBe("2026-03-29T06:00:00.000Z");
    expect(iso(dueAtOf("2026-10-25", 2, "Europe/Berlin"))).toBe("2026-10-25T00:00:00.000Z"); // twice: the first
    expect(iso(dueAtOf("2026-10-25", 8, "Europe/Berlin"))).toBe("2026-10-25T07:00:00.000Z");
    expect(iso(dueAtOf("2026-10-24", 8, "Europe/Berlin"))).toBe("2026-10-24T06:00:00.000Z");
    // America/New_York: 8 March 2026 02:00 EST -> 03:00 EDT; 1 November 02:00 EDT -> 01:00 EST.
    expect(iso(dueAtOf("2026-03-08", 0, "America/New_York"))).toBe("2026-03-08T05:00:00.000Z");
    expect(iso(dueAtOf("2026-03-08", 2, "America/New_York"))).toBe("2026-03-08T07:00:00.000Z");
    expect(iso(dueAtOf("2026-03-08", 23, "America/New_York"))).toBe("2026-03-09T03:00:00.000Z");
    expect(iso(dueAtOf("2026-11-01", 1, "America/New_York"))).toBe("2026-11-01T05:00:00.000Z");
    expect(iso(dueAtOf("2026-11-01", 8, "America/New_York"))).toBe("2026-11-01T13:00:00.000Z");
    // Southern hemisphere: Sydney leaves summer time on 5 April 2026 (03:00 -> 02:00).
    expect(iso(dueAtOf("2026-04-05", 8, "Australia/Sydney"))).toBe("2026-04-04T22:00:00.000Z");
    expect(iso(dueAtOf("2026-04-04", 8, "Australia/Sydney"))).toBe("2026-04-03T21:00:00.000Z");
  });

  it("reads days strictly and counts them on the calendar", () => {
    expect(isDay("2026-11-27")).toBe(true);
    expect(isDay("2028-02-29")).toBe(true);
    for (const bad of ["2026-02-30", "2026-13-01", "27/11/2026", "2026-11-27T08:00", "", "tomorrow", "1969-12-31"])
      expect(isDay(bad)).toBe(false);
    expect(addDays("2026-11-27", 1)).toBe("2026-11-28");
    expect(addDays("2026-12-29", 7)).toBe("2027-01-05");
    expect(addDays("2026-03-28", 1)).toBe("2026-03-29");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(localDay(new Date("2026-11-27T23:30:00Z"), "Europe/Berlin")).toBe("2026-11-28");
  });
});
