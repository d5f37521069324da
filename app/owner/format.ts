/**
 * How the inbox writes times, delivery states and errors, the same on the server and in the browser: times are in UTC
 * and "ago" is counted from the server's `now`, so the hydrated page reads exactly like the served one.
 */

const absolute = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

export const absoluteTime = (at: Date) => `${absolute.format(at)} UTC`;

export function timeAgo(at: Date, now: Date): string {
  const seconds = Math.round((now.getTime() - at.getTime()) / 1000);
  const future = seconds < 0;
  const s = Math.abs(seconds);
  const [count, unit] =
    s < 60
      ? [0, ""]
      : s < 3600
        ? [Math.floor(s / 60), "minute"]
        : s < 86_400
          ? [Math.floor(s / 3600), "hour"]
          : s < 30 * 86_400
            ? [Math.floor(s / 86_400), "day"]
            : s < 365 * 86_400
              ? [Math.floor(s / (30 * 86_400)), "month"]
              : [Math.floor(s / (365 * 86_400)), "year"];
  if (count === 0) return future ? "in a moment" : "just now";
  const amount = `${count} ${unit}${count === 1 ? "" : "s"}`;
  return future ? `in ${amount}` : `${amount} ago`;
}

export const channelNames: Record<string, string> = { email: "E-mail", webhook: "Webhook" };

export const stateWords: Record<string, string> = {
  pending: "waiting to be sent",
  sent: "sent",
  failed: "failed (gave up)",
};

/** A sender's error (as the outbox recorded it) in words an owner can act on; the raw text is shown beside it. */
export function errorInWords(raw: string): string {
  const known: [RegExp, string][] = [
    [/ECONNREFUSED/i, "The server refused the connection: it is down or the address is wrong."],
    [/ETIMEDOUT|timed? ?out|timeout/i, "The server did not answer in time."],
    [/unreachable|EHOSTUNREACH|ENETUNREACH|bad port/i, "The server could not be reached at that address."],
    [/ENOTFOUND|EAI_AGAIN|getaddrinfo/i, "The server's name could not be found."],
    [/ECONNRESET|socket hang up|closed/i, "The connection was cut before the send finished."],
    [/EAUTH|auth|535|534/i, "The mail server refused the login: check SMTP_URL's user and password."],
    [/certificate|TLS|SSL/i, "The secure connection failed (certificate or TLS)."],
    [/\b5\d\d\b/, "The receiving server answered with an error."],
    [/\b4\d\d\b/, "The receiving server refused the message."],
  ];
  return known.find(([pattern]) => pattern.test(raw))?.[1] ?? "The send failed.";
}
