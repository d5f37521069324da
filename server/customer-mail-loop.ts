import { loopSlot } from "~/background-loop.server";
import type { Config } from "~/config.server";
import { createCustomerMailRound } from "~/notify/customer-mail.server";
import type { OutgoingMailStore } from "~/store/outgoing-mail.types";
import { publishedSender } from "./outbox-loop";
import { senderLoop } from "./sender-loop";

/**
 * The sender of the owner's mail to customers (replies from the inbox, build updates) in this process: started once
 * the inbox database is open when e-mail is set up (SMTP_URL), a round at once, whenever a reply is stored here, when
 * a retry comes due, and every minute for what other instances stored or left (a claim whose holder died); stopped at
 * the shutdown signal. The database lets one instance send each mail (app/store/outgoing-mail.server.ts).
 */

/** How often a round looks for mails another instance stored or left behind. */
export const customerMailPollMs = 60_000;

const running = loopSlot();

export function startCustomerMail(store: OutgoingMailStore, config: Config): void {
  running.start(() => {
    const email = config.notify?.email;
    if (!email) return undefined;
    const round = createCustomerMailRound({ store, email, sender: publishedSender(config.publicUrl) });
    return senderLoop(round, { pollMs: customerMailPollMs, what: "customer mail" });
  });
}

/** A reply in this process has just been stored: send it now rather than at the next poll. */
export const wakeCustomerMail = running.wake;

export const stopCustomerMail = running.stop;
