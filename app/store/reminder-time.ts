/**
 * A reminder's days and times: the owner picks a day (YYYY-MM-DD, the business's calendar), and the reminder is due at
 * REMINDER_HOUR:00 of it in SITE_TIMEZONE. Pure, so the clock changes can be tested without waiting for them.
 */

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayMs = 24 * 60 * 60_000;

/** A real calendar day written YYYY-MM-DD (not 2026-02-30). */
export function isDay(text: string): boolean {
  const match = dayPattern.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day && year >= 1970;
}

/** The day `count` days after `day` (before, when negative), on the calendar: no time zone is involved. */
export function addDays(day: string, count: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date) + count * dayMs).toISOString().slice(0, 10);
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time at `at` in the zone, written as if it were UTC (milliseconds), to the second. */
function wallClock(at: number, timeZone: string): number {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(at)).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** The local day (YYYY-MM-DD) at `at` in the time zone. */
export const localDay = (at: Date, timeZone: string): string =>
  new Date(wallClock(at.getTime(), timeZone)).toISOString().slice(0, 10);

/** How far ahead of UTC the zone's clocks are at `at` (milliseconds). */
const offsetAt = (at: number, timeZone: string) =>
  wallClock(Math.floor(at / 1000) * 1000, timeZone) - Math.floor(at / 1000) * 1000;

/**
 * The moment (ms since the epoch) `day` at `hour`:00 happens in the zone. Around a clock change: an hour that happens
 * twice (the autumn night) is its first time; an hour that is skipped (the spring night) is the moment the clocks jump
 * past it, the next hour that exists.
 */
export function dueAtOf(day: string, hour: number, timeZone: string): number {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, date, hour);
  // The zone's offsets the day before, on the day and the day after: the moment is the wall time less one of them.
  const offsets = new Set([wall - dayMs, wall, wall + dayMs].map((at) => offsetAt(at, timeZone)));
  const moments = [...offsets]
    .map((offset) => wall - offset)
    .filter((moment) => wallClock(moment, timeZone) === wall)
    .sort((a, b) => a - b);
  if (moments.length > 0) return moments[0]!;
  // Skipped: with the offset before the change, the wall time lands at the jump itself.
  return wall - offsetAt(wall - dayMs, timeZone);
}

/** The days the shortcut buttons stand for, from today in the business's calendar. */
export const shortcutDays = { tomorrow: 1, "in-3-days": 3, "in-a-week": 7 } as const;
export type Shortcut = keyof typeof shortcutDays;
export const isShortcut = (value: string): value is Shortcut => Object.hasOwn(shortcutDays, value);
