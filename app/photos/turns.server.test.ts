import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { maxWaiting, photoTurn, PhotosBusy, turnAvailable, waitingTurns } from "./turns.server";

describe("one photo turn at a time", () => {
  it("runs photo work one at a time, first come first served, and refuses an upload past the waiting limit", async () => {
    let release!: () => void;
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const work = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      order.push(name);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running--;
      return name;
    };
    const first = photoTurn(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return "first";
    });
    const waiting = Array.from({ length: maxWaiting }, (_, index) => photoTurn(work(`upload ${index + 1}`)));
    expect(waitingTurns()).toBe(maxWaiting);
    expect(turnAvailable()).toBe(false);
    await expect(photoTurn(work("one too many"))).rejects.toBeInstanceOf(PhotosBusy);
    // The background encoder is never refused: it waits behind the uploads.
    const encoder = photoTurn(work("encoder"), { queueLimit: false });
    release();
    expect(await first).toBe("first");
    await Promise.all([...waiting, encoder]);
    expect(most).toBe(1);
    expect(order).toEqual([...Array.from({ length: maxWaiting }, (_, index) => `upload ${index + 1}`), "encoder"]);
    expect(turnAvailable()).toBe(true);
    // A turn whose work fails passes the turn on all the same.
    await expect(photoTurn(() => Promise.reject(new Error("broken photo")))).rejects.toThrow("broken photo");
    expect(await photoTurn(work("after"), { release: true })).toBe("after");
  });

  it("collects garbage after the work only when asked, and asks a function after the work (an idle poll: none)", async () => {
    // Forced full collections (gc()), as V8 reports them; V8's own collections carry no "forced" flag.
    const forced: PerformanceEntry[] = [];
    const observer = new PerformanceObserver((list) =>
      forced.push(
        ...list
          .getEntries()
          .filter((entry) => (gcFlags(entry) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0),
      ),
    );
    observer.observe({ entryTypes: ["gc"] });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
    try {
      let held = false;
      await photoTurn(async () => undefined, { queueLimit: false, release: () => held });
      await photoTurn(async () => undefined);
      await settle();
      expect(forced).toHaveLength(0);
      await photoTurn(
        async () => {
          held = true;
        },
        { queueLimit: false, release: () => held },
      );
      await photoTurn(async () => undefined, { release: true });
      await settle();
      expect(forced).toHaveLength(2);
    } finally {
      observer.disconnect();
    }
  });
});

/** A "gc" entry's flags (Node.js puts them in `detail`, which the DOM's PerformanceEntry type does not name). */
const gcFlags = (entry: PerformanceEntry) => (entry as { detail?: { flags?: number } }).detail?.flags ?? 0;
