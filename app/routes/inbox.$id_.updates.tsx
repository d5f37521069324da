import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Link, redirect, useActionData } from "@remix-run/react";
import { InboxShell, linkClass } from "~/components/inbox/InboxShell";
import { UpdateForm } from "~/components/inbox/BuildPageSection";
import { buildPageCopy } from "~/wording/build-page";
import { inboxCopy } from "~/wording/inbox";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { postUpdate, updateBodyCap, updateMaxLength, updatePhotosMax } from "~/owner/build-page.server";

/**
 * Post update (multipart: the text and up to six photos) for the enquiry page's Build page section. Done: back to
 * the enquiry (post/redirect/get); refused: the form again with the reason and what was typed.
 */

export const meta: MetaFunction = () => [
  { title: `${buildPageCopy.owner.updateHeading} | ${inboxCopy.title}` },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;
export const bodyCap = updateBodyCap;

/** Nothing to show at this address by itself: the form is on the enquiry page. */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, async ({ params }) =>
    redirect(`/inbox/${encodeURIComponent(params.id ?? "")}#build-page`, { headers: privateHeaders }),
  );
}

export async function action(args: ActionFunctionArgs) {
  return asOperator(args, post);
}

async function post({ request, params, context }: ActionFunctionArgs, session: OperatorSession) {
  const id = params.id ?? "";
  const outcome = await postUpdate(request, id, session, context);
  if (outcome.ok)
    return redirect(`/inbox/${encodeURIComponent(id)}?done=build-posted#build-page`, {
      status: 303,
      headers: privateHeaders,
    });
  return data(
    { operator: session.operator.email, id, error: outcome.error, values: outcome.values },
    { status: outcome.status, headers: { ...privateHeaders, ...outcome.headers } },
  );
}

export default function PostUpdate() {
  const refused = useActionData<typeof action>();
  if (!refused) return null;
  return (
    <InboxShell operator={refused.operator}>
      <p>
        <Link to={`/inbox/${encodeURIComponent(refused.id)}#build-page`} className={linkClass}>
          {inboxCopy.enquiry.back}
        </Link>
      </p>
      <UpdateForm
        enquiryId={refused.id}
        refused={{ error: refused.error, values: refused.values }}
        photosMax={updatePhotosMax}
        textMax={updateMaxLength}
      />
    </InboxShell>
  );
}
