import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Link, redirect, useActionData, useLoaderData } from "@remix-run/react";
import { InboxShell, linkClass } from "~/components/inbox/InboxShell";
import { UpdateForm } from "~/components/inbox/BuildPageSection";
import { buildPageCopy } from "~/wording/build-page";
import { inboxCopy } from "~/wording/inbox";
import { defaultBodyCap } from "~/http/body-cap";
import { mediaType } from "~/http/body.server";
import { readForm } from "~/http/form.server";
import { problemWords } from "~/photos/problem-words";
import { inboxHeaders, privateHeaders } from "~/owner/headers";
import { asOperator, type OperatorSession } from "~/owner/gate.server";
import { postUpdate, updateBodyCap, updateMaxLength, updatePhotosMax } from "~/owner/build-page.server";

/**
 * Post update (multipart: the text and up to six photos) for the enquiry page's Build page section. Done: back to
 * the enquiry (post/redirect/get); refused: this page, the form again with the reason and what was typed.
 */

export const meta: MetaFunction = () => [
  { title: `${buildPageCopy.owner.updateHeading} | ${inboxCopy.title}` },
  { name: "robots", content: "noindex, nofollow" },
];
export const headers = inboxHeaders;
export const bodyCap = updateBodyCap;

/** The form by itself (the enquiry page has the same): what a refused post shows again, with its reason. */
export async function loader(args: LoaderFunctionArgs) {
  return asOperator(args, async ({ params, context }, { operator, store }) => {
    const id = params.id ?? "";
    if (!(await store.getEnquiry(id))) throw new Response(null, { status: 404, headers: privateHeaders });
    const canEmail = Boolean(context.services.config.notify?.email);
    return data({ operator: operator.email, id, canEmail }, { headers: privateHeaders });
  });
}

export async function action(args: ActionFunctionArgs) {
  return asOperator(args, post);
}

async function post({ request, params, context }: ActionFunctionArgs, session: OperatorSession) {
  const id = params.id ?? "";
  // Not the upload form: read under the forms' cap (a plain 413 past it), then refused as the wrong kind of body.
  if (mediaType(request) !== "multipart/form-data") {
    await readForm(request, defaultBodyCap);
    return data(
      { operator: session.operator.email, id, error: problemWords("notMultipart"), values: { body: "", email: false } },
      { status: 415, headers: privateHeaders },
    );
  }
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
  const { operator, id, canEmail } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  return (
    <InboxShell operator={operator}>
      <p>
        <Link to={`/inbox/${encodeURIComponent(id)}#build-page`} className={linkClass}>
          {buildPageCopy.owner.backToEnquiry}
        </Link>
      </p>
      <UpdateForm
        enquiryId={id}
        refused={refused ? { error: refused.error, values: refused.values } : null}
        canEmail={canEmail}
        photosMax={updatePhotosMax}
        textMax={updateMaxLength}
      />
    </InboxShell>
  );
}
