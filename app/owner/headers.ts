import type { HeadersFunction } from "@remix-run/node";

/** The inbox's headers: never indexed, never kept by a browser or a cache. */
export const privateHeaders = { "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "no-store" } as const;

/** Every inbox page's headers, whatever its loader, action or error set. */
export const inboxHeaders: HeadersFunction = ({ loaderHeaders, actionHeaders, errorHeaders }) => {
  const headers = new Headers(errorHeaders ?? loaderHeaders);
  for (const [name, value] of actionHeaders) headers.set(name, value);
  for (const [name, value] of Object.entries(privateHeaders)) headers.set(name, value);
  return headers;
};
