import { deliverySummary } from "~/owner/delivery";
import type { ListedEnquiry } from "~/store/records";
import { csvLines } from "~/text/csv";

/**
 * Enquiries as CSV rows, for the inbox's "Download CSV" (the owner's words, with each enquiry's status: the export
 * names its folder) and for `npm run inbox -- --csv` (the terminal's words, as its text and --json say them).
 */
export function enquiryCsv(enquiries: AsyncIterable<ListedEnquiry>, form: "owner" | "terminal") {
  const withStatus = form === "owner";
  const columns = ["id", "receivedAt", ...(withStatus ? ["status"] : []), "name", "email", "message", "notifications"];
  return csvLines(columns, enquiries, (enquiry) => [
    enquiry.id,
    enquiry.receivedAt.toISOString(),
    ...(withStatus ? [enquiry.status] : []),
    enquiry.name,
    enquiry.email,
    enquiry.message,
    deliverySummary(enquiry.notifications, form),
  ]);
}
