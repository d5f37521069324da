/**
 * The digest's clock: which day it is and whether the day's digest hour has come, in the business's time zone
 * (SITE_TIMEZONE). The day is the digest's key in the database: one digest per local day, whichever instance sends it.
 */

export interface LocalTime {
  /** The local date, YYYY-MM-DD. */
  day: string;
  /** The local hour, 0-23. */
  hour: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

export function localTime(at: Date, timeZone: string): LocalTime {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/**
 * The local day whose digest is due at `at`: today once its hour has come (and for the rest of the day, so an
 * instance that was down at that hour still sends it later that day); null before the hour or when the digest is off.
 * An hour a clock change skips (02:00 on the spring-forward night) is taken as come at the next hour that exists.
 */
export function dueDay(at: Date, timeZone: string, hour: number | null): string | null {
  if (hour === null) return null;
  const local = localTime(at, timeZone);
  return local.hour >= hour ? local.day : null;
}
