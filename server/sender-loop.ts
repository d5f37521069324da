import { backgroundLoop } from "~/background-loop.server";
import { log } from "~/log.server";

/** One pass of a durable sender (customer mail, list mail, reminders, login alerts): when its next mail is due. */
export interface SenderRound {
  run(signal: AbortSignal): Promise<Date | null>;
  close(): void;
}

/**
 * Runs a sender's rounds in the background: at once, whenever woken, when the round says its next mail is due (no
 * sooner than `soonestMs` apart), and every `pollMs` for what other instances stored or left behind. A round reports
 * its own failures; `what` names it in the log line of anything else. Stopping waits for the round, then closes it.
 */
export function senderLoop(
  round: SenderRound,
  { pollMs, soonestMs = 250, what }: { pollMs: number; soonestMs?: number; what: string },
): { wake(): void; stop(): Promise<void> } {
  const loop = backgroundLoop({
    intervalMs: pollMs,
    pass: async (signal) => {
      const next = await round.run(signal);
      return next ? Math.min(pollMs, Math.max(soonestMs, next.getTime() - Date.now())) : pollMs;
    },
    onError: (error) => log.error(`${what}: ${(error as Error).message}`),
  });
  loop.start();
  return {
    wake: () => loop.wake(),
    stop: async () => {
      await loop.stop();
      round.close();
    },
  };
}
