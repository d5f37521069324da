import type { LoaderFunctionArgs } from "@remix-run/node";
import { lookUpBuild } from "~/enquiry/build-page.server";
import { uploadFileNamePattern } from "~/photos/encoder.server";

/**
 * A build update's photo, served only under its build page's token (never at /photos/, never cached by anyone but
 * the customer's browser): one of the encoded files of that enquiry's updates, or 404 for anything else. The encoded
 * files carry no location or camera data (the encoder writes pixels only).
 */

const privateHeaders = { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };

const notFound = () =>
  new Response("Not found", {
    status: 404,
    headers: { ...privateHeaders, "Content-Type": "text/plain; charset=utf-8" },
  });

export async function loader({ params, context }: LoaderFunctionArgs) {
  const found = await lookUpBuild(params.token ?? "", context);
  if (found.kind === "throttled")
    return new Response("Too many tries", {
      status: 429,
      headers: { ...privateHeaders, "Retry-After": String(found.retryAfterSeconds) },
    });
  const name = params.file ?? "";
  if (found.kind === "not-found" || !uploadFileNamePattern.test(name)) return notFound();
  const file = await context.services.inbox().buildPhotoFile(found.build.enquiryId, name);
  if (!file) return notFound();
  return new Response(file.bytes, {
    headers: {
      ...privateHeaders,
      "Content-Type": file.contentType,
      "Content-Length": String(file.bytes.byteLength),
      "X-Content-Type-Options": "nosniff",
    },
  });
}
