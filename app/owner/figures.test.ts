import { describe, expect, it } from "vitest";
import {
  axisTop,
  chosenYear,
  figuresCsvRows,
  formatAmount,
  formatShare,
  formatWait,
  lineOf,
  monthChart,
  plainAmount,
  seasonYears,
  shownLine,
  yearFigures,
  yearMonths,
  type ZoneCalendar,
} from "~/owner/figures";
import type { FigureGroup } from "~/store/figures.types";
import { localDate, startOfDay } from "~/site-content/order-window";

const zone = (timeZone: string): ZoneCalendar => ({
  localDate: (at) => localDate(at, timeZone),
  startOfDay: (day) => startOfDay(day, timeZone),
});
const hour = 60 * 60_000;

const group = (fields: Partial<FigureGroup>): FigureGroup => ({
  year: 2026,
  month: null,
  perService: false,
  service: null,
  enquiries: 0,
  spam: 0,
  replied: 0,
  quoted: 0,
  won: 0,
  lost: { price: 0, timing: 0, "no-answer": 0, elsewhere: 0, other: 0, unstated: 0 },
  medianReplyMs: null,
  quotedTotal: 0,
  wonTotal: 0,
  ...fields,
});

describe("the months of a season year", () => {
  it("run from midnight to midnight in the site's time zone, each to the next one's start", () => {
    const months = yearMonths(2026, zone("America/New_York"));
    expect(months).toHaveLength(12);
    expect(new Date(months[0]!.from).toISOString()).toBe("2026-01-01T05:00:00.000Z");
    // Summer time: four hours behind UTC.
    expect(new Date(months[6]!.from).toISOString()).toBe("2026-07-01T04:00:00.000Z");
    expect(new Date(months[11]!.to).toISOString()).toBe("2027-01-01T05:00:00.000Z");
    months.slice(1).forEach((month, index) => expect(month.from).toBe(months[index]!.to));
  });

  it("offers every year from the first enquiry's to this one, newest first; a year outside them is none", () => {
    const utc = zone("UTC");
    const now = new Date("2026-11-27T10:00:00Z");
    const years = seasonYears(
      { first: new Date("2024-03-01T00:00:00Z"), last: new Date("2026-10-01T00:00:00Z") },
      now,
      utc,
    );
    expect(years).toEqual([2026, 2025, 2024]);
    expect(seasonYears(null, now, utc)).toEqual([2026]);
    // New Year's Eve in UTC is already next year in Auckland.
    expect(seasonYears(null, new Date("2026-12-31T12:00:00Z"), zone("Pacific/Auckland"))).toEqual([2027]);
    expect(chosenYear(null, years, 2026)).toBe(2026);
    expect(chosenYear("2024", years, 2026)).toBe(2024);
    expect(chosenYear("2023", years, 2026)).toBeNull();
    expect(chosenYear("20x4", years, 2026)).toBeNull();
  });
});

describe("a line's figures", () => {
  it("converts won over the enquiries that are not spam, and has nothing to divide without any", () => {
    const line = lineOf(group({ enquiries: 10, spam: 2, won: 2, lost: { ...group({}).lost, price: 1, unstated: 2 } }));
    expect(line.conversion).toBe(0.25);
    expect(line.lostTotal).toBe(3);
    expect(lineOf(group({ enquiries: 3, spam: 3 })).conversion).toBeNull();
    expect(lineOf(undefined)).toMatchObject({ enquiries: 0, conversion: null, medianReplyMs: null, wonTotal: 0 });
  });

  it("writes amounts in the currency's minor unit, shares and waits as the owner reads them", () => {
    expect(formatAmount(125_050, "USD")).toBe("$1,250.50");
    expect(formatAmount(125_050, "JPY")).toBe("¥125,050");
    expect(plainAmount(125_050, "EUR")).toBe("1250.50");
    expect(plainAmount(7, "JPY")).toBe("7");
    expect(formatShare(1 / 3)).toBe("33.3%");
    expect(formatShare(0.5)).toBe("50%");
    expect(formatShare(null)).toBe("–");
    expect(formatWait(45 * 60_000)).toBe("45 min");
    expect(formatWait(3 * hour)).toBe("3 h");
    expect(formatWait(3 * hour + 20 * 60_000)).toBe("3 h 20 min");
    expect(formatWait(50 * hour)).toBe("2 days 2 h");
    expect(formatWait(24 * hour * 3)).toBe("3 days");
    expect(formatWait(null)).toBe("–");
    const shown = shownLine(
      "March",
      lineOf(group({ enquiries: 4, won: 1, lost: { ...group({}).lost, price: 2, timing: 1 } })),
      "USD",
    );
    expect(shown).toMatchObject({ label: "March", lost: "3", lostReasons: ["price 2", "timing 1"], conversion: "25%" });
  });
});

describe("a year's figures", () => {
  const groups: FigureGroup[] = [
    group({
      month: 3,
      enquiries: 3,
      spam: 1,
      won: 1,
      replied: 2,
      medianReplyMs: 2 * hour,
      quotedTotal: 50_000,
      wonTotal: 50_000,
      quoted: 1,
    }),
    group({ month: 10, enquiries: 2, won: 0, replied: 1 }),
    group({
      enquiries: 5,
      spam: 1,
      won: 1,
      replied: 3,
      medianReplyMs: 3 * hour,
      quoted: 1,
      quotedTotal: 50_000,
      wonTotal: 50_000,
    }),
    group({ perService: true, service: "Animatronics", month: 3, enquiries: 2, won: 1 }),
    group({ perService: true, service: "Animatronics", enquiries: 2, won: 1 }),
    group({ perService: true, service: "Old name", enquiries: 1 }),
    group({ perService: true, service: null, enquiries: 2, spam: 1 }),
    // Another year's groups are not this year's.
    group({ year: 2025, enquiries: 9 }),
  ];
  const published = ["Animatronics", "Props"];

  it("has twelve months (zeros where nothing came), the year, and each service in the site's order, then others, then none", () => {
    const figures = yearFigures(groups, 2026, published);
    expect(figures.months.map((line) => line.enquiries)).toEqual([0, 0, 3, 0, 0, 0, 0, 0, 0, 2, 0, 0]);
    expect(figures.total).toMatchObject({ enquiries: 5, medianReplyMs: 3 * hour, conversion: 0.25 });
    expect(figures.services.map((line) => line.service)).toEqual(["Animatronics", "Props", "Old name", null]);
    expect(figures.services[0]!.months[2]!.enquiries).toBe(2);
    expect(figures.services[0]!.year.conversion).toBe(0.5);
    expect(figures.services[1]!.year.enquiries).toBe(0);
  });

  it("writes the CSV: every month and the year for all services, then for each service", () => {
    const rows = figuresCsvRows(yearFigures(groups, 2026, published), "USD");
    expect(rows).toHaveLength(13 * 5);
    expect(rows[2]).toEqual([
      "2026",
      "3",
      "All services",
      "3",
      "1",
      "2",
      "1",
      "1",
      "0",
      "0",
      "0",
      "0",
      "0",
      "0",
      "0",
      "50.0",
      "120",
      "500.00",
      "500.00",
    ]);
    expect(rows[12]!.slice(0, 4)).toEqual(["2026", "all", "All services", "5"]);
    expect(rows[12]![15]).toBe("25.0");
    expect(rows[0]![15]).toBe(""); // nothing to divide
    expect(rows[13]!.slice(0, 3)).toEqual(["2026", "1", "Animatronics"]);
    expect(rows.at(-1)!.slice(0, 5)).toEqual(["2026", "all", "No service chosen", "2", "1"]);
  });

  it("draws two bars per month on a round axis, a month without enquiries at height 0", () => {
    const chart = monthChart(yearFigures(groups, 2026, published).months);
    expect(chart.bars).toHaveLength(24);
    const march = chart.bars.filter((bar) => bar.month === 3);
    expect(march.map((bar) => [bar.kind, bar.value])).toEqual([
      ["enquiries", 3],
      ["won", 1],
    ]);
    expect(march[0]!.label).toBe("March: 3 enquiries");
    // Scaled to the axis's top (4 for 3 enquiries): three quarters of the height, the won bar a third of that.
    const full = chart.baseline - chart.guides.at(-1)!.y;
    expect(march[0]!.height).toBeCloseTo(full * 0.75, 0);
    expect(march[1]!.height).toBeCloseTo(full * 0.25, 0);
    expect(chart.bars.find((bar) => bar.month === 1)!.height).toBe(0);
    expect(chart.bars.every((bar) => bar.y + bar.height <= chart.baseline + 0.1)).toBe(true);
    expect(chart.ticks.map((tick) => tick.label).join("")).toBe("JFMAMJJASOND");
    expect([axisTop(0), axisTop(5), axisTop(10), axisTop(11), axisTop(95)]).toEqual([4, 6, 20, 20, 100]);
  });
});

describe("the median", () => {
  // The median itself is the database's (app/store/figures.server.ts, tested on both in tests/integration/figures-store.test.ts);
  // here only that the page passes it on.
  it("is shown as the store found it", () => {
    expect(lineOf(group({ replied: 2, medianReplyMs: 90 * 60_000 })).medianReplyMs).toBe(90 * 60_000);
  });
});
