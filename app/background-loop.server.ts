/**
 * The one way a process runs work in the background (the notification sender, the spam digest, the login alerts, the
 * photo encoder, the site content's poll, the backups, the retention purge): a pass at once (or after a first delay),
 * then one pass after another with a sleep between them that the pass chooses; a wake cuts the sleep short, a failed
 * pass is retried after a backoff, and a stop lets the pass running finish. What several instances must do only once
 * stays in each pass: it claims its items from the store under the store's lease (a notification, a rendition, the
 * day's digest) or the store's lock (the purge), so instances share the work rather than take turns at it.
 */

/** The timer the loop sleeps on: the process's own, or a fake one in tests. */
export interface LoopTimers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The process's timers, unref'd: a background loop never keeps a process alive by itself. */
export const processTimers: LoopTimers = {
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface BackgroundLoopOptions {
  /** One pass; resolves with the sleep before the next one in ms (intervalMs when it says nothing, none when <= 0). */
  pass(signal: AbortSignal): Promise<number | void>;
  intervalMs: number;
  /** The sleep before the first pass (default: none). */
  firstDelayMs?: number;
  /** After passes that threw: the first sleep, doubled after each further failure up to maxMs (default: intervalMs). */
  backoff?: { firstMs: number; maxMs: number };
  /** A pass threw: say so (the loop carries on after `retryInMs`). */
  onError(error: unknown, retryInMs: number): void;
  /** The longest stop() waits for the pass running before it returns anyway (default: until the pass ends). */
  stopWaitMs?: number;
  timers?: LoopTimers;
}

export interface BackgroundLoop {
  start(): void;
  /** Runs a pass soon: at once when sleeping, right after the current pass when one is running. */
  wake(): void;
  /** No more passes: the signal is aborted, the sleep cut, and the pass running awaited (at most stopWaitMs). */
  stop(): Promise<void>;
}

export function backgroundLoop({
  pass,
  intervalMs,
  firstDelayMs = 0,
  backoff = { firstMs: intervalMs, maxMs: intervalMs },
  onError,
  stopWaitMs,
  timers = processTimers,
}: BackgroundLoopOptions): BackgroundLoop {
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  let woken = false;
  let failures = 0;
  let cutSleep: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const handle = timers.setTimeout(finish, ms);
      function finish() {
        timers.clearTimeout(handle);
        cutSleep = undefined;
        resolve();
      }
      cutSleep = finish;
    });

  async function run(): Promise<void> {
    if (firstDelayMs > 0) await sleep(firstDelayMs);
    while (!stopping.signal.aborted) {
      woken = false;
      let wait: number;
      try {
        wait = (await pass(stopping.signal)) ?? intervalMs;
        failures = 0;
      } catch (error) {
        failures++;
        wait = Math.min(backoff.firstMs * 2 ** Math.min(failures - 1, 30), backoff.maxMs);
        onError(error, wait);
      }
      if (woken || stopping.signal.aborted || wait <= 0) continue;
      await sleep(wait);
    }
  }

  return {
    start() {
      if (!running && !stopping.signal.aborted) running = run();
    },
    wake() {
      woken = true;
      cutSleep?.();
    },
    async stop() {
      stopping.abort();
      cutSleep?.();
      if (!running || stopWaitMs === undefined) return running;
      let handle: unknown;
      await Promise.race([
        running,
        new Promise((resolve) => (handle = timers.setTimeout(() => resolve(null), stopWaitMs))),
      ]);
      timers.clearTimeout(handle);
    },
  };
}

/** What a slot keeps: a loop, or a loop with what it closes after it. */
export interface Stoppable {
  wake?(): void;
  stop(): Promise<void>;
}

/**
 * The process's one loop of a kind: started once, woken, stopped at shutdown. Once stopped it starts nothing more, so
 * a database that opens during the shutdown does not start a loop nobody would stop.
 */
export function loopSlot<T extends Stoppable = Stoppable>() {
  let current: T | undefined;
  let closed = false;
  return {
    /** Makes and keeps the loop unless one runs or the process is stopping; `make` may decline (undefined). */
    start(make: () => T | undefined): T | undefined {
      if (!current && !closed) current = make();
      return current;
    },
    wake: () => current?.wake?.(),
    stop: async (): Promise<void> => {
      closed = true;
      const stopping = current;
      current = undefined;
      await stopping?.stop();
    },
  };
}
