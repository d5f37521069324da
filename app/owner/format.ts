import { inboxCopy } from "~/wording/inbox";

/**
 * How the inbox writes how long ago something was and a sender's errors, the same on the server and in the browser:
 * "ago" is counted from the server's `now`, so the hydrated page reads exactly like the served one (the moment itself:
 * app/text/time.ts).
 */

const words = inboxCopy.time;

export function timeAgo(at: Date, now: Date): string {
  const seconds = Math.round((now.getTime() - at.getTime()) / 1000);
  const future = seconds < 0;
  const s = Math.abs(seconds);
  const [count, unit]: [number, keyof typeof words.units] =
    s < 60
      ? [0, "minute"]
      : s < 3600
        ? [Math.floor(s / 60), "minute"]
        : s < 86_400
          ? [Math.floor(s / 3600), "hour"]
          : s < 30 * 86_400
            ? [Math.floor(s / 86_400), "day"]
            : s < 365 * 86_400
              ? [Math.floor(s / (30 * 86_400)), "month"]
              : [Math.floor(s / (365 * 86_400)), "year"];
  if (count === 0) return future ? words.inAMoment : words.justNow;
  const amount = `${count} ${words.units[unit][count === 1 ? 0 : 1]}`;
  return future ? words.in(amount) : words.ago(amount);
}

const errors = inboxCopy.delivery.errors;
const knownErrors: [RegExp, string][] = [
  [/ECONNREFUSED/i, errors.refused],
  [/ETIMEDOUT|timed? ?out|timeout/i, errors.timeout],
  [/unreachable|EHOSTUNREACH|ENETUNREACH|bad port/i, errors.unreachable],
  [/ENOTFOUND|EAI_AGAIN|getaddrinfo/i, errors.unknownHost],
  [/ECONNRESET|socket hang up|closed/i, errors.cut],
  [/EAUTH|auth|535|534/i, errors.login],
  [/certificate|TLS|SSL/i, errors.tls],
  [/\b5\d\d\b/, errors.serverError],
  [/\b4\d\d\b/, errors.refusedMessage],
];

/** A sender's error (as the outbox recorded it) in terms an owner can act on; the raw text is shown beside it. */
export const errorInWords = (raw: string): string =>
  knownErrors.find(([pattern]) => pattern.test(raw))?.[1] ?? errors.other;
