import { describe, expect, it } from "vitest";
import { HashGate } from "~/owner/hash-gate.server";

/** Tasks the test finishes by hand, so what runs and what waits is decided by the test, not by timing. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let started = false;
  return {
    task: async () => {
      started = true;
      await done;
      return "checked";
    },
    finish,
    started: () => started,
  };
}

describe("HashGate", () => {
  it("runs `atOnce` tasks, queues `queue` more in order and refuses the rest at once", async () => {
    const gate = new HashGate(2, 2);
    const tasks = Array.from({ length: 5 }, held);
    const runs = tasks.map((t) => gate.run(t.task));
    expect(runs.map((run) => run !== null)).toEqual([true, true, true, true, false]);
    expect(tasks.map((t) => t.started())).toEqual([true, true, false, false, false]);

    tasks[1]!.finish();
    await expect(runs[1]).resolves.toBe("checked");
    expect(tasks.map((t) => t.started())).toEqual([true, true, true, false, false]);
    // The freed place went to the queue: one place in the queue is free, and only one.
    const late = [held(), held()];
    expect(late.map((t) => gate.run(t.task) !== null)).toEqual([true, false]);

    for (const t of [...tasks, ...late]) t.finish();
    await Promise.all(runs.slice(0, 4));
    expect(tasks.slice(0, 4).every((t) => t.started())).toBe(true);
    expect(late[0]!.started()).toBe(true);
  });

  it("a task that fails frees its place", async () => {
    const gate = new HashGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error("argon2 failed")))).rejects.toThrow("argon2 failed");
    await expect(gate.run(async () => "next")).resolves.toBe("next");
  });
});
