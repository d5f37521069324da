import { notificationCopy } from "~/wording/notifications";
import type { StoredEnquiry } from "~/store/records";
import { multiLine, oneLine } from "~/text/safety";
import { aboutLine } from "~/enquiry/about.server";

/**
 * What every chat format shares: the summary of an enquiry (a head line, then the message), and cutting it to a
 * service's limit on a character boundary (a whole grapheme: never half an emoji or a lone surrogate), with the note
 * that the full text is in the e-mail and the inbox.
 */

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

export interface Limit {
  /** At most this many UTF-16 code units (never fewer code points, so it holds for services that count those). */
  maxLength: number;
  /** At most this many UTF-8 bytes, for services that limit the payload's size. */
  maxBytes?: number;
}

const utf8Length = (text: string) => Buffer.byteLength(text, "utf8");
const fits = (text: string, { maxLength, maxBytes }: Limit) =>
  text.length <= maxLength && (maxBytes === undefined || utf8Length(text) <= maxBytes);

/**
 * `raw` escaped for the service (escape works character by character, so a cut never splits an escape), cut to
 * `limit` on a grapheme boundary when it is longer, the note appended.
 */
export function fitText(raw: string, limit: Limit, escape: (text: string) => string = (text) => text): string {
  const whole = escape(raw);
  if (fits(whole, limit)) return whole;
  const note = notificationCopy.truncated;
  const budget: Limit = {
    maxLength: limit.maxLength - note.length,
    maxBytes: limit.maxBytes === undefined ? undefined : limit.maxBytes - utf8Length(note),
  };
  let kept = "";
  let keptBytes = 0;
  for (const { segment } of graphemes.segment(raw)) {
    const piece = escape(segment);
    const bytes = utf8Length(piece);
    if (kept.length + piece.length > budget.maxLength) break;
    if (budget.maxBytes !== undefined && keptBytes + bytes > budget.maxBytes) break;
    kept += piece;
    keptBytes += bytes;
  }
  return `${kept.trimEnd()}${note}`;
}

/** The head line: who wrote and when, one line whatever the visitor typed; marked when it may be spam. */
export function headLine(enquiry: StoredEnquiry): string {
  const marker = enquiry.spamVerdict === "possible" ? `${notificationCopy.possibleSpam} ` : "";
  return `${marker}${notificationCopy.subjectPrefix} ${oneLine(enquiry.name, 100)} <${oneLine(enquiry.email, 254)}> (${enquiry.receivedAt.toISOString()})`;
}

/**
 * The head line, the project's line when it was sent from a project's page (`siteUrl`: PUBLIC_URL, for the project's
 * address), a blank line, and the message with its line breaks kept and control characters removed.
 */
export function summaryText(enquiry: StoredEnquiry, siteUrl: string | null = null): string {
  const about = enquiry.about ? `\n${aboutLine(enquiry.about, siteUrl)}` : "";
  return `${headLine(enquiry)}${about}\n\n${multiLine(enquiry.message)}`;
}
