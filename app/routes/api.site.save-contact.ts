import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { acceptEnquiry } from "~/enquiry/accept.server";
import { acknowledger } from "~/notify/acknowledgement.server";
import { apiAnswer } from "~/enquiry/answers.server";
import { discardBody } from "~/http/body.server";
import type { BodyCap } from "~/http/body-cap";
import { maxBodyBytes } from "~/enquiry/fields";

/**
 * The embedded enquiry endpoint, with the upstream API's contract, for programs other than our own form. It exists
 * only while no API_HOST is configured; with one, enquiries go there and this path is a 404.
 */
const notFound = () => new Response("Not Found\n", { status: 404, headers: { "Content-Type": "text/plain" } });

export function loader({ context }: LoaderFunctionArgs) {
  if (context.services.config.apiHost) return notFound();
  return new Response("Method Not Allowed\n", {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "text/plain" },
  });
}

/** The enquiry is read under its cap by acceptEnquiry, so that a refusal is the API's errors list (a 415 first). */
export const bodyCap: BodyCap = { maxBytes: maxBodyBytes, readsOwnBody: true };

export async function action({ request, context }: ActionFunctionArgs) {
  if (context.services.config.apiHost) {
    discardBody(request); // unread, a large body would stall the next request on this keep-alive connection
    return notFound();
  }
  return apiAnswer(
    await acceptEnquiry(request, "json", context.services, context.clientAddress, {
      acknowledge: acknowledger(context.services, context.site.content),
    }),
  );
}
