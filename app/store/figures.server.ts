import { lostReasons, wonStages } from "~/store/pipeline.types";
import type { SqlClient, Row } from "~/store/sql.server";
import type { CountedLostReason, FigureGroup, FiguresStore, MonthSpan } from "~/store/figures.types";

/**
 * The season's figures (docs/inbox.md, "Figures"): aggregated by the database, so a page of them reads a few hundred
 * rows of numbers whatever the size of the inbox, and never a visitor's words. The months come from the caller as
 * instants (their edges are the site's time zone's midnights, which neither SQLite nor a portable SQL can compute), and
 * each enquiry is counted in its month and its year, in all and under its service: four groups per enquiry, made by a
 * join with a four-row table of levels. The median is found with window functions (SQLite 3.25+, PostgreSQL).
 */

/** A code constant written into the SQL (a stage, a reason): only plain words, so nothing can break out of the quotes. */
function literal(value: string): string {
  if (!/^[a-z-]+$/.test(value)) throw new Error(`figures: not a plain word: ${value}`);
  return `'${value}'`;
}

const won = `stage IN (${wonStages.map(literal).join(", ")})`;
const known = lostReasons.map(literal).join(", ");
/** Each reason's count as its own column (`lost_0`, ...), then Lost without a known reason. */
const lostColumns = [
  ...lostReasons.map(
    (reason, index) =>
      `SUM(CASE WHEN spam = 0 AND stage = 'lost' AND lost_reason = ${literal(reason)} THEN 1 ELSE 0 END) AS lost_${index}`,
  ),
  `SUM(CASE WHEN spam = 0 AND stage = 'lost' AND (lost_reason IS NULL OR lost_reason NOT IN (${known}))
     THEN 1 ELSE 0 END) AS lost_unstated`,
].join(",\n");

/**
 * Every counted enquiry: the stored ones (spam kept aside included) and the numbers kept of erased and purged ones;
 * `where` narrows both (to the months asked for, so the enquiries' index on received_at is used).
 */
const counted = (where = "") =>
  `SELECT received_at, CASE WHEN status = 'spam' THEN 1 ELSE 0 END AS spam, stage, lost_reason, quote_amount,
     first_reply_at, service FROM enquiries ${where}
   UNION ALL
   SELECT received_at, spam, stage, lost_reason, quote_amount, first_reply_at, service FROM figures_kept ${where}`;
const between = "WHERE received_at >= ? AND received_at < ?";

const groupKey = "y, m, per_service, group_service";

/** A number computed by the code (a month's edge, a year) written into the SQL: only whole numbers. */
function whole(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`figures: not a whole number: ${value}`);
  return String(value);
}

function figuresSql(months: readonly MonthSpan[]): string {
  // Each enquiry's year and month by one CASE over the months' edges, worked out once per row (MATERIALIZED, SQLite
  // 3.35+ and PostgreSQL 12+): a join with a table of months, or the CASE inlined into the grouping, took several times
  // as long (100,000 enquiries in a year: 3.5 s instead of 9 s on a 2-core machine at load 19).
  const placed = (value: (month: MonthSpan) => number) =>
    `CASE ${months
      .map(
        (month) =>
          `WHEN received_at >= ${whole(month.from)} AND received_at < ${whole(month.to)} THEN ${whole(value(month))}`,
      )
      .join(" ")} END`;
  return `WITH levels (per_month, per_service) AS (VALUES (0, 0), (0, 1), (1, 0), (1, 1)),
    counted AS (${counted(between)}),
    placed AS MATERIALIZED (
      SELECT ${placed((month) => month.year)} AS y, ${placed((month) => month.month)} AS month_of, received_at, spam,
        stage, lost_reason, quote_amount, first_reply_at, service
      FROM counted
    ),
    grouped AS MATERIALIZED (
      SELECT placed.y AS y, CASE WHEN levels.per_month = 1 THEN placed.month_of ELSE 0 END AS m,
        levels.per_service AS per_service,
        CASE WHEN levels.per_service = 1 THEN placed.service ELSE NULL END AS group_service,
        placed.received_at, placed.spam, placed.stage, placed.lost_reason, placed.quote_amount, placed.first_reply_at
      FROM placed CROSS JOIN levels
      WHERE placed.y IS NOT NULL
    ),
    totals AS (
      SELECT ${groupKey}, COUNT(*) AS enquiries, SUM(spam) AS spam,
        SUM(CASE WHEN spam = 0 AND first_reply_at IS NOT NULL THEN 1 ELSE 0 END) AS replied,
        SUM(CASE WHEN spam = 0 AND quote_amount IS NOT NULL THEN 1 ELSE 0 END) AS quoted,
        SUM(CASE WHEN spam = 0 AND ${won} THEN 1 ELSE 0 END) AS won,
        ${lostColumns},
        SUM(CASE WHEN spam = 0 AND quote_amount IS NOT NULL THEN quote_amount ELSE 0 END) AS quoted_total,
        SUM(CASE WHEN spam = 0 AND ${won} AND quote_amount IS NOT NULL THEN quote_amount ELSE 0 END) AS won_total
      FROM grouped GROUP BY ${groupKey}
    ),
    replies AS (
      SELECT ${groupKey}, first_reply_at - received_at AS wait,
        ROW_NUMBER() OVER (PARTITION BY ${groupKey} ORDER BY first_reply_at - received_at) AS place,
        COUNT(*) OVER (PARTITION BY ${groupKey}) AS replies_in_group
      FROM grouped WHERE spam = 0 AND first_reply_at IS NOT NULL
    ),
    medians AS (
      -- The middle one, or the mean of the middle two (integer division on both databases).
      SELECT ${groupKey}, AVG(wait) AS median_wait FROM replies
      WHERE place = (replies_in_group + 1) / 2 OR place = (replies_in_group + 2) / 2
      GROUP BY ${groupKey}
    )
    SELECT totals.*, medians.median_wait FROM totals
    LEFT JOIN medians ON medians.y = totals.y AND medians.m = totals.m AND medians.per_service = totals.per_service
      AND (medians.group_service = totals.group_service
           OR (medians.group_service IS NULL AND totals.group_service IS NULL))`;
}

/** PostgreSQL gives sums of BIGINT and averages as NUMERIC (a string); SQLite as numbers. */
const count = (value: unknown) => Number(value ?? 0);

function groupFrom(row: Row): FigureGroup {
  const lost = Object.fromEntries(lostReasons.map((reason, index) => [reason, count(row[`lost_${index}`])])) as Record<
    CountedLostReason,
    number
  >;
  lost.unstated = count(row.lost_unstated);
  const perService = count(row.per_service) === 1;
  return {
    year: count(row.y),
    month: count(row.m) === 0 ? null : count(row.m),
    perService,
    service:
      perService && row.group_service !== null && row.group_service !== undefined ? String(row.group_service) : null,
    enquiries: count(row.enquiries),
    spam: count(row.spam),
    replied: count(row.replied),
    quoted: count(row.quoted),
    won: count(row.won),
    lost,
    medianReplyMs:
      row.median_wait === null || row.median_wait === undefined ? null : Math.round(count(row.median_wait)),
    quotedTotal: count(row.quoted_total),
    wonTotal: count(row.won_total),
  };
}

export function figuresOperations(db: SqlClient): FiguresStore {
  return {
    async figuresSpan() {
      const [row] = await db.query(
        `SELECT MIN(received_at) AS first_at, MAX(received_at) AS last_at FROM (${counted()}) AS counted`,
      );
      if (!row || row.first_at === null || row.first_at === undefined) return null;
      return { first: new Date(count(row.first_at)), last: new Date(count(row.last_at)) };
    },

    async figures(months) {
      if (months.length === 0) return [];
      const first = Math.min(...months.map((month) => month.from));
      const end = Math.max(...months.map((month) => month.to));
      return (await db.query(figuresSql(months), [first, end, first, end])).map(groupFrom);
    },
  };
}
