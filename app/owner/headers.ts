import type { HeadersFunction } from "@remix-run/node";

/** Every inbox page's headers, whatever its loader, action or error set: never indexed, never stored. */
export const inboxHeaders: HeadersFunction = ({ loaderHeaders, actionHeaders, errorHeaders }) => {
  const headers = new Headers(errorHeaders ?? loaderHeaders);
  for (const [name, value] of actionHeaders) headers.set(name, value);
  headers.set("X-Robots-Tag", "noindex, nofollow");
  headers.set("Cache-Control", "no-store");
  return headers;
};
