import { describe, expect, it } from "vitest";
import { parseConfig } from "~/config.server";
import { refusal } from "../../tests/support/config-refusal";

describe("parseConfig: reminders", () => {
  it("reads REMINDER_HOUR (0-23, 8 unless set) in SITE_TIMEZONE, refusing bad values naming it", () => {
    expect(parseConfig({}).reminders).toEqual({ hour: 8, timeZone: "UTC" });
    expect(parseConfig({ REMINDER_HOUR: "" }).reminders?.hour).toBe(8);
    expect(parseConfig({ REMINDER_HOUR: "0", SITE_TIMEZONE: "Europe/Berlin" }).reminders).toEqual({
      hour: 0,
      timeZone: "Europe/Berlin",
    });
    expect(parseConfig({ REMINDER_HOUR: " 23 " }).reminders?.hour).toBe(23);
    for (const bad of ["24", "-1", "8am", "7.5", "off"]) {
      expect(refusal({ REMINDER_HOUR: bad })).toMatch(/REMINDER_HOUR: must be an hour from 0 to 23/);
    }
  });
});
