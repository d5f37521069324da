import { buildPageCopy } from "~/wording/build-page";
import { siteLink } from "~/text/site-link";
import { oneLine } from "~/text/safety";

/**
 * The customer's e-mail about a build update ("New photos of your build"): its subject and text, with the build page's
 * link. Pure: the customer-mail outbox (table `outgoing_mail`, kind `build-update`) queues and sends what this makes.
 */

const words = buildPageCopy.mail;

export interface BuildUpdateMailFacts {
  /** The customer's name as they gave it. */
  customerName: string;
  businessName: string;
  /** PUBLIC_URL + /build/{token}. */
  buildPageUrl: string;
  /** The update's text (may be empty: photos only). */
  body: string;
}

export function composeBuildUpdateMail(facts: BuildUpdateMailFacts): { subject: string; text: string } {
  const excerpt = facts.body.trim();
  const lines = [
    words.greeting(oneLine(facts.customerName, 100)),
    "",
    words.intro(oneLine(facts.businessName, 100)),
    ...(excerpt ? ["", excerpt.length > 600 ? `${excerpt.slice(0, 600).trimEnd()}…` : excerpt] : []),
    "",
    words.link,
    facts.buildPageUrl,
    "",
    words.closing,
    "",
    oneLine(facts.businessName, 100),
  ];
  return { subject: words.subject, text: `${lines.join("\n")}\n` };
}

/** The build page's address for a token. */
export const buildPageUrl = (publicUrl: string, token: string) =>
  siteLink(publicUrl, `/build/${encodeURIComponent(token)}`);
