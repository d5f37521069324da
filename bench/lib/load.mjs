// One load phase: autocannon against a server running in another process, with that process's CPU time read from
// /proc before and after, so CPU ms per request = (CPU after - CPU before) / completed requests.
import autocannon from "autocannon";
import { cpuMs, sleep } from "./proc.mjs";

/** Runs autocannon and resolves with its result. A phase always ends: by duration, by amount, or by hardStopMs. */
function fire(options, hardStopMs) {
  return new Promise((resolve, reject) => {
    let stoppedEarly = false;
    const instance = autocannon(options, (error, result) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve({ result, stoppedEarly });
    });
    const timer = setTimeout(() => {
      stoppedEarly = true;
      instance.stop();
    }, hardStopMs);
  });
}

const completedOf = (result) =>
  Object.values(result.statusCodeStats ?? {}).reduce((sum, { count }) => sum + Number(count), 0);

/**
 * @param {object} phase
 * @param {string} phase.name
 * @param {string} phase.url
 * @param {number} phase.pid                 the server process whose CPU is charged to this phase
 * @param {number} phase.connections
 * @param {number} phase.durationS           measured part (ignored when amount is set)
 * @param {number} [phase.warmupS]           unmeasured run before it (same requests)
 * @param {number} [phase.amount]            a fixed number of requests instead of a duration
 * @param {object} [phase.options]           extra autocannon options (method, headers, body, requests...)
 */
export async function loadPhase({ name, url, pid, connections, durationS, warmupS = 0, amount, options = {} }) {
  const base = { url, connections, timeout: 10, ...options };
  if (warmupS > 0) {
    await fire({ ...base, duration: warmupS }, (warmupS + 15) * 1000);
    await sleep(250);
  }
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  const run = amount ? { ...base, amount } : { ...base, duration: durationS };
  // An amount-bounded phase still has a time limit: twice the planned duration plus slack.
  const { result, stoppedEarly } = await fire(run, (durationS * 2 + 15) * 1000);
  const elapsedS = (performance.now() - started) / 1000;
  // Let the server finish the few requests that were in flight when the client stopped, so their CPU is counted.
  await sleep(250);
  const cpu = cpuMs(pid) - cpuBefore;
  const completed = completedOf(result);
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]),
  );
  return {
    name,
    url,
    connections,
    durationS: Number(result.duration.toFixed(2)),
    elapsedS: Number(elapsedS.toFixed(2)),
    completed,
    requestsPerSec: completed / result.duration,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    serverCpuMs: cpu,
    serverCpuMsPerRequest: completed > 0 ? cpu / completed : NaN,
    stoppedEarly,
  };
}

export { completedOf };
