import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { inboxCopy } from "~/wording/inbox";
import { enquiryCsv } from "~/owner/enquiry-csv";
import { placeQuery, readPlace } from "~/owner/query";
import { asOperator, requireEmbedded, requireRecentFactor, type OperatorSession } from "~/owner/gate.server";
import { stepUpReturn } from "~/owner/step-up";
import { privateHeaders } from "~/owner/headers";

/**
 * `Download CSV`: the current folder and search, streamed (a large inbox in constant memory), as safe for a spreadsheet
 * as the CLI's --csv, UTF-8 with a byte-order mark so that Excel shows accents. The export goes to the activity log.
 */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, exportCsv);
}

/**
 * A post is not how the file is asked for: a 405 with a plain message, not stored, naming the one method there is (without an
 * action Remix answered `{"message":"Unexpected Server Error"}` and no no-store).
 */
export function action({ context }: ActionFunctionArgs) {
  requireEmbedded(context);
  return new Response(inboxCopy.exportMethod, {
    status: 405,
    headers: { ...privateHeaders, Allow: "GET", "Content-Type": "text/plain; charset=utf-8" },
  });
}

async function exportCsv({ request, context }: LoaderFunctionArgs, session: OperatorSession) {
  const { operator, store } = session;
  const place = readPlace(new URL(request.url));
  // Every enquiry in one file: an operator with a second factor proves it again when the last one is over 10 minutes
  // old. The code page goes back to the list this was asked from (not to the file: a download would leave the code
  // page on the screen, as if nothing had happened), where Download CSV is pressed again.
  await requireRecentFactor(session, stepUpReturn.export(placeQuery({ folder: place.folder, search: place.search })));
  const rows = store.inboxAll({ folder: place.folder, search: place.search });
  await store.logActivity({
    actor: operator.email,
    action: "exported CSV",
    // That a search narrowed it, never what was searched: the words are a visitor's name or address.
    detail: `folder ${place.folder}${place.search ? ", with a search" : ""}`,
  });
  const encoder = new TextEncoder();
  const lines = enquiryCsv(rows, "owner", context.site.content.business.currency);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode("\uFEFF"));
    },
    async pull(controller) {
      const next = await lines.next();
      if (next.done) return controller.close();
      controller.enqueue(encoder.encode(next.value));
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
