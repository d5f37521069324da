import { chosenYear, seasonYears, yearFigures, yearMonths, type YearFigures, type ZoneCalendar } from "~/owner/figures";
import type { FiguresStore } from "~/store/figures.types";

/**
 * One year's figures as the Figures page and its CSV read them: the years there are, the one asked for (`?year=`,
 * this year when none), and its figures from the database; null for a year the page does not offer.
 */
export async function readYearFigures(
  store: FiguresStore,
  {
    asked,
    calendar,
    published,
    now = new Date(),
  }: { asked: string | null; calendar: ZoneCalendar; published: readonly string[]; now?: Date },
): Promise<{ years: number[]; figures: YearFigures } | null> {
  const years = seasonYears(await store.figuresSpan(), now, calendar);
  const year = chosenYear(asked, years, Number(calendar.localDate(now).slice(0, 4)));
  if (year === null) return null;
  return { years, figures: yearFigures(await store.figures(yearMonths(year, calendar)), year, published) };
}
