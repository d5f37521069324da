import { inboxCopy } from "~/wording/inbox";
import { visible } from "~/text/safety";

const words = inboxCopy.delivery;

/** One notification as far as a summary tells it (the list's rows carry the channel and state only). */
export interface DeliveryState {
  channel: string;
  state: string;
  attempts?: number;
  lastError?: string | null;
  nextAttemptAt?: Date | null;
}

export const channelName = (channel: string) => words.channels[channel] ?? channel;
export const stateName = (state: string) => words.states[state] ?? state;

/** `2026-11-24 14:32:05 UTC` */
const utcTime = (at: Date) => `${at.toISOString().slice(0, 19).replace("T", " ")} UTC`;

function inTerminal({ channel, state, attempts = 0, lastError, nextAttemptAt }: DeliveryState): string {
  const tries = attempts > 0 ? words.terminal.tries(attempts) : "";
  const why = lastError && state !== "sent" ? ` (${visible(lastError)})` : "";
  // Not tried yet: it goes out as soon as a server runs; after a failure, the retry has its time.
  const next =
    state === "pending" && attempts > 0 && nextAttemptAt ? words.terminal.nextTry(utcTime(nextAttemptAt)) : "";
  return `${channel} ${state}${tries}${why}${next}`;
}

/**
 * Where an enquiry's notifications stand, in one line: "E-mail sent, Webhook waiting to be sent". The inbox list
 * (components/inbox/Delivery.tsx, which colours each state), the CSV export and `npm run inbox` all say it here; the
 * terminal's form names channels and states as --json does and adds each one's tries, last error and next try.
 */
export function deliverySummary(steps: readonly DeliveryState[], form: "owner" | "terminal" = "owner"): string {
  if (steps.length === 0) return form === "owner" ? words.none : words.terminal.none;
  return steps
    .map((step) => (form === "owner" ? `${channelName(step.channel)} ${stateName(step.state)}` : inTerminal(step)))
    .join(", ");
}
