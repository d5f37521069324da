/**
 * A password hash takes ~19 MiB and a thread for tens of milliseconds: a burst of logins would fill the memory and
 * starve everything else. So at most `atOnce` hashes run and at most
 * `queue` wait their turn; past that a login is refused at once (the caller says so plainly), never kept waiting.
 */
export class HashGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly atOnce: number,
    readonly queue: number,
  ) {}

  /** Runs the task when a place is free; null (the task not run) when every place and the queue are taken. */
  run<T>(task: () => Promise<T>): Promise<T> | null {
    if (this.running < this.atOnce) {
      this.running++;
      return this.finish(task);
    }
    if (this.waiting.length >= this.queue) return null;
    return new Promise<void>((resolve) => this.waiting.push(resolve)).then(() => this.finish(task));
  }

  private async finish<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } finally {
      // The place goes straight to the next in the queue, so nothing can slip in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * One hash at a time, on the hashing thread (see hash-thread.server.ts: one 19 MiB block, whatever the load), and eight
 * waiting: well under a second's wait at ~50 ms a hash, and 20 checks a second, far above the site-wide login rate.
 */
export const loginHashing = { atOnce: 1, queue: 8, retryAfterSeconds: 5 } as const;

export const createLoginHashGate = () => new HashGate(loginHashing.atOnce, loginHashing.queue);
