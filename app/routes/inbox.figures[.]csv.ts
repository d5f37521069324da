import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { figuresCopy } from "~/wording/figures";
import { figuresCsvRows } from "~/owner/figures";
import { readYearFigures } from "~/owner/figures.server";
import { asOperator, requireEmbedded, requireRecentFactor, type OperatorSession } from "~/owner/gate.server";
import { stepUpReturn } from "~/owner/step-up";
import { privateHeaders } from "~/owner/headers";
import { localDate, startOfDay } from "~/site-content/order-window";
import { csvLines } from "~/text/csv";

/**
 * The Figures page's `Download CSV`: a year's figures by month and by service (app/owner/figures.ts figuresCsvRows),
 * UTF-8 with a byte-order mark so that Excel shows accents, behind step-up like the enquiries' export. The download
 * goes to the activity log.
 */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, figuresCsv);
}

/** Only a GET downloads it: a post gets a 405 with a plain message, not stored. */
export function action({ context }: ActionFunctionArgs) {
  requireEmbedded(context);
  return new Response(figuresCopy.csvMethod, {
    status: 405,
    headers: { ...privateHeaders, Allow: "GET", "Content-Type": "text/plain; charset=utf-8" },
  });
}

async function figuresCsv({ request, context }: LoaderFunctionArgs, session: OperatorSession) {
  const { operator, store } = session;
  const asked = new URL(request.url).searchParams.get("year");
  // As the enquiries' CSV: a second factor over 10 minutes old is asked for again, and the code page goes back to the
  // Figures page of that year (not to the file), where Download CSV is pressed again.
  await requireRecentFactor(session, stepUpReturn.figures(asked));
  const { timeZone } = context.services.config;
  const { currency } = context.site.content.business;
  const read = await readYearFigures(store, {
    asked,
    calendar: { localDate: (at) => localDate(at, timeZone), startOfDay: (day) => startOfDay(day, timeZone) },
    published: context.site.content.services.map((service) => service.name),
  });
  if (!read) {
    return new Response(figuresCopy.unknownYear, {
      status: 404,
      headers: { ...privateHeaders, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const { figures } = read;
  const year = figures.year;
  await store.logActivity({ actor: operator.email, action: "exported figures CSV", detail: `year ${year}` });
  // A year's figures are a few hundred short rows: written whole, through the one CSV writer.
  async function* rows() {
    yield* figuresCsvRows(figures, currency);
  }
  let text = "\uFEFF";
  for await (const line of csvLines(figuresCopy.csv.columns(currency), rows(), (cells) => cells)) text += line;
  return new Response(text, {
    headers: {
      ...privateHeaders,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="figures-${year}.csv"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
