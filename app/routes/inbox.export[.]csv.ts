import type { LoaderFunctionArgs } from "@remix-run/node";
import { channelNames, stateWords } from "~/owner/format";
import { readPlace } from "~/owner/query";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { privateHeaders } from "~/owner/headers";
import type { EnquiryWithDelivery } from "~/store/owner-types";
import { csvCell } from "~/text/safety";

const columns = ["id", "receivedAt", "status", "name", "email", "message", "notifications"];

const deliveryLine = (enquiry: EnquiryWithDelivery) =>
  enquiry.notifications.length === 0
    ? "no notifications"
    : enquiry.notifications
        .map((step) => `${channelNames[step.channel] ?? step.channel} ${stateWords[step.state] ?? step.state}`)
        .join(", ");

/**
 * `Download CSV`: the current folder and search, streamed (a large inbox in constant memory), as safe for a spreadsheet
 * as the CLI's --csv, UTF-8 with a byte-order mark so that Excel shows accents. The export goes to the activity log.
 */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, exportCsv);
}

async function exportCsv({ request }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const place = readPlace(new URL(request.url));
  const rows = store.inboxAll({ folder: place.folder, search: place.search });
  await store.logActivity({
    actor: operator.email,
    action: "exported CSV",
    // That a search narrowed it, never what was searched: the words are a visitor's name or address.
    detail: `folder ${place.folder}${place.search ? ", with a search" : ""}`,
  });
  const encoder = new TextEncoder();
  const iterator = rows[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${columns.join(",")}\r\n`));
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) return controller.close();
      const enquiry = next.value;
      const cells = [
        enquiry.id,
        enquiry.receivedAt.toISOString(),
        enquiry.status,
        enquiry.name,
        enquiry.email,
        enquiry.message,
        deliveryLine(enquiry),
      ];
      controller.enqueue(encoder.encode(`${cells.map(csvCell).join(",")}\r\n`));
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      ...privateHeaders,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="enquiries-${place.folder}-${day}.csv"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
