import { notificationCopy } from "~/wording/notifications";
import { brand } from "~/wording/shared";
import type { SiteContent } from "~/site-content/schema.server";

/**
 * Who the notification e-mails come from: the business as the site publishes it now (its name on the From line and in
 * the words, its details in the signature) and the site's address. The server passes the published content in
 * (server/site-content-poll.ts), read at each send, so a publish changes the next e-mail on every instance.
 */
export interface Sender {
  business: SiteContent["business"];
  /** PUBLIC_URL; null leaves the site's address out. */
  siteUrl: string | null;
}

/** Before the content is given (the schema's default business is this name and nothing else). */
export const defaultSender: Sender = {
  business: { name: brand.name, email: null, phone: null, region: null, links: [], currency: "USD" },
  siteUrl: null,
};

/** The e-mail's last lines: "-- " and the business's details that are set, one a line. */
export function signature({ business, siteUrl }: Sender): string[] {
  const lines = [business.name, business.email, business.phone, business.region, siteUrl];
  return [notificationCopy.signatureSeparator, ...lines.filter((line): line is string => Boolean(line))];
}
