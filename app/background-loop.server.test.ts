import { describe, expect, it } from "vitest";
import { backgroundLoop, loopSlot, type BackgroundLoopOptions, type LoopTimers } from "./background-loop.server";

/** A clock that moves only when told: each timer due by then fires, in order, with the promises settled between. */
function fakeTimers() {
  let now = 0;
  let next = 0;
  const pending = new Map<number, { at: number; run: () => void }>();
  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  const timers: LoopTimers = {
    setTimeout(run, ms) {
      pending.set(++next, { at: now + ms, run });
      return next;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  return {
    timers,
    now: () => now,
    settle,
    /** The sleeps asked for and not over yet, in ms from now. */
    sleeping: () => [...pending.values()].map((timer) => timer.at - now),
    async advance(ms: number) {
      const until = now + ms;
      await settle();
      for (;;) {
        const due = [...pending.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].run();
        await settle();
      }
      now = until;
    },
  };
}

function loopWith(clock: ReturnType<typeof fakeTimers>, options: Partial<BackgroundLoopOptions> = {}) {
  const passes: number[] = [];
  const errors: { error: unknown; retryInMs: number }[] = [];
  const loop = backgroundLoop({
    intervalMs: 1_000,
    pass: async () => void passes.push(clock.now()),
    onError: (error, retryInMs) => errors.push({ error, retryInMs }),
    timers: clock.timers,
    ...options,
  });
  return { loop, passes, errors };
}

describe("a background loop", () => {
  it("runs a pass at start, then one each interval, and none before start", async () => {
    const clock = fakeTimers();
    const { loop, passes } = loopWith(clock);
    await clock.advance(5_000);
    expect(passes).toEqual([]);
    loop.start();
    loop.start(); // a second start changes nothing
    await clock.advance(2_500);
    expect(passes).toEqual([5_000, 6_000, 7_000]);
    await loop.stop();
  });

  it("sleeps what the pass asks for, and waits a first delay when given one", async () => {
    const clock = fakeTimers();
    const waits = [300, 0, 5_000];
    const passes: number[] = [];
    const loop = backgroundLoop({
      intervalMs: 1_000,
      firstDelayMs: 200,
      pass: async () => {
        passes.push(clock.now());
        return waits.shift();
      },
      onError: () => {},
      timers: clock.timers,
    });
    loop.start();
    await clock.advance(1_000);
    // 200 (first delay), +300, then at once (0), then 5 s asked.
    expect(passes).toEqual([200, 500, 500]);
    expect(clock.sleeping()).toEqual([4_500]);
    await loop.stop();
  });

  it("a wake cuts the sleep short, and a wake during a pass runs the next one right after it", async () => {
    const clock = fakeTimers();
    let release: (() => void) | undefined;
    const passes: number[] = [];
    const loop = backgroundLoop({
      intervalMs: 60_000,
      pass: async () => {
        passes.push(clock.now());
        if (passes.length === 2) await new Promise<void>((resolve) => (release = resolve));
      },
      onError: () => {},
      timers: clock.timers,
    });
    loop.start();
    await clock.advance(1_000);
    expect(passes).toEqual([0]);
    loop.wake();
    await clock.advance(10);
    expect(passes).toEqual([0, 1_000]); // the second pass is running, held
    loop.wake();
    release!();
    await clock.settle();
    expect(passes).toEqual([0, 1_000, 1_010]);
    expect(clock.sleeping()).toEqual([60_000]);
    await loop.stop();
  });

  it("backs off after failed passes, doubling up to its most, and forgets the failures after a success", async () => {
    const clock = fakeTimers();
    const outcomes = [false, false, false, false, true, false];
    const { loop, passes, errors } = loopWith(clock, {
      intervalMs: 60_000,
      backoff: { firstMs: 1_000, maxMs: 5_000 },
      pass: async () => {
        passes.push(clock.now());
        if (!(outcomes.shift() ?? true)) throw new Error("database down");
      },
    });
    loop.start();
    await clock.advance(80_000);
    expect(errors.map((e) => e.retryInMs)).toEqual([1_000, 2_000, 4_000, 5_000, 1_000]);
    expect((errors[0]!.error as Error).message).toBe("database down");
    // 0, +1 s, +2 s, +4 s, +5 s (the most), a success: the interval, a failure: the first backoff again.
    expect(passes).toEqual([0, 1_000, 3_000, 7_000, 12_000, 72_000, 73_000]);
    await loop.stop();
  });

  it("without a backoff, a failed pass is retried after the interval", async () => {
    const clock = fakeTimers();
    const { loop, passes, errors } = loopWith(clock, {
      pass: async () => {
        passes.push(clock.now());
        throw new Error("no");
      },
    });
    loop.start();
    await clock.advance(2_000);
    expect(passes).toEqual([0, 1_000, 2_000]);
    expect(errors.map((e) => e.retryInMs)).toEqual([1_000, 1_000, 1_000]);
    await loop.stop();
  });

  it("stop aborts the pass's signal, awaits the pass running, and runs none after", async () => {
    const clock = fakeTimers();
    let release: (() => void) | undefined;
    let signalled: AbortSignal | undefined;
    let finished = false;
    const { loop, passes } = loopWith(clock, {
      pass: async (signal) => {
        passes.push(clock.now());
        signalled = signal;
        await new Promise<void>((resolve) => (release = resolve));
        finished = true;
      },
    });
    loop.start();
    await clock.settle();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await clock.settle();
    expect(signalled!.aborted).toBe(true);
    expect(stopped).toBe(false);
    release!();
    await stopping;
    expect(finished).toBe(true);
    await clock.advance(10_000);
    loop.start();
    loop.wake();
    await clock.advance(10_000);
    expect(passes).toEqual([0]);
  });

  it("stop waits at most stopWaitMs for a pass that does not end", async () => {
    const clock = fakeTimers();
    const { loop } = loopWith(clock, { stopWaitMs: 4_000, pass: () => new Promise<void>(() => {}) });
    loop.start();
    let stopped = false;
    void loop.stop().then(() => (stopped = true));
    await clock.advance(3_999);
    expect(stopped).toBe(false);
    await clock.advance(1);
    expect(stopped).toBe(true);
  });

  it("a stop while sleeping ends the sleep at once", async () => {
    const clock = fakeTimers();
    const { loop, passes } = loopWith(clock, { intervalMs: 60_000 });
    loop.start();
    await clock.advance(10);
    await loop.stop();
    expect(clock.sleeping()).toEqual([]);
    expect(passes).toEqual([0]);
  });
});

describe("a loop slot", () => {
  it("keeps one loop, wakes it, and starts nothing once stopped", async () => {
    const slot = loopSlot<{ wake(): void; stop(): Promise<void> }>();
    const events: string[] = [];
    const make = (name: string) => ({
      wake: () => void events.push(`wake ${name}`),
      stop: async () => void events.push(`stop ${name}`),
    });
    slot.wake(); // nothing to wake yet
    expect(slot.start(() => undefined)).toBeUndefined(); // declined: nothing kept
    const first = slot.start(() => make("a"));
    expect(slot.start(() => make("b"))).toBe(first);
    slot.wake();
    await slot.stop();
    expect(slot.start(() => make("c"))).toBeUndefined();
    slot.wake();
    await slot.stop();
    expect(events).toEqual(["wake a", "stop a"]);
  });
});
