import { figuresCopy } from "~/wording/figures";
import type { CountedLostReason, FigureGroup, MonthSpan } from "~/store/figures.types";
import { lostReasons } from "~/store/pipeline.types";

/**
 * The Figures page's and its CSV's numbers, from the store's groups (app/store/figures.server.ts): a year's months, the
 * year, the same by service, the chart's bars as geometry. Pure: the route's loader runs it on the server and the page
 * only writes out what it returns (no chart code reaches the browser).
 */

/** The site's time zone's calendar (app/site-content/order-window.ts), handed in: this floor cannot import it. */
export interface ZoneCalendar {
  /** The calendar day (YYYY-MM-DD) an instant falls on. */
  localDate(at: Date): string;
  /** The first instant of a calendar day (YYYY-MM-DD). */
  startOfDay(date: string): number;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The year's twelve months as instants in the site's time zone. */
export function yearMonths(year: number, calendar: ZoneCalendar): MonthSpan[] {
  return Array.from({ length: 12 }, (_, index) => {
    const month = index + 1;
    const next = month === 12 ? `${year + 1}-01-01` : `${year}-${pad(month + 1)}-01`;
    return {
      year,
      month,
      from: calendar.startOfDay(`${year}-${pad(month)}-01`),
      to: calendar.startOfDay(next),
    };
  });
}

/** The years the picker offers, newest first: from the first counted enquiry's to this one (or a later enquiry's). */
export function seasonYears(span: { first: Date; last: Date } | null, now: Date, calendar: ZoneCalendar): number[] {
  const yearOf = (at: Date) => Number(calendar.localDate(at).slice(0, 4));
  const thisYear = yearOf(now);
  const first = span ? Math.min(yearOf(span.first), thisYear) : thisYear;
  const last = span ? Math.max(yearOf(span.last), thisYear) : thisYear;
  return Array.from({ length: last - first + 1 }, (_, index) => last - index);
}

/** The year asked for (`?year=`): this year when none; null for one the picker does not offer. */
export function chosenYear(asked: string | null, years: readonly number[], thisYear: number): number | null {
  if (asked === null || asked === "") return thisYear;
  if (!/^\d{4}$/.test(asked)) return null;
  const year = Number(asked);
  return years.includes(year) ? year : null;
}

/** One line of figures: a month, the year, or a service's year. */
export interface FigureLine {
  enquiries: number;
  spam: number;
  replied: number;
  quoted: number;
  won: number;
  lost: Record<CountedLostReason, number>;
  lostTotal: number;
  /** Won over the enquiries that are not spam (0 to 1); null when there are none. */
  conversion: number | null;
  medianReplyMs: number | null;
  quotedTotal: number;
  wonTotal: number;
}

export const countedLostReasons: readonly CountedLostReason[] = [...lostReasons, "unstated"];

const noneLost = (): Record<CountedLostReason, number> =>
  Object.fromEntries(countedLostReasons.map((reason) => [reason, 0])) as Record<CountedLostReason, number>;

export function lineOf(group: FigureGroup | undefined): FigureLine {
  const lost = group ? { ...noneLost(), ...group.lost } : noneLost();
  const enquiries = group?.enquiries ?? 0;
  const spam = group?.spam ?? 0;
  const won = group?.won ?? 0;
  const counted = enquiries - spam;
  return {
    enquiries,
    spam,
    replied: group?.replied ?? 0,
    quoted: group?.quoted ?? 0,
    won,
    lost,
    lostTotal: countedLostReasons.reduce((sum, reason) => sum + lost[reason], 0),
    conversion: counted > 0 ? won / counted : null,
    medianReplyMs: group?.medianReplyMs ?? null,
    quotedTotal: group?.quotedTotal ?? 0,
    wonTotal: group?.wonTotal ?? 0,
  };
}

/** A service's line: its name, or null for the enquiries that chose none. */
export interface ServiceLine {
  service: string | null;
  /** This service's months, January first (for the CSV). */
  months: FigureLine[];
  year: FigureLine;
}

export interface YearFigures {
  year: number;
  /** January to December. */
  months: FigureLine[];
  total: FigureLine;
  services: ServiceLine[];
}

/**
 * A year's figures from the store's groups: every month (a month without an enquiry is all zeros), the year, and each
 * service: the published ones in their order, then any other name an enquiry still carries (a service renamed or
 * taken off since), then the enquiries that chose none when there are any.
 */
export function yearFigures(groups: readonly FigureGroup[], year: number, published: readonly string[]): YearFigures {
  const ofYear = groups.filter((group) => group.year === year);
  const find = (month: number | null, perService: boolean, service: string | null) =>
    ofYear.find((group) => group.month === month && group.perService === perService && group.service === service);
  const months = (perService: boolean, service: string | null) =>
    Array.from({ length: 12 }, (_, index) => lineOf(find(index + 1, perService, service)));
  const named = new Set(
    ofYear.filter((group) => group.perService && group.service !== null).map((group) => group.service!),
  );
  const others = [...named].filter((name) => !published.includes(name)).sort((a, b) => a.localeCompare(b));
  const withNone = ofYear.some((group) => group.perService && group.service === null);
  const services: (string | null)[] = [...published, ...others, ...(withNone ? [null] : [])];
  return {
    year,
    months: months(false, null),
    total: lineOf(find(null, false, null)),
    services: services.map((service) => ({
      service,
      months: months(true, service),
      year: lineOf(find(null, true, service)),
    })),
  };
}

/** A currency's minor units per unit (100 for USD and EUR, 1 for JPY), as Intl knows it. */
function minorDigits(currency: string): number {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** An amount in minor units as the owner reads it ("$1,250.00"), en-US as the site's other prices. */
export function formatAmount(minor: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(minor / 10 ** minorDigits(currency));
}

/** An amount in minor units as a spreadsheet reads it: a plain decimal number ("1250.00"). */
export function plainAmount(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}

/** A share (0 to 1) as a percentage with at most one decimal ("33.3%"). */
export function formatShare(share: number | null): string {
  if (share === null) return figuresCopy.none;
  return new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 }).format(share);
}

/** A wait as the owner reads it: minutes under an hour, hours under two days, then days. */
export function formatWait(ms: number | null): string {
  if (ms === null) return figuresCopy.none;
  const minutes = Math.round(ms / 60_000);
  const words = figuresCopy.duration;
  if (minutes < 60) return words.minutes(minutes);
  if (minutes < 48 * 60) return words.hours(Math.floor(minutes / 60), minutes % 60);
  const hours = Math.round(minutes / 60);
  return words.days(Math.floor(hours / 24), hours % 24);
}

/** What a line shows on the page: every figure already written out, so the page only places strings. */
export interface ShownLine {
  label: string;
  enquiries: string;
  spam: string;
  replied: string;
  quoted: string;
  won: string;
  lost: string;
  /** Lost by reason, those that are not zero (["price 2", "timing 1"]), one a line under the count. */
  lostReasons: string[];
  conversion: string;
  medianReply: string;
  quotedTotal: string;
  wonTotal: string;
}

export function shownLine(label: string, line: FigureLine, currency: string): ShownLine {
  return {
    label,
    enquiries: String(line.enquiries),
    spam: String(line.spam),
    replied: String(line.replied),
    quoted: String(line.quoted),
    won: String(line.won),
    lost: String(line.lostTotal),
    lostReasons: countedLostReasons
      .filter((reason) => line.lost[reason] > 0)
      .map((reason) => `${figuresCopy.lostReasons[reason]} ${line.lost[reason]}`),
    conversion: formatShare(line.conversion),
    medianReply: formatWait(line.medianReplyMs),
    quotedTotal: formatAmount(line.quotedTotal, currency),
    wonTotal: formatAmount(line.wonTotal, currency),
  };
}

const serviceLabel = (service: string | null) => service ?? figuresCopy.noService;

/** The page's tables: the months and the year; each service's year and, under it, all services together. */
export function shownYear(figures: YearFigures, currency: string) {
  return {
    months: figures.months.map((line, index) => shownLine(figuresCopy.months[index]!, line, currency)),
    total: shownLine(figuresCopy.yearTotal, figures.total, currency),
    services: figures.services.map(({ service, year }) => shownLine(serviceLabel(service), year, currency)),
  };
}

function csvCells(year: number, month: number | null, service: string, line: FigureLine, currency: string): string[] {
  return [
    String(year),
    month === null ? figuresCopy.csv.wholeYear : String(month),
    service,
    String(line.enquiries),
    String(line.spam),
    String(line.replied),
    String(line.quoted),
    String(line.won),
    String(line.lostTotal),
    ...countedLostReasons.map((reason) => String(line.lost[reason])),
    line.conversion === null ? "" : (line.conversion * 100).toFixed(1),
    line.medianReplyMs === null ? "" : String(Math.round(line.medianReplyMs / 60_000)),
    plainAmount(line.quotedTotal, currency),
    plainAmount(line.wonTotal, currency),
  ];
}

/**
 * The CSV's rows (app/text/csv.ts writes them): every month and the whole year, all services together first, then
 * each service's. Amounts as plain decimals, the conversion in percent, the median in minutes; empty where there is
 * nothing to divide.
 */
export function figuresCsvRows(figures: YearFigures, currency: string): string[][] {
  const block = (service: string, months: readonly FigureLine[], year: FigureLine) => [
    ...months.map((line, index) => csvCells(figures.year, index + 1, service, line, currency)),
    csvCells(figures.year, null, service, year, currency),
  ];
  return [
    ...block(figuresCopy.allServices, figures.months, figures.total),
    ...figures.services.flatMap(({ service, months, year }) => block(serviceLabel(service), months, year)),
  ];
}

/** One bar of the chart, in the SVG's own units. */
export interface Bar {
  kind: "enquiries" | "won";
  month: number;
  x: number;
  y: number;
  width: number;
  height: number;
  value: number;
  /** Its tooltip and accessible name ("March: 12 enquiries"). */
  label: string;
}

export interface Chart {
  width: number;
  height: number;
  /** Where the bars stand (the x axis), and where they begin (the guides' values are left of it). */
  baseline: number;
  left: number;
  bars: Bar[];
  /** The months' initials under their bars. */
  ticks: { x: number; label: string }[];
  /** Horizontal guide lines with their values. */
  guides: { y: number; value: number }[];
}

/** A round top for the axis: an even digit times a power of ten (so its half is whole), at least the largest value. */
export function axisTop(largest: number): number {
  const at = Math.max(4, largest);
  const power = 10 ** Math.floor(Math.log10(at));
  return [2, 4, 6, 8, 10].map((step) => step * power).find((top) => top >= at)!;
}

/**
 * The chart of enquiries and wins per month as geometry: two bars per month on a shared axis (a month without any has
 * bars of height 0, so there is always one per month). The viewBox scales to the page's width.
 */
export function monthChart(months: readonly FigureLine[]): Chart {
  // Narrow enough that its 16-unit text stays readable when a phone scales it to 360 px.
  const width = 480;
  const height = 220;
  const left = 36;
  const top = 12;
  const baseline = height - 28;
  const slot = (width - left - 8) / 12;
  const barWidth = slot * 0.36;
  const highest = axisTop(Math.max(0, ...months.map((line) => line.enquiries)));
  const scale = (baseline - top) / highest;
  const bars = months.flatMap((line, index) => {
    const month = index + 1;
    const name = figuresCopy.months[index]!;
    const x = left + index * slot + slot * 0.12;
    return (["enquiries", "won"] as const).map((kind, which) => {
      const value = kind === "enquiries" ? line.enquiries : line.won;
      const barHeight = Math.round(value * scale * 10) / 10;
      return {
        kind,
        month,
        x: Math.round((x + which * barWidth) * 10) / 10,
        y: Math.round((baseline - barHeight) * 10) / 10,
        width: Math.round(barWidth * 10) / 10,
        height: barHeight,
        value,
        label: figuresCopy.chart.bar(name, figuresCopy.chart[kind], value),
      };
    });
  });
  return {
    width,
    height,
    baseline,
    left,
    bars,
    ticks: months.map((_, index) => ({
      x: Math.round((left + index * slot + slot / 2) * 10) / 10,
      label: figuresCopy.shortMonths[index]!,
    })),
    guides: [0, 0.5, 1].map((share) => ({
      y: Math.round((baseline - share * highest * scale) * 10) / 10,
      value: share * highest,
    })),
  };
}
