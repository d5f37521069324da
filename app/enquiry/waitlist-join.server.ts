import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { formTokenProblem } from "~/enquiry/form-token.server";
import { formTokenField, honeypotField } from "~/enquiry/fields";
import { log } from "~/log.server";
import { waitlistPage } from "~/wording/waitlist";

/**
 * A post of "Tell me when orders open" (docs/waitlist.md): the address checked, then the contact form's defences (the
 * hidden field, the form token and its 3-second minimum, with SPAM_FILTER; the rate limits, RATE_LIMIT_*, counted with
 * the enquiries'), then the store's join. What the visitor is told afterwards is the same whatever the address was
 * (new, waiting, on the list, unsubscribed) and for a bot: the form tells no one who is on the list.
 */

export type JoinAnswer =
  /** The same words for everyone who got this far. */
  | { kind: "asked" }
  /** The address cannot be used: the form again, with the message and what was typed. */
  | { kind: "invalid"; email: string; error: string }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "unavailable" };

const emailSchema = z.email();

export function checkWaitlistEmail(value: string): { ok: true; email: string } | { ok: false; error: string } {
  const email = value.trim();
  if (email === "") return { ok: false, error: waitlistPage.emailMissing };
  if (email.length > 254) return { ok: false, error: waitlistPage.emailTooLong };
  if (!emailSchema.safeParse(email).success) return { ok: false, error: waitlistPage.emailInvalid };
  return { ok: true, email };
}

export async function joinFromForm(
  form: FormData,
  context: AppLoadContext,
  clientAddress: string | undefined,
): Promise<JoinAnswer> {
  const { services } = context;
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const typed = text("email").slice(0, 1000);
  const checked = checkWaitlistEmail(typed);
  if (!checked.ok) return { kind: "invalid", email: typed, error: checked.error };
  try {
    const inbox = services.inbox();
    if (services.config.spam?.filter ?? true) {
      // A bot's doing (the hidden field filled, no token, a forged, old, used or too fast one): nothing is stored, and
      // it is told what a person is told.
      const problem = await formTokenProblem(inbox, text(formTokenField));
      if (text(honeypotField) !== "" || problem) {
        log.event("waitlist", { outcome: "refused", reason: problem ?? "honeypot" });
        return { kind: "asked" };
      }
    }
    const refusal = await services.admit(clientAddress);
    if (refusal) return { kind: "rate-limited", retryAfterSeconds: refusal.retryAfterSeconds };
    const outcome = await inbox.joinWaitlist(checked.email);
    log.event("waitlist", { outcome });
    if (outcome === "queued") services.wakeListMail?.();
    return { kind: "asked" };
  } catch (error) {
    log.error(`waitlist: could not store an address: ${(error as Error).message}`);
    return { kind: "unavailable" };
  }
}
