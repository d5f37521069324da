import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, redirect, useLoaderData, useLocation } from "@remix-run/react";
import { dangerButtonClass, InboxShell, linkClass } from "~/components/inbox/InboxShell";
import { asOperator, requireRecentFactor, type OperatorSession } from "~/owner/gate.server";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { readWaitlistPlace, waitlistPages, waitlistPlaceQuery } from "~/owner/query";
import { shownToOwner } from "~/owner/shown";
import { stepUpReturn } from "~/owner/step-up";
import { absoluteTime } from "~/text/time";
import { waitlistOwnerCopy } from "~/wording/waitlist-owner";

export const meta: MetaFunction = () => [
  { title: waitlistOwnerCopy.erase.title },
  { name: "robots", content: "noindex" },
];
export const headers = inboxHeaders;

const copy = waitlistOwnerCopy;

/** The confirmation page of one address's erase: names it and what goes, before anything is deleted. */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showErase);
}

async function showErase({ params, request }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const entry = await store.waitlistEntry(params.id ?? "");
  if (!entry) throw new Response(null, { status: 404, headers: privateHeaders });
  return data(
    shownToOwner({
      operator: operator.email,
      email: entry.email,
      state: entry.state,
      createdAt: entry.createdAt,
      // The page of the list it was pressed on (`?state=`, `?page=`): Erase it and Keep it go back there.
      place: waitlistPlaceQuery(readWaitlistPlace(new URL(request.url))),
    }),
    { headers: privateHeaders },
  );
}

export async function action(args: ActionFunctionArgs) {
  return asOperator(args, erase);
}

/**
 * Erase it: step-up like an enquiry's erase, then the address and its list mail deleted and the database's files
 * scrubbed (app/store/waitlist-owner.server.ts). Pressed twice (or by two operators) the second finds nothing: back
 * to the list, which says so.
 */
async function erase({ params, request }: ActionFunctionArgs, session: OperatorSession) {
  const { operator, store } = session;
  const place = readWaitlistPlace(new URL(request.url));
  const back = async (erased: boolean) => {
    // Back to the page it was pressed on, or the last one there is when that page emptied.
    const counts = await store.waitlistCounts();
    const total = place.state === "all" ? counts.pending + counts.confirmed + counts.unsubscribed : counts[place.state];
    const page = Math.min(place.page, waitlistPages(total));
    const query = waitlistPlaceQuery({ ...place, page }, { erased: erased ? "1" : "0" });
    return redirect(`/inbox/waitlist${query}`, { status: 303, headers: privateHeaders });
  };
  const entry = await store.waitlistEntry(params.id ?? "");
  if (!entry) return back(false);
  await requireRecentFactor(session, stepUpReturn.waitlistErase(entry.id, waitlistPlaceQuery(place)));
  const erased = await store.eraseWaitlistAddress(entry.email);
  // Who and when, never the address.
  if (erased) await store.logActivity({ actor: operator.email, action: "erased", detail: copy.activity.erased });
  return back(erased);
}

export default function WaitlistErase() {
  const { operator, email, state, createdAt, place } = useLoaderData<typeof loader>();
  return (
    <InboxShell operator={operator}>
      <h1 className="font-display text-3xl font-bold text-bone-50">{copy.erase.title}</h1>
      <p className="mt-3 max-w-2xl text-bone-100">{copy.erase.intro}</p>
      <p className="mt-3 text-bone-100">
        {`${copy.erase.address} `}
        <span className="break-all font-semibold">{email}</span>
        {` (${copy.list.states[state]}, ${copy.list.asked} ${absoluteTime(new Date(createdAt))})`}
      </p>
      <div className="mt-6 flex flex-wrap items-center gap-4">
        <Form method="post" action={`${useLocation().pathname}${place}`}>
          <button type="submit" className={dangerButtonClass}>
            {copy.erase.confirm}
          </button>
        </Form>
        <Link to={`/inbox/waitlist${place}`} className={linkClass}>
          {copy.erase.cancel}
        </Link>
      </div>
    </InboxShell>
  );
}
