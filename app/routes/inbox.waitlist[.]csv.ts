import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { asOperator, requireEmbedded, requireRecentFactor, type OperatorSession } from "~/owner/gate.server";
import { privateHeaders } from "~/owner/headers";
import { stepUpReturn } from "~/owner/step-up";
import { waitlistCsv } from "~/owner/waitlist-csv";
import { waitlistOwnerCopy } from "~/wording/waitlist-owner";

/**
 * The Waitlist page's `Download CSV`: every address with its state and dates, behind step-up like the enquiries'
 * export, every cell safe for a spreadsheet, UTF-8 with a byte-order mark. The export goes to the activity log.
 */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, exportWaitlist);
}

/** A post is not how the file is asked for: a 405 naming the one method there is. */
export function action({ context }: ActionFunctionArgs) {
  requireEmbedded(context);
  return new Response(waitlistOwnerCopy.csvMethod, {
    status: 405,
    headers: { ...privateHeaders, Allow: "GET", "Content-Type": "text/plain; charset=utf-8" },
  });
}

async function exportWaitlist(_args: LoaderFunctionArgs, session: OperatorSession) {
  const { operator, store } = session;
  // Every address in one file: the code again when the last one is over 10 minutes old; the code page goes back to
  // the Waitlist page, where Download CSV is pressed again.
  await requireRecentFactor(session, stepUpReturn.waitlistExport);
  const entries = await store.waitlistEntries();
  await store.logActivity({
    actor: operator.email,
    action: "exported CSV",
    detail: waitlistOwnerCopy.activity.exported,
  });
  let text = "\uFEFF";
  for await (const line of waitlistCsv(entries)) text += line;
  const day = new Date().toISOString().slice(0, 10);
  return new Response(text, {
    headers: {
      ...privateHeaders,
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="waitlist-${day}.csv"`,
      "X-Content-Type-Options": "nosniff",
    },
  });
}
