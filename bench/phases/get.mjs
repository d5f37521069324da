import { loadPhase } from "../lib/load.mjs";
import { machineLoad } from "../lib/proc.mjs";
import { log } from "../lib/progress.mjs";
import { browserHeaders, loadAcceptEncoding } from "../lib/servers.mjs";

/** One GET load phase: autocannon on one URL, with the machine's load average at its end. */
export async function getPhase(name, url, pid, options, acceptEncoding = loadAcceptEncoding) {
  log(`${name}: ${options.connections} connections, ${options.warmup} s warm-up + ${options.duration} s`);
  const result = await loadPhase({
    name,
    url,
    pid,
    connections: options.connections,
    durationS: options.duration,
    warmupS: options.warmup,
    options: { headers: { ...browserHeaders, "Accept-Encoding": acceptEncoding } },
  });
  result.acceptEncoding = acceptEncoding;
  result.machineLoad1m = machineLoad();
  return result;
}
