import { log } from "~/log.server";
import { acknowledgementWords } from "~/notify/acknowledgement";
import type { SiteContent } from "~/site-content/schema.server";
import type { SiteServices } from "~/site-services.server";

/**
 * The acknowledgement of a clean enquiry the embedded inbox just stored (app/enquiry/accept.server.ts calls it, never
 * for spam, possible spam, a resend, or an enquiry taken by API_HOST): when the published site has it on and this
 * server sends e-mail, its words are made from the published content and stored in the customer-mail outbox within
 * the limits (app/store/outgoing-mail.server.ts), and the sender is woken. The visitor is answered without waiting
 * for it: nothing here throws, and a failure is a log line.
 */

export type AcknowledgementOutcome =
  "off" | "queued" | "not-clean" | "address-limit" | "site-limit" | "failing" | "error";

/** One JSON line per enquiry considered; never the address or any of the words. */
function logOutcome(enquiry: string, outcome: AcknowledgementOutcome, error?: string): void {
  log.event(
    "acknowledgement",
    { outcome, enquiry, ...(error ? { error } : {}) },
    outcome === "error" ? "error" : "info",
  );
}

export async function acknowledgeEnquiry(
  enquiryId: string,
  services: Pick<SiteServices, "config" | "inbox" | "wakeCustomerMail">,
  content: Pick<SiteContent, "acknowledgement" | "season" | "business">,
  now = new Date(),
): Promise<AcknowledgementOutcome> {
  const email = services.config.notify?.email;
  if (!content.acknowledgement.enabled || !email) return "off";
  try {
    const words = acknowledgementWords(content, now, services.config.timeZone);
    const queued = await services.inbox().queueAcknowledgement({ enquiryId, ...words, fromAddress: email.from }, now);
    const outcome = queued.queued ? "queued" : queued.reason;
    logOutcome(enquiryId, outcome);
    if (queued.queued) services.wakeCustomerMail?.();
    return outcome;
  } catch (error) {
    logOutcome(enquiryId, "error", (error as Error).message);
    return "error";
  }
}

/** What the contact routes hand acceptEnquiry: acknowledges in the background, so the visitor's answer never waits. */
export const acknowledger =
  (services: Pick<SiteServices, "config" | "inbox" | "wakeCustomerMail">, content: SiteContent) =>
  (enquiryId: string): void => {
    void acknowledgeEnquiry(enquiryId, services, content);
  };
