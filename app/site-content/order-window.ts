import type { SiteContent } from "~/site-content/schema.server";

/**
 * The season's one business rule as behaviour: orders are open while the owner says so and the close date
 * has not begun in the business's time zone (SITE_TIMEZONE). Dates are compared as local calendar days, so the change
 * happens at that zone's midnight whatever the server's own zone; `changesAt` is that instant, for caches to expire.
 */

/** The calendar day (YYYY-MM-DD) it is at `now` in `timeZone`. */
export function localDate(now: Date, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

/** How far `timeZone` is ahead of UTC at `at` (ms). */
function zoneOffset(at: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    })
      .formatToParts(at)
      .map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(at / 1000) * 1000;
}

/**
 * The first instant of `date` (YYYY-MM-DD) in `timeZone`: its midnight, or where a zone skips midnight (a daylight
 * saving change at 00:00), the first moment that day exists.
 */
export function startOfDay(date: string, timeZone: string): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(year, month - 1, day);
  let at = utcMidnight - zoneOffset(utcMidnight, timeZone);
  at = utcMidnight - zoneOffset(at, timeZone);
  // Never before the day has begun there (a skipped midnight): step forward to it.
  while (localDate(new Date(at), timeZone) < date) at += 15 * 60_000;
  // Nor after: the earliest instant that is already `date`, to the minute.
  while (localDate(new Date(at - 60_000), timeZone) === date) at -= 60_000;
  return at;
}

export interface OrderWindow {
  open: boolean;
  /** When the window closes by itself (the close date's midnight), while it is open and a date is set. */
  changesAt: number | null;
}

export function orderWindow(season: SiteContent["season"], now: Date, timeZone: string): OrderWindow {
  const closedByDate = season.closesOn !== null && localDate(now, timeZone) >= season.closesOn;
  const open = season.ordersOpen && !closedByDate;
  return { open, changesAt: open && season.closesOn ? startOfDay(season.closesOn, timeZone) : null };
}

/** Halloween of the season year has passed: the site still offers a season that is over. */
export function seasonIsOver(year: number, now: Date, timeZone: string): boolean {
  return localDate(now, timeZone) > `${year}-10-31`;
}
