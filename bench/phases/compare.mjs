import { median } from "../lib/lighthouse.mjs";
import { loadPhase } from "../lib/load.mjs";
import { log } from "../lib/progress.mjs";
import { browserHeaders } from "../lib/servers.mjs";

/** GET / on two builds in alternating rounds (A B, B A, ...), so drift on a shared machine hits both alike. */
export async function comparePhase(current, previous, options) {
  const rounds = options.quick ? 2 : options.compareOnly ? 6 : 3;
  const durationS = options.quick ? 3 : 5;
  const sides = { current: [], compare: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? ["current", "compare"] : ["compare", "current"];
    for (const side of order) {
      const server = side === "current" ? current : previous;
      log(`A/B round ${round + 1}/${rounds}: GET / on ${side}`);
      sides[side].push(
        await loadPhase({
          name: `GET / ${side}`,
          url: `${server.origin}/`,
          pid: server.pid,
          connections: options.connections,
          durationS,
          warmupS: round === 0 ? options.warmup : 0,
          options: { headers: browserHeaders },
        }),
      );
    }
  }
  const sum = (list) => ({
    requestsPerSec: median(list.map((r) => r.requestsPerSec)),
    p50: median(list.map((r) => r.latencyMs.p50)),
    p99: median(list.map((r) => r.latencyMs.p99)),
    cpuMsPerRequest: median(list.map((r) => r.serverCpuMsPerRequest)),
    rounds: list,
  });
  return { rounds, durationS, current: sum(sides.current), compare: sum(sides.compare) };
}
