import { loopSlot } from "~/background-loop.server";
import type { Config } from "~/config.server";
import { createListMailRound } from "~/notify/list-mail.server";
import type { WaitlistStore } from "~/store/waitlist.types";
import { publishedSender } from "./outbox-loop";
import { senderLoop } from "./sender-loop";

/**
 * The list's sender in this process (docs/waitlist.md): started once the inbox database is open when e-mail is set
 * up, a round at once, whenever a visitor asks here (wakeListMail), when the next mail is due (an announcement's turn
 * by MAIL_PER_MINUTE, a retry) and every 5 s for what other instances stored or left (a claim whose holder died);
 * stopped at the shutdown signal. The database lets one instance send each mail (app/store/waitlist.server.ts).
 */

/** How often a round looks for mail another instance stored or left behind. */
export const listMailPollMs = 5_000;

const running = loopSlot();

export function startListMail(store: WaitlistStore, config: Config): void {
  running.start(() => {
    const email = config.notify?.email;
    if (!email) return undefined;
    const round = createListMailRound({
      store,
      email,
      publicUrl: config.publicUrl,
      timeZone: config.timeZone,
      mailPerMinute: config.notify?.mailPerMinute,
      sender: publishedSender(config.publicUrl),
    });
    return senderLoop(round, { pollMs: listMailPollMs, soonestMs: 50, what: "list mail" });
  });
}

/** A visitor asked here: send the confirmation now rather than at the next poll. */
export const wakeListMail = running.wake;

export const stopListMail = running.stop;
