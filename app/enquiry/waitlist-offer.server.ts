import type { AppLoadContext } from "@remix-run/node";
import { formTokenForPage } from "~/enquiry/form-token.server";
import { waitlistFormMarkup, type WaitlistFormState } from "~/enquiry/waitlist-form.server";

/** What a page shows of the season that the offer depends on (the public site's `orders`). */
interface OrdersShown {
  orders: { open: boolean };
}

/**
 * Whether "Tell me when orders open" is offered now (docs/waitlist.md): while orders are closed (the owner's switch or
 * the close date, as the page shows them), with the embedded inbox (the list lives in its database) and with e-mail
 * configured (the list is nothing but e-mail).
 */
export function waitlistOffered(context: AppLoadContext, site: OrdersShown): boolean {
  const { config } = context.services;
  return !site.orders.open && !config.apiHost && Boolean(config.notify?.email);
}

/**
 * The form's markup for a page being rendered now, with its own form token when the spam filter is on; null when it is
 * not offered. A page that shows it carries one visitor's token: it is sent with no-store (never kept or shared).
 */
export async function waitlistFormFor(
  context: AppLoadContext,
  site: OrdersShown,
  state: Omit<WaitlistFormState, "formToken"> = {},
): Promise<string | null> {
  if (!waitlistOffered(context, site)) return null;
  const filter = context.services.config.spam?.filter ?? true;
  const formToken = filter ? await formTokenForPage(context.services) : "";
  return waitlistFormMarkup({ ...state, formToken });
}
