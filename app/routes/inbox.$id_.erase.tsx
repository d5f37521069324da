import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, redirect, useLoaderData } from "@remix-run/react";
import { dangerButtonClass, InboxShell, linkClass } from "~/components/inbox/InboxShell";
import { inboxCopy } from "~/wording/inbox";
import { absoluteTime } from "~/text/time";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { asOperator, requireRecentFactor, type OperatorSession } from "~/owner/gate.server";
import { stepUpReturn } from "~/owner/step-up";
import { shownToOwner } from "~/owner/shown";
import { v1FileHolds } from "~/store/v1.server";
import { log } from "~/log.server";

export const meta: MetaFunction = () => [{ title: inboxCopy.erase.title }, { name: "robots", content: "noindex" }];
export const headers = inboxHeaders;

const notFound = () => new Response(null, { status: 404, headers: privateHeaders });

/** The confirmation page: names every enquiry of the address and what goes with it, before anything is deleted. */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, showErase);
}

async function showErase({ params }: LoaderFunctionArgs, { operator, store }: OperatorSession) {
  const enquiry = await store.getEnquiry(params.id ?? "");
  if (!enquiry) throw notFound();
  const all = await store.enquiriesFrom(enquiry.email);
  return data(
    shownToOwner({
      operator: operator.email,
      id: enquiry.id,
      email: enquiry.email,
      enquiries: all.map((item) => ({
        id: item.id,
        receivedAt: item.receivedAt,
        name: item.name,
        firstLine: item.message.split(/\r?\n/)[0]?.slice(0, 120) ?? "",
        notifications: item.notifications.length,
      })),
    }),
    { headers: privateHeaders },
  );
}

export async function action(args: ActionFunctionArgs) {
  return asOperator(args, erase);
}

async function erase({ params, context }: ActionFunctionArgs, session: OperatorSession) {
  const { operator, store } = session;
  const enquiry = await store.getEnquiry(params.id ?? "");
  if (!enquiry) return redirect("/inbox?erased=0", { headers: privateHeaders });
  // It cannot be undone: an operator with a second factor proves it again when the last one is over 10 minutes old,
  // and comes back to this page to press Erase again.
  await requireRecentFactor(session, stepUpReturn.erase(enquiry.id));
  const count = await store.erase(enquiry.email);
  // The same person's place on the waitlist goes with it, as `npm run inbox -- erase EMAIL` does (issue 35).
  const fromWaitlist = await store.eraseWaitlistAddress(enquiry.email);
  // Who and when, never what they wrote: the address's enquiries are gone, so the log names only how many.
  const detail = `${count} enquiries of one address${fromWaitlist ? ", and the address from the waitlist" : ""}`;
  await store.logActivity({ actor: operator.email, action: "erased", detail });
  const { inboxFile } = context.services.config;
  const inV1File = await v1FileHolds(inboxFile, enquiry.email).catch((error: Error) => {
    log.error(`inbox: could not read ${inboxFile} to check it for the erased address: ${error.message}`);
    return false;
  });
  if (inV1File) log.info(`inbox: ${inboxCopy.erase.stillInV1File(inboxFile)}`);
  const also = `${fromWaitlist ? "&waitlist=1" : ""}${inV1File ? "&v1=1" : ""}`;
  return redirect(`/inbox?erased=${count}${also}`, { headers: privateHeaders });
}

export default function InboxErase() {
  const { operator, id, email, enquiries } = useLoaderData<typeof loader>();
  const notifications = enquiries.reduce((sum, item) => sum + item.notifications, 0);
  return (
    <InboxShell operator={operator}>
      <h1 className="font-display text-3xl font-bold text-bone-50">{inboxCopy.erase.title}</h1>
      <p className="mt-3 text-bone-100">{inboxCopy.erase.intro}</p>
      <p className="mt-3 text-bone-100">
        {`${inboxCopy.erase.from} `}
        <span className="break-all font-semibold">{email}</span>:{" "}
        {inboxCopy.erase.whatGoes(enquiries.length, notifications)}
      </p>
      <ul className="mt-3 list-disc space-y-1 pl-6 text-bone-100">
        {enquiries.map((item) => (
          <li key={item.id}>
            {absoluteTime(new Date(item.receivedAt))}: {item.name}, “{item.firstLine}”
          </li>
        ))}
      </ul>
      <div className="mt-6 flex flex-wrap items-center gap-4">
        <Form method="post">
          <button type="submit" className={dangerButtonClass}>
            {inboxCopy.erase.confirm}
          </button>
        </Form>
        <Link to={`/inbox/${id}`} className={linkClass}>
          {inboxCopy.erase.cancel}
        </Link>
      </div>
    </InboxShell>
  );
}
