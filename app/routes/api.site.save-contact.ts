import type { ActionFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { handleSaveContact } from "~/enquiry/embedded.server";
import { admitEnquiry } from "~/enquiry/rate-limit.server";
import { discardBody } from "~/http/body.server";

/**
 * The embedded enquiry endpoint, with the upstream API's contract. It exists only while no API_HOST is configured;
 * with one, enquiries go there and this path is a 404.
 */
const notFound = () => new Response("Not Found\n", { status: 404, headers: { "Content-Type": "text/plain" } });

export function loader() {
  if (getConfig().apiHost) return notFound();
  return new Response("Method Not Allowed\n", {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "text/plain" },
  });
}

export function action({ request, context }: ActionFunctionArgs) {
  const config = getConfig();
  if (config.apiHost) {
    discardBody(request); // unread, a large body would stall the next request on this keep-alive connection
    return notFound();
  }
  return handleSaveContact(request, {
    admit: () => admitEnquiry(config, context.clientAddress),
    spamFilter: config.retention?.spamFilter ?? true,
  });
}
