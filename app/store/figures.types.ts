import type { LostReason } from "~/store/pipeline.types";

/**
 * The season's figures' part of the store (app/store/figures.server.ts): counts and sums per month and per year, in
 * all and per service, over the stored enquiries and the numbers kept of erased and purged ones (`figures_kept`).
 * Numbers only: nothing a visitor wrote is read.
 */

/** A calendar month in the site's time zone, as the instants it runs between (ms since the epoch). */
export interface MonthSpan {
  year: number;
  /** 1 to 12. */
  month: number;
  /** Its first instant. */
  from: number;
  /** The next month's first instant. */
  to: number;
}

/** A lost enquiry's reason as counted; `unstated`: Lost without a reason (or one this version does not know). */
export type CountedLostReason = LostReason | "unstated";

/** One group's figures. Every count but `enquiries` and `spam` is of the enquiries not kept aside as spam. */
export interface FigureGroup {
  year: number;
  /** 1 to 12; null: the whole year. */
  month: number | null;
  /** True: one service's figures (`service` its name, null: no service chosen); false: every service together. */
  perService: boolean;
  service: string | null;
  /** Every enquiry that arrived, spam included. */
  enquiries: number;
  /** Kept aside as spam. */
  spam: number;
  /** Answered at least once (a reply sent, Mark handled, the stage moved off New). */
  replied: number;
  /** Reached Quoted (a quote amount set). */
  quoted: number;
  /** At Deposit paid or later. */
  won: number;
  /** At Lost, by reason. */
  lost: Record<CountedLostReason, number>;
  /** The median time from arrival to the first reply over those replied (ms); null: none replied. */
  medianReplyMs: number | null;
  /** The quote amounts of the quoted, in the currency's minor unit. */
  quotedTotal: number;
  /** The quote amounts of the won. */
  wonTotal: number;
}

export interface FiguresStore {
  /** When the first and the newest counted enquiry arrived (erased and purged ones too); null: none yet. */
  figuresSpan(): Promise<{ first: Date; last: Date } | null>;
  /**
   * The figures of the months given, and of each of their years as a whole, in all and per service: only groups that
   * hold an enquiry. One statement, so every number comes from the same moment of the database.
   */
  figures(months: readonly MonthSpan[]): Promise<FigureGroup[]>;
}
