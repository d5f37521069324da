import { deliverySummary } from "~/owner/delivery";
import { plainAmount } from "~/owner/money";
import type { ListedEnquiry } from "~/store/records";
import { csvLines } from "~/text/csv";

/** The pipeline's columns (ADR 0043), after the enquiry's own: amounts as plain numbers in the currency, dates as days. */
const commissionColumns = [
  "stage",
  "lostReason",
  "quoteAmount",
  "quoteValidUntil",
  "depositAmount",
  "neededBy",
  "service",
];

/** An enquiry's pipeline columns; empty cells where there is nothing (spam has no stage). */
export function commissionCells(enquiry: ListedEnquiry, currency: string): string[] {
  const { commission } = enquiry;
  const amount = (minor: number | null) => (minor === null ? "" : plainAmount(minor, currency));
  return [
    enquiry.status === "spam" ? "" : commission.stage,
    commission.lostReason ?? "",
    amount(commission.quoteAmount),
    commission.quoteValidUntil ?? "",
    amount(commission.depositAmount),
    commission.neededBy ?? "",
    commission.service ?? "",
  ];
}

/**
 * Enquiries as CSV rows, for the inbox's "Download CSV" (the owner's words, with each enquiry's status: the export
 * names its folder) and for `npm run inbox -- --csv` (the terminal's words, as its text and --json say them).
 * `currency`: the business's, the amounts' unit.
 */
export function enquiryCsv(enquiries: AsyncIterable<ListedEnquiry>, form: "owner" | "terminal", currency: string) {
  const withStatus = form === "owner";
  const columns = [
    "id",
    "receivedAt",
    ...(withStatus ? ["status"] : []),
    "name",
    "email",
    "message",
    "notifications",
    ...commissionColumns,
  ];
  return csvLines(columns, enquiries, (enquiry) => [
    enquiry.id,
    enquiry.receivedAt.toISOString(),
    ...(withStatus ? [enquiry.status] : []),
    enquiry.name,
    enquiry.email,
    enquiry.message,
    deliverySummary(enquiry.notifications, form),
    ...commissionCells(enquiry, currency),
  ]);
}
