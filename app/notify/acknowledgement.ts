import { daysToken } from "~/site-content/fields";
import { orderWindow } from "~/site-content/order-window";
import { formatDay } from "~/site-content/public-site";
import type { SiteContent } from "~/site-content/schema.server";
import { acknowledgementCopy } from "~/wording/notifications";

/**
 * The words of the site's acknowledgement of an enquiry, from the published content alone: the owner's text (its
 * {days} the working days to answer), then the season's line as the home page has it at that moment (when orders
 * close, or that they are closed and the owner's closed line). Nothing the visitor typed is a parameter here, so
 * nothing of it can reach the mail: a reply that quoted input would let anyone send the business's mail to anyone.
 */
export function acknowledgementWords(
  content: Pick<SiteContent, "acknowledgement" | "season" | "business">,
  now: Date,
  timeZone: string,
): { subject: string; body: string } {
  const { text, replyDays } = content.acknowledgement;
  const { year, closesOn, closedLine } = content.season;
  const season = orderWindow(content.season, now, timeZone).open
    ? closesOn
      ? acknowledgementCopy.closesOn(year, formatDay(closesOn))
      : null
    : [acknowledgementCopy.closed(year), closedLine].filter(Boolean).join(" ");
  return {
    subject: acknowledgementCopy.subject(content.business.name),
    body: [text.replaceAll(daysToken, String(replyDays)), season].filter(Boolean).join("\n\n"),
  };
}
