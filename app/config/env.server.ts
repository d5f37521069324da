import { z } from "zod";

/**
 * What every part of the configuration reads its variables with: an empty variable counts as unset (a blank line in
 * a .env file or `VAR=` on a command line means "the default", not "an invalid value").
 */
export const emptyAsUnset = (value: unknown) => (value === "" ? undefined : value);

/** An http(s) origin (scheme, host, port) and nothing else, normalised (e.g. `HTTP://A.example:80/` -> `http://a.example`). */
export const httpOrigin = (example: string) =>
  z
    // abort: zod 4 runs later checks even after one fails, and `new URL` below throws on a value that is no URL.
    .url({ protocol: /^https?$/, error: `must be an http:// or https:// URL, e.g. ${example}`, abort: true })
    .refine((value) => {
      const url = new URL(value);
      return (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash && !url.username;
    }, "must be an origin only (scheme, host and port), without a path, query or credentials")
    .transform((value) => new URL(value).origin);

/** An address or host name to listen on; `error` says what one looks like for this variable. */
export const listenHost = (error: string) => z.union([z.ipv4(), z.ipv6(), z.hostname()], { error });

/** An IANA time zone name the runtime knows (Europe/Berlin, America/New_York, UTC). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
