import { describe, expect, it } from "vitest";
import { dueDay, localTime } from "~/notify/digest/clock";

describe("the spam digest's clock", () => {
  it("counts the day and the hour in the business's time zone", () => {
    const at = new Date("2026-10-31T23:30:00Z");
    expect(localTime(at, "UTC")).toEqual({ day: "2026-10-31", hour: 23 });
    expect(localTime(at, "Europe/Berlin")).toEqual({ day: "2026-11-01", hour: 0 }); // CET, UTC+1
    expect(localTime(at, "America/Los_Angeles")).toEqual({ day: "2026-10-31", hour: 16 }); // PDT, UTC-7
  });

  it("is due from the hour to the end of the local day, never before, and never when off", () => {
    const zone = "America/New_York"; // EDT on 2026-10-15, UTC-4
    expect(dueDay(new Date("2026-10-15T11:59:59Z"), zone, 8)).toBeNull(); // 07:59:59
    expect(dueDay(new Date("2026-10-15T12:00:00Z"), zone, 8)).toBe("2026-10-15"); // 08:00
    expect(dueDay(new Date("2026-10-16T03:59:59Z"), zone, 8)).toBe("2026-10-15"); // 23:59:59, late but that day
    expect(dueDay(new Date("2026-10-16T04:00:00Z"), zone, 8)).toBeNull(); // 00:00 the next day: not yet
    expect(dueDay(new Date("2026-10-16T04:00:00Z"), zone, 0)).toBe("2026-10-16");
    expect(dueDay(new Date("2026-10-15T12:00:00Z"), zone, null)).toBeNull();
  });

  it("takes an hour a clock change skips as come at the next one", () => {
    // Europe/Berlin springs forward on 2026-03-29: 02:00 CET becomes 03:00 CEST (01:00 UTC).
    expect(dueDay(new Date("2026-03-29T00:59:00Z"), "Europe/Berlin", 2)).toBeNull(); // 01:59 CET
    expect(dueDay(new Date("2026-03-29T01:00:00Z"), "Europe/Berlin", 2)).toBe("2026-03-29"); // 03:00 CEST
  });
});
