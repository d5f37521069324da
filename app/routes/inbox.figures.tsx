import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Link, useLoaderData } from "@remix-run/react";
import { InboxShell, quietButtonClass } from "~/components/inbox/InboxShell";
import { figuresCopy } from "~/wording/figures";
import { inboxCopy } from "~/wording/inbox";
import { monthChart, shownYear, type Chart, type ShownLine } from "~/owner/figures";
import { readYearFigures } from "~/owner/figures.server";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { shownToOwner } from "~/owner/shown";
import { localDate, startOfDay } from "~/site-content/order-window";

export const meta: MetaFunction = () => [
  { title: `${figuresCopy.title} | ${inboxCopy.title}` },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;

/**
 * The season's figures (docs/inbox.md, "Figures"): a year's months and services, and a chart of enquiries and wins
 * drawn here on the server as SVG (its geometry is loader data; the page only places it). Only links: nothing posts.
 */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showFigures);
}

async function showFigures({ request, context }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const { timeZone } = context.services.config;
  const { currency } = context.site.content.business;
  const read = await readYearFigures(store, {
    asked: new URL(request.url).searchParams.get("year"),
    calendar: { localDate: (at) => localDate(at, timeZone), startOfDay: (day) => startOfDay(day, timeZone) },
    published: context.site.content.services.map((service) => service.name),
  });
  if (!read) throw new Response(null, { status: 404, headers: privateHeaders });
  const { years, figures } = read;
  return data(
    shownToOwner({
      operator: operator.email,
      years,
      year: figures.year,
      currency,
      timeZone,
      table: shownYear(figures, currency),
      chart: monthChart(figures.months),
    }),
    { headers: privateHeaders },
  );
}

const cell = "whitespace-nowrap px-3 py-2 text-right tabular-nums";
const headCell = "px-3 py-2 text-right align-bottom font-medium text-bone-300";

function FiguresTable({
  id,
  caption,
  first,
  lines,
  total,
}: {
  id: string;
  caption: string;
  first: string;
  lines: ShownLine[];
  /** The line under the others, in bold (the year). */
  total?: ShownLine;
}) {
  const columns = figuresCopy.columns;
  return (
    <section className="mt-8">
      <h2 id={id} className="text-xl font-semibold text-bone-50">
        {caption}
      </h2>
      {/* Wider than a phone: it scrolls sideways by itself, the first column staying in view; focusable so that a
          keyboard can scroll it too. */}
      <div
        className="mt-3 overflow-x-auto rounded-xl border border-night-600 bg-night-800 [overflow-wrap:normal]"
        role="region"
        aria-labelledby={id}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must take the focus
        tabIndex={0}
      >
        <table className="min-w-full text-sm" data-figures={id}>
          <thead>
            <tr className="border-b border-night-600">
              <th
                scope="col"
                className="sticky left-0 bg-night-800 px-3 py-2 text-left align-bottom font-medium text-bone-300"
              >
                {first}
              </th>
              <th scope="col" className={headCell}>
                {columns.enquiries}
              </th>
              <th scope="col" className={headCell}>
                {columns.spam}
              </th>
              <th scope="col" className={headCell}>
                {columns.replied}
              </th>
              <th scope="col" className={headCell}>
                {columns.quoted}
              </th>
              <th scope="col" className={headCell}>
                {columns.won}
              </th>
              <th scope="col" className={headCell}>
                {columns.lost}
              </th>
              <th scope="col" className={headCell}>
                {columns.conversion}
              </th>
              <th scope="col" className={headCell}>
                {columns.medianReply}
              </th>
              <th scope="col" className={headCell}>
                {columns.quotedTotal}
              </th>
              <th scope="col" className={headCell}>
                {columns.wonTotal}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-night-600">
            {[...lines, ...(total ? [total] : [])].map((line, index) => {
              const last = total !== undefined && index === lines.length;
              return (
                <tr key={`${index}-${line.label}`} className={last ? "font-semibold text-bone-50" : "text-bone-100"}>
                  <th scope="row" className="sticky left-0 bg-night-800 px-3 py-2 text-left font-medium">
                    {line.label}
                  </th>
                  <td className={cell} data-column="enquiries">
                    {line.enquiries}
                  </td>
                  <td className={cell} data-column="spam">
                    {line.spam}
                  </td>
                  <td className={cell} data-column="replied">
                    {line.replied}
                  </td>
                  <td className={cell} data-column="quoted">
                    {line.quoted}
                  </td>
                  <td className={cell} data-column="won">
                    {line.won}
                  </td>
                  <td className={cell} data-column="lost">
                    {line.lost}
                    {line.lostReasons.map((reason) => (
                      <span key={reason} className="block text-xs font-normal text-bone-300">
                        {reason}
                      </span>
                    ))}
                  </td>
                  <td className={cell} data-column="conversion">
                    {line.conversion}
                  </td>
                  <td className={cell} data-column="median-reply">
                    {line.medianReply}
                  </td>
                  <td className={cell} data-column="quoted-total">
                    {line.quotedTotal}
                  </td>
                  <td className={cell} data-column="won-total">
                    {line.wonTotal}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The chart as plain SVG markup: every number was worked out by the loader (app/owner/figures.ts monthChart). */
function MonthChart({ chart, year }: { chart: Chart; year: number }) {
  const words = figuresCopy.chart;
  return (
    <figure className="mt-6 max-w-xl">
      <svg
        viewBox={`0 0 ${chart.width} ${chart.height}`}
        role="img"
        aria-labelledby="figures-chart-title figures-chart-description"
        className="h-auto w-full"
        data-chart="months"
      >
        <title id="figures-chart-title">{words.title(year)}</title>
        <desc id="figures-chart-description">{words.description}</desc>
        {chart.guides.map((guide) => (
          <g key={guide.y}>
            <line
              x1={chart.left}
              x2={chart.width - 4}
              y1={guide.y}
              y2={guide.y}
              className="stroke-night-600"
              strokeWidth={1}
            />
            <text x={chart.left - 6} y={guide.y + 5} textAnchor="end" fontSize={16} className="fill-bone-300">
              {guide.value}
            </text>
          </g>
        ))}
        {chart.bars.map((bar) => (
          <rect
            key={`${bar.kind}-${bar.month}`}
            data-bar={bar.kind}
            data-month={bar.month}
            data-value={bar.value}
            x={bar.x}
            y={bar.y}
            width={bar.width}
            height={bar.height}
            className={bar.kind === "won" ? "fill-ember-400" : "fill-bone-300"}
          >
            <title>{bar.label}</title>
          </rect>
        ))}
        {chart.ticks.map((tick, index) => (
          <text key={index} x={tick.x} y={chart.height - 8} textAnchor="middle" fontSize={16} className="fill-bone-300">
            {tick.label}
          </text>
        ))}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-bone-300">
        <span className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm bg-bone-300" />
          {words.enquiries}
        </span>
        <span className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm bg-ember-400" />
          {words.won}
        </span>
      </figcaption>
    </figure>
  );
}

export default function InboxFigures() {
  const { operator, years, year, currency, timeZone, table, chart } = useLoaderData<typeof loader>();
  return (
    <InboxShell operator={operator}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="font-display text-3xl font-bold text-bone-50">{figuresCopy.title}</h1>
          <p className="mt-1 text-bone-300">{figuresCopy.intro(year)}</p>
        </div>
        <a href={`/inbox/figures.csv?year=${year}`} className={quietButtonClass}>
          {figuresCopy.download}
        </a>
      </div>
      <nav aria-label={figuresCopy.yearsLabel} className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {years.map((each) => (
            <li key={each}>
              <Link
                to={`/inbox/figures?year=${each}`}
                aria-current={each === year ? "page" : undefined}
                className={`block rounded-md border px-3 py-2 tabular-nums ${each === year ? "border-ember-400 bg-night-700 text-ember-300" : "border-night-600 text-bone-100 hover:text-ember-300"}`}
              >
                {each}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <MonthChart chart={chart} year={year} />
      <FiguresTable
        id="figures-months"
        caption={figuresCopy.byMonth}
        first={figuresCopy.columns.month}
        lines={table.months}
        total={table.total}
      />
      <FiguresTable
        id="figures-services"
        caption={figuresCopy.byService}
        first={figuresCopy.columns.service}
        lines={table.services}
      />
      <section aria-labelledby="figures-small-print" className="mt-10 max-w-3xl text-sm text-bone-300">
        <h2 id="figures-small-print" className="font-semibold text-bone-100">
          {figuresCopy.smallPrint.heading}
        </h2>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {figuresCopy.smallPrint.items(currency, timeZone).map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      </section>
    </InboxShell>
  );
}
